// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Media

/// Plays audio at a player's speed: device-format samples (48 kHz stereo
/// float) with their media time go in, the same sound at the speed comes
/// out, each chunk stamped with the media time of its first sample and the
/// `StretchRatio` its samples stand for, so the ring's markers (and through
/// them the clock) stay exact.
///
/// At normal speed it is not there: samples pass untouched (sample-exact
/// seams). Otherwise libavfilter does the work (`FilterGraph`): with the
/// pitch kept, two `atempo` filters in a chain, the first taking the speed up
/// to 2x or down to 0.5x and the second the rest, so 0.25x to 4x is always
/// the same graph and every change of speed is a runtime command (no restart,
/// no click). Each tempo is a whole number of 1024ths: atempo moves its
/// input by `tempo x 1024` samples per 1024 output samples and truncates
/// that to a whole sample, so only such tempos keep the media time exact
/// over hours. Once stretched, a serial stays in the graph (at 1x atempo is
/// transparent to 1e-3) until the next seek, so going back to 1x never
/// clicks either. Without pitch correction (`keepsPitch` false) it resamples
/// to 48 kHz / speed instead, as mpv does; that graph is rebuilt for each
/// speed. One thread only (a decode or render thread).
final class AudioTempo {
    /// Receives `count` output frames, the first at media time `time`; false stops the output (a stale serial).
    typealias Sink = (_ samples: UnsafePointer<Float>, _ count: Int, _ time: MediaTime, _ ratio: StretchRatio) -> Bool

    private let format: AudioFormat
    private let sampleRate: Int64
    private let warning: @Sendable (String) -> Void
    private var graph: FilterGraph?
    /// The speed the graph is set to (normal when there is none).
    private var speed = PlaybackSpeed.normal
    private var ratio = StretchRatio.one
    /// The media time of the graph's next output sample.
    private var nextOut = MediaTime.zero
    /// Where the input written so far ends (media time).
    private var inputEnd: MediaTime?
    /// The last input frames (interleaved), mirrored into the graph at the
    /// end so its last window has real sound to align with, not silence.
    private var tail: [Float] = []
    private let tailFrames = 4096
    private let input: Frame
    private let output: Frame
    /// Input frames pushed into the graph (its timestamps).
    private var pushed: Int64 = 0
    /// The graph failed: normal speed until the next seek.
    private var broken = false

    init(format: AudioFormat, warning: @escaping @Sendable (String) -> Void) throws(MediaError) {
        self.format = format
        sampleRate = Int64(format.sampleRate)
        self.warning = warning
        input = try Frame()
        output = try Frame()
    }

    /// A seek or a new pass source: no graph until a speed other than 1 asks for one.
    func reset() {
        graph = nil
        speed = .normal
        ratio = .one
        inputEnd = nil
        broken = false
        tail.removeAll(keepingCapacity: true)
    }

    /// The two atempo tempos (in 1024ths) for `speed`: the first within
    /// atempo's 0.5...2, the second the rest.
    static func stages(for speed: Double) -> (Int64, Int64) {
        let s = min(max(speed, PlaybackSpeed.range.lowerBound), PlaybackSpeed.range.upperBound)
        let first = min(max(s, 0.5), 2)
        let k1 = Int64(saturating: (first * 1024).rounded())
        let k2 = min(max(Int64(saturating: (s * 1024 * 1024 / Double(k1)).rounded()), 512), 2048)
        return (k1, k2)
    }

    /// The ratio atempo really plays `speed` at.
    static func stretchRatio(for speed: Double) -> StretchRatio {
        let (k1, k2) = stages(for: speed)
        return StretchRatio(k1 * k2, 1 << 20)
    }

    /// The ratio resampling plays `speed` at: 48 kHz heard from `rate` Hz.
    private func resampledRate(for speed: Double) -> Int64 {
        max(1, Int64(saturating: (Double(sampleRate) / speed).rounded()))
    }

    /// Plays `count` frames at `time` at `wanted` speed into `sink`. False when the sink stopped.
    @discardableResult
    func process(_ samples: UnsafePointer<Float>, count: Int, at time: MediaTime, speed wanted: PlaybackSpeed,
                 into sink: Sink) -> Bool {
        guard count > 0 else { return true }
        if wanted != speed || (graph == nil && !wanted.isNormal && !broken) {
            if !apply(wanted, at: time, into: sink) { return false }
        }
        inputEnd = time + MediaTime(value: Int64(count), timescale: sampleRate)
        guard graph != nil else { return sink(samples, count, time, .one) }
        remember(samples, count: count)
        return push(samples, count: count) && pull(into: sink, until: nil)
    }

