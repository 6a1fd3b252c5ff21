// SPDX-License-Identifier: GPL-3.0-or-later
import Collections
import Media
import Synchronization

/// Resampled audio waiting for the device (interleaved float in
/// `AudioFormat.device`), with the media time of its samples.
///
/// Samples are addressed by absolute frame index. A marker records the media
/// time of the frame at an index and how much media each frame stands for
/// (its `StretchRatio`: 1 at normal speed, the speed when stretched); it is
/// written only where time is not continuous (start, seek, a gap in the
/// source, a change of speed), so continuous audio (across a loop seam too)
/// reads as one unbroken timeline. The lock is held only for
/// a copy of at most one device buffer, never across I/O.
package final class AudioRing: Sendable {
    struct Marker {
        let index: Int64
        let time: MediaTime
        var ratio = StretchRatio.one

        /// The media time of the frame at `index` (at or after this marker).
        func time(at index: Int64, sampleRate: Int64) -> MediaTime {
            time + ratio.duration(of: index - self.index, sampleRate: sampleRate)
        }
    }

    private struct State {
        var readIndex: Int64 = 0
        var writeIndex: Int64 = 0
        var markers = Deque<Marker>(minimumCapacity: 64)
        var serial = 0
        var ended = false
    }

    let format: AudioFormat
    let capacity: Int
    /// Written and read only inside `state`'s lock.
    nonisolated(unsafe) private let storage: UnsafeMutablePointer<Float>
    private let state = Mutex(State())

    /// `seconds` of audio at most are held.
    init(format: AudioFormat = .device, seconds: Double = 0.5) {
        self.format = format
        capacity = Int(saturating: Double(format.sampleRate) * seconds)
        storage = .allocate(capacity: capacity * format.channels)
    }

    deinit { storage.deallocate() }

    var serial: Int { state.withLock { $0.serial } }

    var availableFrames: Int { state.withLock { Int($0.writeIndex - $0.readIndex) } }
    var isEnded: Bool { state.withLock { $0.ended } }
    /// True when the decoder finished and every frame was read.
    var isDrained: Bool { state.withLock { $0.ended && $0.readIndex == $0.writeIndex } }

    /// The media time of the next frame `read` returns (nil when empty).
    var peekTime: MediaTime? {
        state.withLock { s in
            guard s.writeIndex > s.readIndex, let m = s.markers.last(where: { $0.index <= s.readIndex }) else { return nil }
            return m.time(at: s.readIndex, sampleRate: Int64(format.sampleRate))
        }
    }

    /// Signalled whenever frames go in or out, or the serial or end changes:
    /// what a writer waiting for room or a reader waiting for frames waits on.
    let changed = WakeSignal()

    /// Appends up to `frames` frames stamped with `time` (of the first frame),
    /// each standing for `ratio` of its period in media time. Returns how
    /// many were taken (fewer when full; 0 when `serial` is stale).
    func write(_ samples: UnsafePointer<Float>, frames: Int, time: MediaTime, ratio: StretchRatio = .one,
               serial: Int) -> Int {
        let channels = format.channels
        let written = state.withLock { s -> Int in
            guard serial == s.serial, !s.ended else { return 0 }
            let count = min(frames, capacity - Int(s.writeIndex - s.readIndex))
            guard count > 0 else { return 0 }
            if !isContinuous(s, time, ratio) {
                s.markers.append(Marker(index: s.writeIndex, time: time, ratio: ratio))
            }
            var done = 0
            while done < count {
                let slot = Int((s.writeIndex + Int64(done)) % Int64(capacity))
                let run = min(count - done, capacity - slot)
                (storage + slot * channels).update(from: samples + done * channels, count: run * channels)
                done += run
            }
            s.writeIndex += Int64(count)
            return count
        }
        if written > 0 { changed.signal() }
        return written
    }

    /// Time is continuous when the new frames run at the same ratio and start
    /// within half a frame of where the last marker says they should.
    private func isContinuous(_ s: State, _ time: MediaTime, _ ratio: StretchRatio) -> Bool {
        guard let last = s.markers.last, last.ratio == ratio else { return false }
        let rate = Int64(format.sampleRate)
        let expected = last.time(at: s.writeIndex, sampleRate: rate)
        let diff = (time - expected).converted(to: rate * 2).value
        return abs(diff) <= 1
    }

    /// Copies up to `frames` frames out, never past a change of speed (so
    /// one ratio holds for all of them). Returns how many, the media time of
    /// the first one (nil when none were read) and the ratio they play at.
    func read(into out: UnsafeMutablePointer<Float>, frames: Int)
        -> (count: Int, time: MediaTime?, ratio: StretchRatio) {
        let channels = format.channels
        let result = state.withLock { s -> (count: Int, time: MediaTime?, ratio: StretchRatio) in
            var count = min(frames, Int(s.writeIndex - s.readIndex))
            guard count > 0 else { return (0, nil, .one) }
            while s.markers.count > 1, s.markers[1].index <= s.readIndex { s.markers.removeFirst() }
            var time: MediaTime? = nil
            var ratio = StretchRatio.one
            if let m = s.markers.first {
                time = m.time(at: s.readIndex, sampleRate: Int64(format.sampleRate))
                ratio = m.ratio
            }
            if s.markers.count > 1, s.markers[1].ratio != ratio {
                count = min(count, Int(s.markers[1].index - s.readIndex))
            }
            var done = 0
            while done < count {
                let slot = Int((s.readIndex + Int64(done)) % Int64(capacity))
                let run = min(count - done, capacity - slot)
                (out + done * channels).update(from: storage + slot * channels, count: run * channels)
                done += run
            }
            s.readIndex += Int64(count)
            return (count, time, ratio)
        }
        if result.count > 0 { changed.signal() }
        return result
    }

    /// The decoder has written everything for `serial`.
    func markEnded(serial: Int) {
        state.withLock { s in if s.serial == serial { s.ended = true } }
        changed.signal()
    }

    /// Starts a new serial but keeps up to `keep` frames already queued,
    /// faded out over their last `fade` frames (an audio track switch: the
    /// old track ends cleanly while the new one is read). Returns the media
    /// time where the kept frames end; nil when nothing was queued.
    func flush(serial: Int, keeping keep: Int, fadeOut fade: Int) -> MediaTime? {
        let channels = format.channels
        defer { changed.signal() }
        return state.withLock { s in
            let kept = min(keep, Int(s.writeIndex - s.readIndex))
            s.writeIndex = s.readIndex + Int64(kept)
            while let last = s.markers.last, last.index >= s.writeIndex, s.markers.count > 1 { s.markers.removeLast() }
            let faded = min(fade, kept)
            for i in 0..<faded {
                let gain = Float(faded - 1 - i) / Float(max(faded, 1))
                let slot = Int((s.writeIndex - Int64(faded) + Int64(i)) % Int64(capacity))
                for c in 0..<channels { storage[slot * channels + c] *= gain }
            }
            s.serial = serial
            s.ended = false
            guard kept > 0, let m = s.markers.last(where: { $0.index <= s.writeIndex }) else {
                s.markers.removeAll(keepingCapacity: true)
                s.readIndex = s.writeIndex
                return nil
            }
            return m.time(at: s.writeIndex, sampleRate: Int64(format.sampleRate))
        }
    }

    /// Drops everything and starts a new serial (after a seek).
    func flush(serial: Int) {
        defer { changed.signal() }
        state.withLock { s in
            s.readIndex = s.writeIndex
            s.markers.removeAll(keepingCapacity: true)
            s.serial = serial
            s.ended = false
        }
    }
}
