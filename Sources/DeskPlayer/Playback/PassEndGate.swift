import Collections

/// Where a pass bounded by its video (`PassBounds.video`) ends is known only
/// once the demuxer has read the whole pass: it is the end of the last video
/// frame. The audio decoder must know it before it decodes past it, or the
/// padding is already in the ring. So the demuxer passes every audio packet
/// through this gate: a packet that ends within the video read so far goes
/// on at once; one that reaches past it waits here (in order) until more
/// video covers it or the pass ends, when the demuxer first tells the audio
/// decoder the end and then lets the rest through for it to cut.
///
/// Audio never waits more than `limit` past the video read (a stream whose
/// video stops early would otherwise starve the sound): beyond that it goes
/// on, the pass then ends where the audio does, and `isOverrun` says so.
/// Demux thread only.
final class PassEndGate {
    private var held = Deque<(packet: Packet, end: MediaTime?)>()
    /// The furthest end of the video read so far in this pass (container time).
    private(set) var videoEnd: MediaTime?
    private let limit: MediaTime
    /// Audio had to go on past the video read in this pass.
    private(set) var isOverrun = false

    init(limit: MediaTime = MediaTime(value: 5, timescale: 1)) {
        self.limit = limit
    }

    /// A seek or track switch: what is held is stale, the pass read anew.
    func reset() {
        held.removeAll()
        videoEnd = nil
    }

    /// A video frame ending at `end` was read: audio up to there may go on.
    func video(endingAt end: MediaTime, release: (Packet) -> Void) {
        if videoEnd.map({ end > $0 }) ?? true { videoEnd = end }
        releaseCovered(release)
    }

    /// An audio packet ending at `end` (nil: unknown, it never waits on its own).
    func audio(_ packet: Packet, endingAt end: MediaTime?, release: (Packet) -> Void) {
        held.append((packet, end))
        releaseCovered(release)
        while let first = held.first?.end, let last = held.last?.end, last - first > limit {
            isOverrun = true
            release(held.removeFirst().packet)
        }
    }

    /// The pass was read to its end: `announce` is told where its video
    /// ends (not called when it had no video), then everything held goes on.
    func endPass(announce: (MediaTime) -> Void, release: (Packet) -> Void) {
        if let videoEnd { announce(videoEnd) }
        while let next = held.popFirst() { release(next.packet) }
        videoEnd = nil
        isOverrun = false
    }

    private func releaseCovered(_ release: (Packet) -> Void) {
        while let first = held.first, first.end.map({ e in videoEnd.map { e <= $0 } ?? false }) ?? true {
            release(held.removeFirst().packet)
        }
    }
}
