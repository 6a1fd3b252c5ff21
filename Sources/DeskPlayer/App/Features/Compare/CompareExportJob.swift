// SPDX-License-Identifier: GPL-3.0-or-later
import Analysis
import CFFmpeg
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// Renders a comparison to a movie file (`--compare-export`,
/// `compare-export`): at the reference's frame rate, from its start to its
/// last frame (not to the duration its header claims), each side's frame due at that time (its shift added) is decoded
/// again, drawn by `CompareExportRenderer` (the window's compositing code:
/// wipe, stacks, difference, labels), encoded by `MovieEncoder` (H.264)
/// with the side heard's sound. Written under a temporary name and put in
/// place at the end, so a failed or stopped export leaves no half file.
struct CompareExportPlan: @unchecked Sendable {  // `state` is a copy of the comparison's own, handed to one thread
    /// Each compared file (the reference first); nil where one has none.
    var paths: [String?]
    /// A copy of the comparison's state (the view, B, wipe, difference, shifts, labels, zoom).
    var state: CompareState
    var width: Int
    var height: Int
    var output: URL
    var settings = VideoFilterSettings()
    /// The side whose sound goes along (an index of `paths`), or none.
    var audioSide: Int?
    /// Both sides' sound, one per stereo channel: A's (mixed to mono) on the left, B's on the right.
    var audioBoth = false

    /// A copy of `state`, so the window's later changes leave the export alone (main thread).
    static func copy(_ state: CompareState) -> CompareState { state.copy() }

    /// The size an export without a window has: the reference's display
    /// size, twice as wide (hstack) or tall (vstack) for the stacks.
    static func size(of info: MediaInfo, mode: CompareState.Mode) -> (width: Int, height: Int) {
        let (w, h) = (max(info.displayWidth, 2), max(info.displayHeight, 2))
        switch mode {
        case .hstack: return (2 * w, h)
        case .vstack: return (w, 2 * h)
        case .wipe, .diff, .flip: return (w, h)
        }
    }
}

/// What an export made.
struct CompareExportSummary: Sendable {
    var frames: Int
    var width: Int
    var height: Int
    var frameRate: Double
    var codec: String
    var seconds: Double
    var withAudio: Bool

    var line: String {
        let duration = Double(frames) / max(frameRate, 1e-9)
        return String(format: "%d frames (%dx%d, %.3f fps, %@%@, %.2f s of video) in %.2f s, %.2fx real time", frames, width, height,
                      frameRate, codec, withAudio ? " + AAC" : "", duration, seconds, duration / max(seconds, 1e-9))
    }
}

enum CompareExporter {
    /// The next stretch of sound: the one side's stereo, or with `split`
    /// each side mixed to mono, A's on the left and B's on the right (a side
    /// without sound leaves its channel silent).
    static func sound(_ sides: [CompareExportAudio], until seconds: Double, split: Bool) throws(MediaError) -> [Float] {
        guard split else { return try sides.first?.samples(until: seconds) ?? [] }
        var channels: [[Float]] = []
        for side in sides { channels.append(try side.samples(until: seconds)) }
        let count = channels.map(\.count).max() ?? 0
        var out = [Float](repeating: 0, count: count)
        for (c, samples) in channels.prefix(2).enumerated() {
            var i = 0
            while i + 1 < samples.count {
                out[i + c] = 0.5 * (samples[i] + samples[i + 1])
                i += 2
            }
        }
        return out
    }

