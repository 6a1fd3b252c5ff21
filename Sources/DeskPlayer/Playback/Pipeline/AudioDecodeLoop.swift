// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media

/// The audio decode thread of an opened file: decodes its packet queue,
/// places every frame's samples exactly on the timeline (encoder padding and
/// start-trim overlaps cut, loop passes following on sample-continuously),
/// resamples them to the device format and writes them to the ring; drops
/// what precedes a seek target and fades in a switched-to track. A pass
/// bounded by its video (`PassBounds.video`) is cut to the video's interval
/// at the sample, and where its audio starts late or ends early the rest of
/// the interval is silence; a trimmed one (`.trimmed`) loses the samples given.
final class AudioDecodeLoop {
    /// What is tracked for one serial; `reset` when a packet of a new serial arrives.
    private struct SerialState {
        var serial = -1
        /// The seek target: output samples before it are dropped.
        var target: MediaTime?
        /// Where the sample after the last one written goes on the timeline.
        var nextTime: MediaTime?
        var pass = 0
        /// Where the pass being decoded starts on the timeline.
        var passOffset = MediaTime.zero
        /// Timeline end of the last input sample kept (for overlap trimming).
        var inputEnd: MediaTime?
        /// Where the pass being decoded ends, relative to the item's start
        /// (its video's end, once the demuxer said; `PassBounds.video`).
        var passEnd: MediaTime?
        /// Something of the pass being decoded was placed (or made up).
        var passBegun = false
        /// Output samples of the fade-in done (a switched-to track fades in).
        var fadeDone: Int
        /// The A-B loop this serial's passes follow (nil: whole-file passes).
        var interval: LoopInterval?
        /// Where in the item the pass being decoded starts (its zero, or A).
        var origin = MediaTime.zero

        mutating func reset(serial: Int, start: AudioStart?, fadeLength: Int, interval: LoopInterval?) {
            self = SerialState(serial: serial, target: start?.time, pass: start?.pass ?? 0,
                               passOffset: start?.passOffset ?? .zero,
                               fadeDone: start?.fadesIn == true ? 0 : fadeLength, interval: interval)
            beginPass()
        }

        /// An A-B loop's pass runs from its origin to B, cut at both ends.
        mutating func beginPass() {
            guard let interval else { return }
            origin = interval.origin(ofPass: pass)
            passEnd = interval.b - origin
        }
    }

    /// The stream decoding now (it changes with a track switch).
    private var stream: OpenedStream
    /// Every audio stream that can play, by stream index.
    private let streams: [Int: OpenedStream]
    private let packets: PacketQueue
    private let ring: AudioRing
    private let control: PipelineControl
    private let passes: LoopPasses
    private let startOffset: MediaTime
    private let bounds: PassBounds
    /// The container's timestamps are interpolated between stamps (MPEG-TS, HLS).
    private let stampsAreInterpolated: Bool
    private let warning: @Sendable (String) -> Void
    private let resampler: Resampler
    /// The player's speed: passes samples through at 1x, stretches them otherwise.
    private let tempo: AudioTempo
    private let frame: Frame
    /// Silence where a pass's audio starts late or ends early (`PassBounds.video`).
    private let silence: Frame
    private var saidLateAudio = false
    private let outputRate: Int64
    /// A switched-to track fades in over its first 5 ms.
    private let fadeLength: Int
    private var current: SerialState
    /// Holes in the sound up to this long are silence; a longer jump is
    /// a timeline that moves on (`TimestampContinuity` leaves those).
    private static let longestHole = MediaTime(value: 10, timescale: 1)

