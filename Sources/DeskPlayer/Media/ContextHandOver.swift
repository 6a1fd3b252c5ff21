// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// How a new codec context takes over from another mid-stream with nothing
/// lost and nothing twice: the packets since the last keyframe are kept
/// (`KeyframePackets`) and sent to it again, and the frames it makes up to
/// the last one given out are left out. With nothing kept, it waits for
/// the next keyframe. One decode thread uses it.
struct ContextHandOver {
    private var kept = KeyframePackets()
    /// The latest frame time given out since the last reset.
    private var givenThrough: Int64?
    /// After a take-over: frames up to this time were given out already.
    private var dropThrough: Int64?
    private var awaitingKeyframe = false

    /// Notes a packet about to be sent; false when the new context cannot
    /// use it (it waits for a keyframe) and it is not sent.
    mutating func admits(_ packet: Packet) -> Bool {
        if awaitingKeyframe {
            guard packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 else { return false }
            awaitingKeyframe = false
        }
        kept.note(packet)
        return true
    }

    /// Whether a decoded frame is given out (not one given before the take-over).
    mutating func admits(_ frame: Frame) -> Bool {
        let time = frame.bestEffortTimestamp
        guard time != DP_AV_NOPTS_VALUE else { return true }
        if let dropThrough, time <= dropThrough { return false }
        givenThrough = max(givenThrough ?? time, time)
        return true
    }

    /// A new context takes over: the packets to send it again.
    mutating func takeOver() -> [Packet] {
        dropThrough = givenThrough
        let replay = kept.replay
        awaitingKeyframe = replay.isEmpty
        return replay
    }

    /// After a flush (a seek, a loop pass): nothing before it counts.
    mutating func reset() { self = ContextHandOver() }
}
