// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import CFFmpeg
import Collections
import Foundation

/// One side of a measurement: a file's main video stream, demuxed and
/// decoded as fast as the cores allow on its own thread (FFmpeg's frame
/// threads within), into a few frames waiting for the metrics. Frames come
/// out with `pts` counted from the file's start in the stream's time base,
/// as FFmpeg's command line gives them to its filters (the container's
/// start time taken off). Thread-safe: the queue is guarded by its
/// NSCondition; the input and decoder belong to the reading thread.
package final class MetricsInput: @unchecked Sendable {  // queue guarded by `condition`; input/decoder used by the reader thread only
    /// What comes out, in order.
    package enum Entry: @unchecked Sendable {  // the frame belongs to whoever took the entry
        case frame(Frame)
        /// No more frames; with the reason when reading or decoding failed.
        case end(MediaError?)
    }

    package let name: String
    package let timeBase: AVRational
    /// The stream's frame rate (0/1 when the file does not say).
    package let frameRate: AVRational
    /// The stream's length in seconds, when the file says.
    package let duration: Double?
    /// How many frames the file says it has, or its length times its rate.
    package let expectedFrames: Int?
    /// The video's transfer function is HDR's (PQ or HLG), as its stream says: "PQ", "HLG", or nil for SDR.
    package let hdrTransfer: String?

    private let input: MediaInput
    private let decoder: Decoder
    private let streamIndex: Int32
    /// The container's start in the stream's ticks (taken off every pts).
    private let startTicks: Int64
    private let condition = NSCondition()
    private var entries = Deque<Entry>()
    private let capacity: Int
    private var stopped = false

    /// Opens `path` and its best video stream; the error says what is wrong
    /// with the file. `capacity`: frames decoded ahead.
    package init(path: String, capacity: Int = 8) throws(MediaError) {
        name = path
        self.capacity = capacity
        input = try MediaInput(location: MediaLocation(path), interrupt: InterruptFlag())
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO), let stream = input.stream(index) else {
            throw MediaError("no video stream to measure")
        }
        streamIndex = Int32(index)
        // The file's other streams are not read at all.
        for i in 0..<input.streamCount where i != index { input.stream(i)?.pointee.discard = AVDISCARD_ALL }
        decoder = try Decoder(stream: stream, threads: 0)
        switch stream.pointee.codecpar.pointee.color_trc {
        case AVCOL_TRC_SMPTE2084: hdrTransfer = "PQ"
        case AVCOL_TRC_ARIB_STD_B67: hdrTransfer = "HLG"
        default: hdrTransfer = nil
        }
        timeBase = stream.pointee.time_base
        let average = stream.pointee.avg_frame_rate
        frameRate = average.num > 0 && average.den > 0 ? average : stream.pointee.r_frame_rate
        let start = input.context.pointee.start_time
        startTicks = start == DP_AV_NOPTS_VALUE ? 0 : av_rescale_q(start, AVRational(num: 1, den: DP_AV_TIME_BASE), timeBase)
        if stream.pointee.duration > 0 && stream.pointee.duration != DP_AV_NOPTS_VALUE {
            duration = ContainerMath.seconds(stream.pointee.duration, in: timeBase) ?? 0
        } else {
            duration = input.durationMicroseconds.map { Double($0) / 1e6 }
        }
        if stream.pointee.nb_frames > 0 {
            expectedFrames = Int(stream.pointee.nb_frames)
        } else if let duration, frameRate.num > 0 {
            expectedFrames = Int(saturating: (duration * av_q2d(frameRate)).rounded())
        } else {
            expectedFrames = nil
        }
    }

    deinit { stop() }

    /// Starts reading, from `seconds` (the keyframe at or before it) when given.
    package func start(at seconds: Double? = nil) {
        let reader = Thread { [self] in read(from: seconds) }
        reader.name = "metrics-read"
        reader.start()
    }

    /// The next frame or the end, waiting for it; nil once stopped.
    package func next() -> Entry? {
        condition.lock()
        defer { condition.unlock() }
        while entries.isEmpty && !stopped { condition.wait() }
        if stopped { return nil }
        let entry = entries.removeFirst()
        condition.broadcast()
        return entry
    }

    /// Makes the reader give up (a read in progress is interrupted) and drops what waits.
    package func stop() {
        condition.lock()
        stopped = true
        entries.removeAll()
        condition.broadcast()
        condition.unlock()
        input.interrupt.set()
    }

    private var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Waits for room, then queues; false once stopped.
    @discardableResult
    private func put(_ entry: Entry) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while entries.count >= capacity && !stopped { condition.wait() }
        guard !stopped else { return false }
        entries.append(entry)
        condition.broadcast()
        return true
    }

    /// The reader thread: packets of the one stream to the decoder, frames
    /// out with their time from the start.
    private func read(from seconds: Double?) {
        do {
            let packet = try Packet()
            let frame = try Frame()
            var lastPts: Int64?
            if let seconds, seconds > 0 {
                let start = input.context.pointee.start_time
                try input.seek(toMicroseconds: Int64(saturating: seconds * 1e6) + (start == DP_AV_NOPTS_VALUE ? 0 : start))
            }
            let receive = { [self] (frame: Frame) in
                let best = frame.bestEffortTimestamp
                let pts: Int64
                if best != DP_AV_NOPTS_VALUE {
                    pts = best &- startTicks
                } else {
                    // No time at all: one frame after the last (at the stream's rate).
                    let step = ContainerMath.ticksPerFrame(frameRate: frameRate, timeBase: timeBase) ?? 1
                    pts = (lastPts ?? -step) &+ max(step, 1)
                }
                lastPts = pts
                frame.pointer.pointee.pts = pts
                guard let moved = try? Frame() else { return }
                av_frame_move_ref(moved.pointer, frame.pointer)
                put(.frame(moved))
            }
            while !isStopped {
                let more: Bool
                do { more = try input.read(into: packet) } catch {
                    if !isStopped { put(.end(error)) }
                    return
                }
                guard more else { break }
                defer { packet.unref() }
                guard packet.streamIndex == streamIndex else { continue }
                decoder.decode(packet, into: frame, until: { isStopped }, each: receive)
            }
            decoder.decode(nil, into: frame, until: { isStopped }, each: receive)
            put(.end(nil))
        } catch {
            put(.end(error))
        }
    }
}