    init(stream: OpenedStream, streams: [Int: OpenedStream], packets: PacketQueue, ring: AudioRing,
         control: PipelineControl, passes: LoopPasses, startOffset: MediaTime, bounds: PassBounds = .streams,
         stampsAreInterpolated: Bool = false, warning: @escaping @Sendable (String) -> Void) throws(MediaError) {
        self.stream = stream
        self.streams = streams
        self.packets = packets
        self.ring = ring
        self.control = control
        self.passes = passes
        self.startOffset = startOffset
        self.bounds = bounds
        self.stampsAreInterpolated = stampsAreInterpolated
        self.warning = warning
        resampler = Resampler(output: ring.format)
        tempo = try AudioTempo(format: ring.format, warning: warning)
        frame = try Frame()
        silence = try Frame()
        outputRate = Int64(ring.format.sampleRate)
        fadeLength = Int(outputRate / 200)
        current = SerialState(fadeDone: fadeLength)
    }

    /// The stream's real end on the timeline: decoders may return padding beyond it (AAC).
    private var streamEnd: MediaTime? { stream.end.map { $0 - startOffset } }

    /// One tick of the stream's time base: its timestamps are only this exact.
    private var timestampPrecision: Double { MediaTime(1, stream.timeBase).seconds }

    /// Runs until the pipeline is aborted.
    func run() {
        while let entry = packets.get() {
            if entry.serial != current.serial { begin(serial: entry.serial) }
            switch entry {
            case .packet(let packet, _):
                decode(packet)
            case .passEnd:
                endPass()
            case .passEndsAt(let end, _):
                current.passEnd = end - startOffset
            case .endOfStream:
                endStream()
            }
        }
    }

    /// A new serial: a seek, or a track switch to the stream it names.
    private func begin(serial: Int) {
        let start = control.audioStart(for: serial)
        if let index = start?.streamIndex, index != stream.index, let other = streams[index] {
            stream = other
        }
        // A fresh decoder (not a flushed one, which keeps state): a seek
        // back to zero plays what the first pass played.
        stream.decoder.renew()
        resampler.reset()
        tempo.reset()
        current.reset(serial: serial, start: start, fadeLength: fadeLength, interval: control.activeLoopInterval)
    }

    private func decode(_ packet: Packet?) {
        stream.decoder.decode(packet, into: frame, until: { control.isAborted }) { frame in
            if let pts = place(frame) { convert(frame.pointer, at: pts) }
        }
        control.decodeErrors.add(stream.decoder.takeErrors(), warning: warning)
    }

    /// Where the frame's first sample goes on the timeline, after cutting
    /// padding past the stream's end and what overlaps the samples already
    /// written; nil when nothing of it is left.
    private func place(_ frame: Frame) -> MediaTime? {
        let rate = Int64(max(frame.pointer.pointee.sample_rate, 1))
        let ts = frame.bestEffortTimestamp
        var relative = ts != DP_AV_NOPTS_VALUE ? MediaTime(ts, stream.timeBase) - startOffset
            : ((current.inputEnd ?? current.passOffset) - current.passOffset + current.origin)
        if bounds != .streams || current.interval != nil {
            // From the pass's own start (an A-B loop's A): its ends are cut at the sample.
            guard let inPass = cutToPass(frame, at: relative - current.origin, rate: rate) else { return nil }
            relative = inPass
        } else if let end = streamEnd {
            // Encoder padding past the stream's real end (AAC's last packet).
            let keep = max(0, (end - relative).floor(in: rate))
            if keep < Int64(frame.sampleCount) { frame.pointer.pointee.nb_samples = Int32(keep) }
            if keep == 0 { return nil }
        }
        var pts = relative + current.passOffset
        if bounds == .video && !current.passBegun {
            fillLateStart(until: pts)
        }
        current.passBegun = true
        if let e = current.inputEnd {
            if abs((pts - e).seconds) <= timestampPrecision + 1 / Double(rate) {
                // Within what the container's clock can say (Matroska
                // counts milliseconds): the samples simply follow on.
                pts = e
            } else if pts < e, stampsAreInterpolated, (e - pts).converted(to: rate).value <= Int64(frame.sampleCount) {
                // MPEG-TS stamps a PES once; FFmpeg counts the packets after
                // it from the one before, and where that one's length was
                // not known (the first packet of audio-only HLS) they come a
                // whole frame early until the next PES. Nothing in MPEG-TS
                // is trimmed, so the samples are real: they follow on.
                pts = e
            } else if pts < e {
                // Overlaps what was already written (a start trim the
                // decoder did not apply): drop the overlap, keep the seam exact.
                let overlap = (e - pts).converted(to: rate).value
                if overlap < Int64(rate) / 2 {
                    guard frame.dropLeadingSamples(Int(overlap)) else { return nil }
                    pts = e
                }
            } else if pts - e <= AudioDecodeLoop.longestHole {
                // A hole in the sound (a discontinuity whose audio starts
                // after its picture, a lost packet): silence, so the clock,
                // which is the audio played, runs on through it and the
                // pictures in it are shown, not dropped as late.
                writeSilence(from: e, to: pts)
                pts = current.inputEnd ?? pts
            }
        }
        current.inputEnd = pts + MediaTime(value: Int64(frame.sampleCount), timescale: rate)
        return pts
    }

