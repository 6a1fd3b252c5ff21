// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// How a new codec context takes over from another mid-stream with nothing
/// lost and nothing twice: while a hardware context decodes, the packets
/// since the last keyframe are kept (`KeyframePackets`) and sent to the
/// new one again, and the frames it makes up to the last one given out are
/// left out. A software context keeps nothing (a GOP of a 1080p file is
/// easily 15 MB, held by every tile for a switch that may never come): a
/// context taking over from it starts at a keyframe. One decode thread uses it.
struct ContextHandOver {
    private var kept = KeyframePackets()
    /// The latest frame time given out since the last reset.
    private var givenThrough: Int64?
    /// After a take-over: frames up to this time were given out already.
    private var dropThrough: Int64?
    private var awaitingKeyframe = false

    /// Notes a packet about to be sent, kept while `keeping` (a hardware
    /// context decodes); false when the new context cannot use it (it waits
    /// for a keyframe) and it is not sent.
    mutating func admits(_ packet: Packet, keeping: Bool) -> Bool {
        if awaitingKeyframe {
            guard packet.isKeyframe else { return false }
            awaitingKeyframe = false
        }
        if keeping {
            kept.note(packet)
        } else if kept.holdsAny {
            kept = KeyframePackets()
        }
        return true
    }

    /// Whether a new context could take over now from the packets kept
    /// (else it waits for a keyframe).
    var canReplay: Bool { !kept.replay.isEmpty }

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
