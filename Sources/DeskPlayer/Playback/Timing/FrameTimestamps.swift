// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Collections
import Media

/// Gives every decoded video frame a presentation time, whatever its
/// container stamped. FFmpeg leaves a frame without one (`best_effort_timestamp`
/// unset) in three cases this machine's FFmpeg 5.1 shows with `ffprobe
/// -show_frames`:
/// - raw elementary streams (`.h264`, `.hevc`): no packet carries a time;
/// - the frames a decoder with reordering delay gives back when drained at
///   the end (AVI, MPEG-PS, raw MPEG-2): their packets were all sent before;
/// - containers that store only decode times (AVI, raw MPEG-2 `.m2v`): the
///   decoder's guess is the decode time of the packet that pushed the frame
///   out, so with B-frames every frame comes one or two frames late
///   (40–80 ms behind the sound at 25 fps) and the last ones have none.
///   FFmpeg's AVI demuxer even copies each decode time into the packet's
///   presentation time, so AVI is known by name (as mpv's demuxer does).
/// Containers that stamp every frame are used as stamped. A frame without a
/// time gets the decode times in order when the container gives only those
/// (they are the presentation times sorted, since frames come out in
/// presentation order), else the previous frame's time plus its duration.
/// Per stream, on its decode thread; `reset` with each serial and loop pass.
struct FrameTimestamps {
    /// The container's packet times are decode times, whatever they are called (AVI).
    private let containerStampsDecodeTimes: Bool
    /// Every packet so far had a decode time and no presentation time.
    private var decodeTimesOnly = true
    /// Their decode times, not yet given to a frame.
    private var pendingDecodeTimes = Deque<Int64>()
    /// The last frame's time and duration (stream ticks).
    private var last: (ticks: Int64, duration: Int64)?

    init(containerStampsDecodeTimes: Bool = false) {
        self.containerStampsDecodeTimes = containerStampsDecodeTimes
    }

    mutating func reset() { self = FrameTimestamps(containerStampsDecodeTimes: containerStampsDecodeTimes) }

    /// Notes a packet about to be decoded.
    mutating func packetSent(_ packet: Packet) {
        guard packet.size > 0 else { return }
        if containerStampsDecodeTimes {
            let dts = packet.dts != DP_AV_NOPTS_VALUE ? packet.dts : packet.pts
            if dts != DP_AV_NOPTS_VALUE { queueDecodeTime(dts) }
        } else if packet.pts != DP_AV_NOPTS_VALUE {
            decodeTimesOnly = false
            pendingDecodeTimes.removeAll()
        } else if decodeTimesOnly, packet.dts != DP_AV_NOPTS_VALUE {
            queueDecodeTime(packet.dts)
        }
    }

    private mutating func queueDecodeTime(_ dts: Int64) {
        // More than a decoder's reordering ever holds: a frame was lost, start over.
        if pendingDecodeTimes.count > 32 { pendingDecodeTimes.removeAll() }
        pendingDecodeTimes.append(dts)
    }

    /// The frame's time and duration in stream ticks. `nominalDuration`: a
    /// frame's duration when its packet does not say (from the frame rate);
    /// `start`: the time of a first frame with nothing to go by.
    mutating func stamp(_ frame: Frame, nominalDuration: Int64, start: Int64) -> (ticks: Int64, duration: Int64) {
        let f = frame.pointer.pointee
        let duration = f.pkt_duration > 0 ? f.pkt_duration : max(nominalDuration, 1)
        let ticks: Int64
        if containerStampsDecodeTimes || (f.pts == DP_AV_NOPTS_VALUE && decodeTimesOnly),
           let dts = pendingDecodeTimes.popFirst() {
            ticks = dts
        } else if f.best_effort_timestamp != DP_AV_NOPTS_VALUE {
            ticks = f.best_effort_timestamp
        } else if f.pts != DP_AV_NOPTS_VALUE {
            ticks = f.pts
        } else if let last {
            ticks = last.ticks &+ last.duration
        } else {
            ticks = start
        }
        last = (ticks, duration)
        return (ticks, duration)
    }
}