    /// The input is over: what the graph still holds comes out, cut exactly
    /// where the input ended (its last window aligned against a mirror of
    /// the sound before it, so it does not fade into silence).
    @discardableResult
    func finish(into sink: Sink) -> Bool {
        guard graph != nil, let end = inputEnd else { return true }
        var mirror = [Float](repeating: 0, count: tail.count)
        let channels = format.channels
        let frames = tail.count / channels
        for i in 0..<frames {
            for c in 0..<channels { mirror[i * channels + c] = tail[(frames - 1 - i) * channels + c] }
        }
        let ok = mirror.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, frames > 0 else { return true }
            return push(base, count: frames)
        }
        guard ok, drain() else { return true }
        let done = pull(into: sink, until: end)
        graph = nil
        return done
    }

    // MARK: Graph

    /// Moves to `wanted`: a runtime command when the graph can, else the old
    /// graph's sound out and a new graph from `time` on.
    private func apply(_ wanted: PlaybackSpeed, at time: MediaTime, into sink: Sink) -> Bool {
        if let graph, wanted.keepsPitch && speed.keepsPitch {
            let (k1, k2) = AudioTempo.stages(for: wanted.value)
            do {
                try graph.sendCommand(to: "atempo@first", "tempo", tempo(k1))
                try graph.sendCommand(to: "atempo@second", "tempo", tempo(k2))
                speed = wanted
                ratio = AudioTempo.stretchRatio(for: wanted.value)
            } catch {
                fail(error)
            }
            return true
        }
        if graph != nil {
            // The old graph's sound out to where its input ended, then the new one.
            if drain() && !pull(into: sink, until: nil) { return false }
            graph = nil
        }
        speed = wanted
        ratio = .one
        if wanted.isNormal || broken { return true }
        let chain: String
        if wanted.keepsPitch {
            let (k1, k2) = AudioTempo.stages(for: wanted.value)
            chain = "atempo@first=tempo=\(tempo(k1)),atempo@second=tempo=\(tempo(k2))"
            ratio = AudioTempo.stretchRatio(for: wanted.value)
        } else {
            // Resampled to fewer (faster) or more (slower) samples, heard at 48 kHz: the pitch moves with the speed.
            let rate = resampledRate(for: wanted.value)
            chain = "aresample=\(rate)"
            ratio = StretchRatio(sampleRate, rate)
        }
        do {
            graph = try FilterGraph(source: .audio(sampleRate: Int32(sampleRate), format: AV_SAMPLE_FMT_FLT,
                                                   channelLayout: "stereo", timeBase: AVRational(num: 1, den: Int32(sampleRate))),
                                    filters: chain + ",aformat=sample_fmts=flt:channel_layouts=stereo")
            nextOut = time
            pushed = 0
        } catch {
            fail(error)
        }
        return true
    }

    private func tempo(_ k: Int64) -> String { String(Double(k) / 1024) }

    private func push(_ samples: UnsafePointer<Float>, count: Int) -> Bool {
        guard let graph else { return true }
        let f = input.pointer
        av_frame_unref(f)
        f.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        f.pointee.sample_rate = Int32(sampleRate)
        f.pointee.nb_samples = Int32(count)
        var stereo = dp_channel_layout_stereo()
        do throws(MediaError) {
            try MediaError.check(av_channel_layout_copy(&f.pointee.ch_layout, &stereo), "audio speed")
            try MediaError.check(av_frame_get_buffer(f, 0), "audio speed")
            guard let data = f.pointee.data.0 else { throw MediaError("audio speed: no buffer") }
            UnsafeMutableRawPointer(data).copyMemory(from: samples, byteCount: count * format.channels * 4)
            f.pointee.pts = pushed
            pushed += Int64(count)
            try graph.push(input)
        } catch {
            fail(error)
            return false
        }
        return true
    }

    /// Ends the graph's input so it gives out what it holds.
    private func drain() -> Bool {
        guard let graph else { return false }
        do { try graph.push(nil) } catch {
            fail(error)
            return false
        }
        return true
    }

    /// Hands every frame the graph has ready to `sink`; with `end`, nothing
    /// from that media time on.
    private func pull(into sink: Sink, until end: MediaTime?) -> Bool {
        guard let graph else { return true }
        while true {
            let result: FilterGraph.Output
            do { result = try graph.pull(into: output) } catch {
                fail(error)
                return true
            }
            guard result == .frame else { return true }
            defer { output.unref() }
            var count = Int(output.pointer.pointee.nb_samples)
            if let end {
                let left = ratio.frames(covering: end - nextOut, sampleRate: sampleRate)
                count = Int(min(Int64(count), max(left, 0)))
            }
            guard count > 0, let data = output.pointer.pointee.data.0 else { continue }
            let samples = UnsafeRawPointer(data).assumingMemoryBound(to: Float.self)
            let time = nextOut
            nextOut = nextOut + ratio.duration(of: Int64(count), sampleRate: sampleRate)
            if !sink(samples, count, time, ratio) { return false }
        }
    }

    private func remember(_ samples: UnsafePointer<Float>, count: Int) {
        let channels = format.channels
        let keep = min(count, tailFrames)
        tail.append(contentsOf: UnsafeBufferPointer(start: samples + (count - keep) * channels, count: keep * channels))
        if tail.count > tailFrames * channels { tail.removeFirst(tail.count - tailFrames * channels) }
    }

    /// Said; the sound goes on at normal speed until the next seek.
    private func fail(_ error: MediaError) {
        graph = nil
        ratio = .one
        guard !broken else { return }
        broken = true
        warning("audio speed: \(error); playing at normal speed")
    }
}
