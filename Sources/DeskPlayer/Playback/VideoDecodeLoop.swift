import CFFmpeg

/// The video decode thread of an opened file: decodes its packet queue,
/// drops what precedes a seek target, converts each picture to the display
/// size (the selected subtitles drawn on it) and queues it for the
/// presenter, timed on the continuous timeline of the loop passes.
final class VideoDecodeLoop {
    /// What is tracked for one serial; `reset` when a packet of a new serial arrives.
    private struct SerialState {
        var serial = -1
        /// The seek target: frames that end before it are not shown.
        var target: MediaTime?
        /// Frames queued so far.
        var delivered = 0
        /// A frame before the target is held, in case nothing later comes.
        var hasHeld = false
        var pass = 0
        /// Where the pass being decoded starts on the timeline.
        var passOffset = MediaTime.zero
        /// Where the last frame queued ends.
        var lastEnd: MediaTime?
        /// The A-B loop this serial's passes follow: each later pass shows
        /// the frames on screen from A (where it starts) to B.
        var interval: LoopInterval?
        var origin = MediaTime.zero

        mutating func reset(serial: Int, target: MediaTime?, interval: LoopInterval?) {
            self = SerialState(serial: serial, target: target, interval: interval)
        }
    }

    private let stream: OpenedStream
    private let packets: PacketQueue
    private let frames: FrameQueue
    private let control: PipelineControl
    private let passes: LoopPasses
    private let subtitles: SubtitleTracks?
    private let startOffset: MediaTime
    /// A frame's duration when its packet does not say.
    private let nominalDuration: MediaTime
    private let warning: @Sendable (String) -> Void
    private let scaler = Scaler()
    private let frame: Frame
    /// The latest frame before the seek target.
    private let held: Frame
    private var current = SerialState()

    init(stream: OpenedStream, frameRate: Double?, packets: PacketQueue, frames: FrameQueue,
         control: PipelineControl, passes: LoopPasses, subtitles: SubtitleTracks?, startOffset: MediaTime,
         warning: @escaping @Sendable (String) -> Void) throws(MediaError) {
        self.stream = stream
        self.packets = packets
        self.frames = frames
        self.control = control
        self.passes = passes
        self.subtitles = subtitles
        self.startOffset = startOffset
        nominalDuration = frameRate.map { MediaTime(seconds: 1 / $0) } ?? MediaTime(value: 1, timescale: 25)
        self.warning = warning
        frame = try Frame()
        held = try Frame()
    }

    /// Runs until the pipeline is aborted.
    func run() {
        while let entry = packets.get() {
            if entry.serial != current.serial {
                stream.decoder.flush()
                current.reset(serial: entry.serial, target: control.seekTarget(for: entry.serial),
                              interval: control.activeLoopInterval)
            }
            switch entry {
            case .packet(let packet, _):
                decode(packet)
            case .passEnd:
                endPass()
            case .passEndsAt:
                break  // only audio is cut to the pass's end
            case .endOfStream:
                endStream()
            }
        }
    }

    private func decode(_ packet: Packet?) {
        stream.decoder.decode(packet, until: { control.isAborted }, receive: receiveAll)
    }

    private func receiveAll() {
        while !control.isAborted {
            let result: Decoder.Output
            do { result = try stream.decoder.receive(into: frame) } catch { return }
            guard result == .frame else { return }
            deliver(frame)
            frame.unref()
        }
    }

    private func deliver(_ source: Frame) {
        let itemTime = MediaTime(source.bestEffortTimestamp, stream.timeBase) - startOffset
        if let interval = current.interval, itemTime >= interval.b { return }  // shown from B on: the next pass's
        let pts = itemTime - current.origin + current.passOffset
        let d = source.pointer.pointee.pkt_duration
        let duration = d > 0 ? MediaTime(d, stream.timeBase) : nominalDuration
        if let t = current.target, pts + duration <= t {
            // Before the seek target: keep only the latest, in case nothing later comes.
            held.unref()
            av_frame_move_ref(held.pointer, source.pointer)
            current.hasHeld = true
            return
        }
        guard let picture = frames.acquireBuffer(serial: current.serial) else { return }
        let size = control.displaySize
        picture.resize(width: size.width, height: size.height)
        do {
            try scaler.scale(source.pointer, into: picture)
            subtitles?.draw(on: picture, at: pts - current.passOffset, warning: warning)
        } catch {
            frames.recycle(picture)
            warning("video: \(error)")
            return
        }
        frames.push(VideoFrame(picture: picture, pts: pts, duration: duration, serial: current.serial))
        current.delivered += 1
        current.lastEnd = pts + duration
    }

    /// Every frame of this pass out; the next pass follows audio's exact
    /// seam, or the last frame's end when there is no audio.
    private func endPass() {
        decode(nil)
        stream.decoder.flush()
        current.pass += 1
        current.passOffset = passes.awaitAudioStart(of: current.pass, serial: current.serial,
                                                    isAborted: { control.isAborted })
            ?? passes.publish(current.pass, at: current.lastEnd ?? current.passOffset, fromAudio: false,
                              serial: current.serial)
        if let interval = current.interval {
            // An A-B pass starts at A: what ends before it is not shown (as after a seek).
            current.origin = interval.origin(ofPass: current.pass)
            current.target = current.passOffset
        }
    }

    private func endStream() {
        decode(nil)
        if current.delivered == 0 && current.hasHeld {
            current.target = nil  // a seek at or past the end shows the last frame
            deliver(held)
        }
        frames.markEnded(serial: current.serial)
        stream.decoder.flush()
    }
}