    /// A bounded pass (`PassBounds.video`, `.trimmed`): where the frame at
    /// `timestamp` (from the item's start) lies in it, its samples before the pass's start (encoder
    /// priming) and past its end (padding) cut at the nearest sample; nil
    /// when nothing of it is left.
    private func cutToPass(_ frame: Frame, at timestamp: MediaTime, rate: Int64) -> MediaTime? {
        var relative = timestamp
        if current.passBegun, let e = current.inputEnd,
           abs((relative + current.passOffset - e).seconds) * Double(rate) <= Double(frame.sampleCount) / 2 {
            // Within half a frame of where the last one ended: it follows
            // on. MPEG-TS stamps a PES packet of several AAC frames once and
            // the frames after it get the first's time plus rounded 90 kHz
            // durations, drifting a few samples from the truth; the pass's
            // samples are counted from its first instead, so the cut at its
            // end makes it exactly the video's length.
            relative = e - current.passOffset
        }
        if relative < .zero {
            // What lies before the pass starts (the first video frame, or
            // the trim given): what is left starts the pass.
            let cut = (MediaTime.zero - relative).converted(to: rate).value
            guard cut < Int64(frame.sampleCount), frame.dropLeadingSamples(Int(cut)) else { return nil }
            relative = .zero
        }
        if let end = current.passEnd {
            let keep = max(0, (end - relative).converted(to: rate).value)
            if keep < Int64(frame.sampleCount) { frame.pointer.pointee.nb_samples = Int32(keep) }
            if keep == 0 { return nil }
        }
        return relative
    }

    private func convert(_ source: UnsafeMutablePointer<AVFrame>?, at time: MediaTime) {
        do {
            let (count, outTime) = try resampler.convert(source, startingAt: time)
            if count > 0 { write(count, at: outTime ?? time) }
        } catch {
            warning("audio: \(error)")
        }
    }

    /// Writes the resampler's `count` output frames, the first at `time`,
    /// waiting while the ring is full (until the serial goes stale).
    private func write(_ count: Int, at time: MediaTime) {
        var offset = 0
        var time = time
        if let t = current.target {
            // Accurate seek: drop output samples before the target.
            let skip = Int(min(Int64(count), max(0, (t - time).converted(to: outputRate).value)))
            offset = skip
            time = time + MediaTime(value: Int64(skip), timescale: outputRate)
            if offset < count { current.target = nil }
        }
        let channels = ring.format.channels
        if current.fadeDone < fadeLength {
            // A switched-to track: fade its first samples in (after the skip).
            let n = min(count - offset, fadeLength - current.fadeDone)
            for k in 0..<n {
                let gain = Float(current.fadeDone + k) / Float(fadeLength)
                for c in 0..<channels { resampler.buffer[(offset + k) * channels + c] *= gain }
            }
            current.fadeDone += n
        }
        guard offset < count else { return }
        current.nextTime = time + MediaTime(value: Int64(count - offset), timescale: outputRate)
        tempo.process(resampler.buffer + offset * channels, count: count - offset, at: time, speed: control.speed,
                      into: store)
    }

