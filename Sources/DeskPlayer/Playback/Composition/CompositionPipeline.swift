// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// A composition playing as an item: one render thread fills the audio ring
/// from a `CompositionRenderer`, ahead of the device by the ring's length.
/// Seeks restart the renderer at the target sample; loop passes follow on
/// sample-continuously, as a file's do.
final class CompositionPipeline: ItemSource, @unchecked Sendable {  // mutable state in `control` (Mutex); the renderer belongs to the render thread
    private struct Control {
        var serial = 0
        var pendingSeek: (time: MediaTime, pass: Int)?
        var passes: Int? = 1
        var passStarts: [MediaTime] = [.zero]
        var speed = PlaybackSpeed.normal
    }

    let info: MediaInfo
    let frames = FrameQueue()
    let audioRing: AudioRing
    var hasVideo: Bool { false }
    var hasAudio: Bool { true }
    private let renderer: CompositionRenderer
    private let control = Mutex(Control())
    private let aborted = Atomic<Bool>(false)
    private let done = DispatchGroup()
    private let warningSink: @Sendable (String) -> Void

    init(_ composition: Composition, format: AudioFormat, warning: @escaping @Sendable (String) -> Void) {
        renderer = CompositionRenderer(composition, format: format)
        audioRing = AudioRing(format: format)
        var info = MediaInfo()
        info.formatName = "composition"
        info.audioCodec = "\(composition.tracks.count) tracks"
        info.audioSampleRate = format.sampleRate
        info.audioChannels = format.channels
        info.duration = MediaTime(value: renderer.totalSamples, timescale: Int64(format.sampleRate))
        self.info = info
        warningSink = warning
    }

    deinit { stop() }

    var serial: Int { control.withLock { $0.serial } }
    var passStarts: [MediaTime] { control.withLock { $0.passStarts } }

    func start() {
        done.enter()
        let thread = Thread { [self] in
            renderLoop()
            done.leave()
        }
        thread.name = "deskplayer.composition"
        thread.start()
    }

    func stop() {
        guard !aborted.exchange(true, ordering: .relaxed) else { return }
        audioRing.changed.signal()
        done.wait()
    }

    @discardableResult
    func seek(to time: MediaTime, pass: Int) -> Int {
        let serial = control.withLock { $0.serial } + 1
        audioRing.flush(serial: serial)
        control.withLock { c in
            c.serial = serial
            c.pendingSeek = (time, pass)
            c.passStarts = [.zero]
        }
        return serial
    }

    func setPasses(_ passes: Int?) { control.withLock { $0.passes = passes.map { max($0, 1) } } }
    /// The mix is made in media time (its ramps follow it) and then played at the speed.
    func setSpeed(_ speed: PlaybackSpeed) { control.withLock { $0.speed = speed } }
    func setDisplaySize(width: Int, height: Int) {}

    private var isAborted: Bool { aborted.load(ordering: .relaxed) }

    private func renderLoop() {
        let format = audioRing.format
        let rate = Int64(format.sampleRate)
        let block = 2048
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block * format.channels)
        defer { buffer.deallocate() }
        var serial = 0
        var passOffset = MediaTime.zero
        var passesDone = 0
        var ended = false
        let tempo: AudioTempo
        do { tempo = try AudioTempo(format: format, warning: warningSink) } catch {
            warningSink("composition: \(error)")
            return
        }
        let stale = { [self] in isAborted || self.serial != serial }
        let store: AudioTempo.Sink = { [self] samples, count, time, ratio in
            var written = 0
            while written < count && !stale() {
                let seen = audioRing.changed.generation
                let n = audioRing.write(samples + written * format.channels, frames: count - written,
                                        time: time + ratio.duration(of: Int64(written), sampleRate: rate),
                                        ratio: ratio, serial: serial)
                // Until the device reads, a seek flushes or `stop`: each signals the ring.
                if n == 0 { audioRing.changed.wait(after: seen, timeout: WakeSignal.safetyBound) }
                written += n
            }
            return !stale()
        }
        while !isAborted {
            let seen = audioRing.changed.generation
            let (current, seekTo, passes, speed) = control.withLock { c in
                defer { c.pendingSeek = nil }
                return (c.serial, c.pendingSeek, c.passes, c.speed)
            }
            if current != serial || seekTo != nil {
                serial = current
                passOffset = .zero
                passesDone = seekTo?.pass ?? 0
                renderer.seek(to: seekTo.map { $0.time.converted(to: rate).value } ?? 0)
                tempo.reset()
                ended = false
            }
            if ended {
                // Until a seek (it flushes the ring) or `stop`.
                audioRing.changed.wait(after: seen, timeout: WakeSignal.safetyBound)
                continue
            }
            if renderer.isAtEnd {
                passesDone += 1
                if let passes, passesDone >= passes {
                    tempo.finish(into: store)
                    audioRing.markEnded(serial: serial)
                    ended = true
                    continue
                }
                // Next pass: the timeline goes on where this one ended.
                passOffset = passOffset + MediaTime(value: renderer.totalSamples, timescale: rate)
                let start = passOffset
                control.withLock { c in if c.serial == serial { c.passStarts.append(start) } }
                renderer.seek(to: 0)
            }
            let time = passOffset + MediaTime(value: renderer.position, timescale: rate)
            guard let count = renderer.render(into: buffer, frames: block, abort: stale) else { continue }
            for w in renderer.takeWarnings() { warningSink(w) }
            tempo.process(buffer, count: count, at: time, speed: speed, into: store)
        }
    }
}
