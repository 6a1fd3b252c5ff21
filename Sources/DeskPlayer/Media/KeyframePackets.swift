// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// The packets a video decoder was sent since the last keyframe (and, while
/// that run is short, since the one before): what a new decoder is sent
/// again to take over mid-stream with the exact picture (a fall back from
/// hardware, a switch of `hwdec`). References, not copies; bounded: a run
/// too long to keep is dropped, and a new decoder then starts at the next
/// keyframe. One decode thread uses it.
struct KeyframePackets {
    private var previous: [Packet] = []
    private var current: [Packet] = []
    private var currentBytes = 0
    private var previousBytes = 0
    /// The current run outgrew the bounds: nothing since its keyframe is kept.
    private var overflowed = false

    /// Runs longer than this are not kept (a GOP of 20 s at 60 fps fits).
    static let maxPackets = 1200
    static let maxBytes = 96 << 20
    /// A current run shorter than this may not yet have given out the
    /// previous run's last frames (reordering and threads hold a few).
    static let shortRun = 16

    /// Keeps a reference to `packet` (sent next).
    mutating func note(_ packet: Packet) {
        if packet.isKeyframe {
            (previous, previousBytes) = overflowed ? ([], 0) : (current, currentBytes)
            (current, currentBytes, overflowed) = ([], 0, false)
        }
        guard !overflowed else { return }
        guard current.count < Self.maxPackets, currentBytes + packet.size <= Self.maxBytes,
              let kept = try? Packet(), av_packet_ref(kept.pointer, packet.pointer) >= 0 else {
            (current, currentBytes, overflowed) = ([], 0, true)
            return
        }
        current.append(kept)
        currentBytes += packet.size
    }

    /// Whether any packet is kept.
    var holdsAny: Bool { !current.isEmpty || !previous.isEmpty }

    /// What a new decoder is sent to reach the point the old one reached;
    /// empty when nothing usable is kept (it waits for a keyframe).
    var replay: [Packet] {
        guard !overflowed, let first = current.first, first.isKeyframe else { return [] }
        if current.count < Self.shortRun, let before = previous.first, before.isKeyframe {
            return previous + current
        }
        return current
    }
}