    /// Puts `count` frames (at `time`, each `ratio` of its period) in the
    /// ring, waiting while it is full; false once the serial went stale.
    private func store(_ samples: UnsafePointer<Float>, _ count: Int, _ time: MediaTime, _ ratio: StretchRatio) -> Bool {
        let channels = ring.format.channels
        var offset = 0
        while offset < count && !control.isAborted {
            let seen = ring.changed.generation
            let n = ring.write(samples + offset * channels, frames: count - offset,
                               time: time + ratio.duration(of: Int64(offset), sampleRate: outputRate),
                               ratio: ratio, serial: current.serial)
            if n == 0 {
                if ring.serial != current.serial { return false }
                // Until the device reads (or a seek flushes, or the item
                // stops: both signal the ring).
                ring.changed.wait(after: seen, timeout: WakeSignal.safetyBound)
                continue
            }
            offset += n
        }
        return !control.isAborted
    }

    /// The pass's last samples out, then the next pass starts exactly where
    /// they end. A pass bounded by its video ends exactly at the video's
    /// end, made up with silence where the audio stopped short of it. The
    /// decoder is made afresh and the resampler drained (its last samples
    /// out) and started afresh, so the next pass decodes and resamples
    /// exactly as the first did: every pass plays the same samples.
    private func endPass() {
        decode(nil)
        stream.decoder.renew()
        if let end = current.passEnd.map({ $0 + current.passOffset }) {
            let rate = Int64(max(stream.decoder.context.pointee.sample_rate, 1))
            let short = (end - (current.inputEnd ?? current.passOffset)).converted(to: rate).value
            if short > 1 { writeSilence(from: current.inputEnd ?? current.passOffset, to: end) }
            // Within a sample of it (timestamps are rounded): exactly there,
            // so every pass is the video's length.
            if short >= -1 { current.inputEnd = end }
        }
        drainResampler()
        resampler.reset()
        current.pass += 1
        current.passOffset = current.inputEnd ?? current.passOffset
        current.passEnd = nil
        current.passBegun = false
        current.beginPass()
        _ = passes.publish(current.pass, at: current.passOffset, fromAudio: true, serial: current.serial)
    }

    /// The pass's audio starts after its video: silence from the pass's
    /// start (or the seek target in it) up to `time`, so picture and sound
    /// keep one clock. Said once.
    private func fillLateStart(until time: MediaTime) {
        let from = max(current.passOffset, current.target ?? current.passOffset)
        let rate = Int64(max(stream.decoder.context.pointee.sample_rate, 1))
        guard (time - from).converted(to: rate).value > 1 else { return }
        if !saidLateAudio {
            saidLateAudio = true
            warning(String(format: "the audio starts %.3f s after the video: silence until then", (time - from).seconds))
        }
        writeSilence(from: from, to: time)
    }

    /// Silence from `start` to `end` on the timeline, through the resampler
    /// (so it runs on seamlessly), in the decoder's own format.
    private func writeSilence(from start: MediaTime, to end: MediaTime) {
        let context = stream.decoder.context.pointee
        let rate = Int64(max(context.sample_rate, 1))
        var time = start
        var left = (end - start).converted(to: rate).value
        while left > 0 && !control.isAborted && ring.serial == current.serial {
            let n = Int(min(left, 4096))
            do {
                try silence.makeSilence(count: n, like: stream.decoder.context)
            } catch {
                warning("audio: \(error)")
                return
            }
            convert(silence.pointer, at: time)
            time = time + MediaTime(value: Int64(n), timescale: rate)
            left -= Int64(n)
        }
        silence.unref()
        current.inputEnd = time
    }

    /// What the resampler still holds, out: it follows on from the last write.
    private func drainResampler() {
        guard let t = current.nextTime else { return }
        do {
            let (count, _) = try resampler.convert(nil)
            if count > 0 { write(count, at: t) }
        } catch {
            warning("audio: \(error)")
        }
    }

    private func endStream() {
        decode(nil)
        drainResampler()
        tempo.finish(into: store)
        ring.markEnded(serial: current.serial)
        stream.decoder.flush()
    }
}