    /// Runs the export on the calling thread. `progress` gets frames done
    /// and of how many; `stopped` is asked between frames.
    static func run(_ plan: CompareExportPlan, progress: (Int, Int?) -> Void,
                    stopped: () -> Bool) throws(MediaError) -> CompareExportSummary {
        let started = HostTime.now()
        let shown = Set([0, plan.state.mode == .flip ? plan.state.flipShown : plan.state.other])
        var inputs: [CompareExportInput?] = []
        for (index, path) in plan.paths.enumerated() {
            guard shown.contains(index) || index == plan.state.other, let path else {
                inputs.append(nil)
                continue
            }
            inputs.append(try CompareExportInput(path: path, settings: plan.settings))
        }
        guard let reference = inputs.first ?? nil else { throw MediaError("no reference to export") }
        let renderer = try CompareExportRenderer(
            state: plan.state,
            sides: zip(plan.paths, inputs).map { (name: $0 ?? "", info: $1?.info ?? MediaInfo()) },
            width: plan.width & ~1, height: plan.height & ~1)
        let rate = reference.frameRate.num > 0 && reference.frameRate.den > 0 ? reference.frameRate : AVRational(num: 25, den: 1)
        let fps = av_q2d(rate)
        let duration = reference.info.duration?.seconds
        let total = reference.expectedFrames ?? duration.map { Int(saturating: ($0 * fps).rounded()) }
        var sounds: [CompareExportAudio] = []
        let heard: [Int] = plan.audioBoth ? [0, plan.state.other] : (plan.audioSide.map { [$0] } ?? [])
        for side in heard {
            guard plan.paths.indices.contains(side), let path = plan.paths[side],
                  let sound = try CompareExportAudio(path: path, shift: plan.state.shift(of: side)) else { continue }
            sounds.append(sound)
        }
        let audio: [CompareExportAudio]? = sounds.isEmpty ? nil : sounds
        let (descriptor, temporary) = try AtomicFile.createTemporary(beside: plan.output)
        close(descriptor)
        var committed = false
        defer { if !committed { unlink(temporary.path) } }
        let encoder = try MovieEncoder(path: temporary.path, name: plan.output.path, width: renderer.width,
                                       height: renderer.height, frameRate: rate,
                                       audio: audio.map { _ in MovieEncoder.AudioInput(sampleRate: CompareExportAudio.sampleRate) })
        var frames = 0
        while total.map({ frames < $0 }) ?? true {
            if stopped() { throw MediaError("stopped") }
            let t = Double(frames) / fps
            let due = inputs.enumerated().map { index, input in
                input.flatMap { side in
                    side.frame(at: t + plan.state.shift(of: index)).map {
                        (frame: $0.frame, time: $0.time, notes: side.toneMapped ? ["HDR tone mapped"] : [])
                    }
                }
            }
            // The reference's frames end the export, whatever its header claims
            // (`total` comes from the claim): a file that says ten hours and
            // holds two seconds exports two seconds; one that gave none, none.
            // Its last frame is shown for one frame's time (to the nearest frame).
            if reference.isAtEnd, (due.first??.time).map({ t > $0 + 0.5 / fps }) ?? true { break }
            guard let picture = renderer.render(due, at: t) else { throw MediaError("cannot draw the export's frame") }
            try encoder.writeVideo(bgra: picture.pixels, pitch: picture.pitch)
            if let audio { try encoder.writeAudio(try CompareExporter.sound(audio, until: Double(frames + 1) / fps, split: plan.audioBoth)) }
            frames += 1
            progress(frames, total)
        }
        if let failure = reference.failure { throw MediaError("\(reference.path): \(failure)") }
        try encoder.finish()
        try AtomicFile.commit(temporary, to: plan.output)
        committed = true
        return CompareExportSummary(frames: frames, width: renderer.width, height: renderer.height, frameRate: fps,
                                    codec: encoder.codecName, seconds: Double(HostTime.now() &- started) / 1e9,
                                    withAudio: audio != nil)
    }
}

/// An export on a thread of its own (the `compare-export` command): the
/// main loop polls its progress and outcome. Thread-safe.
final class CompareExportJob: @unchecked Sendable {  // progress and outcome guarded by `lock`
    private let lock = NSLock()
    private var done = 0
    private var total: Int?
    private var outcome: Result<CompareExportSummary, MediaError>?
    private var stopRequested = false
    /// Signalled when the thread is done (the temporary file removed, or the file in place).
    private let finished = DispatchSemaphore(value: 0)
    let plan: CompareExportPlan

    init(plan: CompareExportPlan) { self.plan = plan }

    func start() {
        let worker = Thread { [self] in
            let result: Result<CompareExportSummary, MediaError>
            do throws(MediaError) {
                result = .success(try CompareExporter.run(plan, progress: { done, total in
                    lock.withLock { (self.done, self.total) = (done, total) }
                }, stopped: { lock.withLock { stopRequested } }))
            } catch {
                result = .failure(error)
            }
            lock.withLock { outcome = result }
            finished.signal()
        }
        worker.name = "compare-export"
        worker.start()
    }

    /// Asks the thread to stop after its frame; with `waiting`, until it has
    /// (at most 5 s: quitting leaves no temporary file behind).
    func stop(waiting: Bool = false) {
        lock.withLock { stopRequested = true }
        if waiting { _ = finished.wait(timeout: .now() + 5) }
    }

    /// Frames done, of how many, and the outcome once finished.
    var state: (done: Int, total: Int?, outcome: Result<CompareExportSummary, MediaError>?) {
        lock.withLock { (done, total, outcome) }
    }
}
