// SPDX-License-Identifier: GPL-3.0-or-later
import Collections
import Media

/// Where a pass bounded by its video (`PassBounds.video`) ends is known only
/// once the demuxer has read the whole pass: it is the end of the last video
/// frame. The audio decoder must know it before it decodes past it, or the
/// padding is already in the ring. So the demuxer passes every audio packet
/// through this gate: a packet that ends within the video read so far goes
/// on at once; one that reaches past it waits here (in order) until more
/// video covers it or the pass ends, when the demuxer first tells the audio
/// decoder the end and then lets the rest through for it to cut.
///
/// A trimmed audio-only pass (`PassBounds.trimmed`) ends a given number of
/// samples before its audio does: the gate then holds the audio within that
/// much of the latest audio read.
///
/// A packet that does not say where it ends (FFmpeg's HLS demuxer stamps
/// only the first Opus packet of each MPEG-TS PES, and gives none a
/// duration) ends, at the latest, where the next packet with a timestamp
/// starts: it waits for that one (or the pass's end), as one that reaches
/// past the video does.
///
/// Audio never waits more than `limit` past the video read (a stream whose
/// video stops early would otherwise starve the sound): beyond that it goes
/// on, the pass then ends where the audio does, and `isOverrun` says so.
/// Demux thread only.
final class PassEndGate {
    enum Anchor {
        /// The pass ends where its video does.
        case video
        /// The pass ends this long before its audio does.
        case audioEnd(less: MediaTime)
    }

    private let anchor: Anchor
    private var held = Deque<(packet: Packet, end: MediaTime?)>()
    /// How far the pass is known to reach from what was read so far
    /// (container time): the video's furthest end, or the audio's less the trim.
    private var covered: MediaTime?
    private let limit: MediaTime
    /// However long it is, no more packets than this wait (a stream that
    /// never says where its packets end must not wait for its whole pass).
    private let packetLimit = 512
    /// Audio had to go on past the video read in this pass.
    private(set) var isOverrun = false

    init(anchor: Anchor, limit: MediaTime = MediaTime(value: 5, timescale: 1)) {
        self.anchor = anchor
        self.limit = limit
    }

    /// A seek or track switch: what is held is stale, the pass read anew.
    func reset() {
        held.removeAll()
        covered = nil
    }

    /// A video frame ending at `end` was read: audio up to there may go on.
    func video(endingAt end: MediaTime, release: (Packet) -> Void) {
        guard case .video = anchor else { return }
        reach(end)
        releaseCovered(release)
    }

    /// An audio packet starting at `start` and ending at `end` (each nil
    /// when it does not say): the packets waiting without an end end where it starts.
    func audio(_ packet: Packet, startingAt start: MediaTime?, endingAt end: MediaTime?, release: (Packet) -> Void) {
        if let start {
            for i in held.indices.reversed() {
                guard held[i].end == nil else { break }
                held[i].end = start
            }
        }
        if case .audioEnd(let less) = anchor, let reached = end ?? start { reach(reached - less) }
        held.append((packet, end))
        releaseCovered(release)
        while let first = held.first, (first.end.flatMap { e in (end ?? start).map { $0 - e > limit } } ?? false)
                || held.count > packetLimit {
            isOverrun = true
            release(held.removeFirst().packet)
        }
    }

    /// The pass was read to its end: `announce` is told where it ends (not
    /// called when nothing bounds it), then everything held goes on.
    func endPass(announce: (MediaTime) -> Void, release: (Packet) -> Void) {
        if let covered { announce(covered) }
        while let next = held.popFirst() { release(next.packet) }
        covered = nil
        isOverrun = false
    }

    private func reach(_ end: MediaTime) {
        if covered.map({ end > $0 }) ?? true { covered = end }
    }

    private func releaseCovered(_ release: (Packet) -> Void) {
        while let first = held.first, let end = first.end, let covered, end <= covered {
            release(held.removeFirst().packet)
        }
    }
}
