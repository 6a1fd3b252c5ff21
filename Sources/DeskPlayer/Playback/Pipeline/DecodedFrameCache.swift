// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Glibc
import Media
import Synchronization

/// Decoded frames around the last exact seek: an exact seek decodes every
/// frame from the keyframe before its target and, until now, threw all but
/// the last away, so each frame step back decoded the whole interval again
/// (as mpv's does). Kept here, the frames before the target make the next
/// step back, and every one after it, a copy out of memory.
///
/// Filled by the video decode thread and, playing backward, by the
/// prefetch thread (`BackwardPrefetcher`), which decodes the frames before
/// those the steps are showing; the entries are behind a lock.
///
/// Bounded in bytes (`--frame-cache-size`): what is farthest from the
/// newest frame goes first (the prefetcher's frames push out only the
/// frames already shown). The frames are copies, not references to the
/// decoder's buffers: a reference holds a buffer in the decoder's pool,
/// which keeps it for good, and a hardware decoder's pool is a fixed set of
/// surfaces a held one would starve. Copies go back to the system when the
/// cache is cleared (playing on moves away from them).
final class DecodedFrameCache: Sendable {
    struct Entry: @unchecked Sendable {  // the frame is never written once kept: only referenced and read
        let frame: Frame
        /// Where the frame starts and how long it lasts, in the item.
        let itemTime: MediaTime
        let duration: MediaTime
        let bytes: Int
        /// Decoded without the loop filter (a 2160p video shown at 720p):
        /// shown from here as such, never made larger (`VideoFrame.decodedFast`).
        let decodedFast: Bool
        /// Resized by the prefetch thread for pictures drawn at this size
        /// (`BackwardWindowDecoder`); nil: the decoded picture.
        let madeFor: PictureSize?
        var end: MediaTime { itemTime + duration }
    }

    private struct State {
        /// In item time order.
        var entries: [Entry] = []
        var bytes = 0

        /// Puts `entry` in time order, in place of one kept at the same time.
        mutating func put(_ entry: Entry) {
            let index = entries.firstIndex { $0.itemTime >= entry.itemTime } ?? entries.endIndex
            if index < entries.endIndex, entries[index].itemTime == entry.itemTime { remove(at: index) }
            entries.insert(entry, at: index)
            bytes += entry.bytes
        }

        mutating func remove(at index: Int) {
            bytes -= entries[index].bytes
            entries.remove(at: index)
        }

        func index(showing time: MediaTime) -> Int? {
            entries.firstIndex { $0.itemTime <= time && time < $0.end }
        }

        /// Whether entry `i` follows `previous` without a gap: it starts within
        /// half a frame of where `previous` ends.
        func follows(_ i: Int, _ previous: Entry) -> Bool {
            abs((entries[i].itemTime - previous.end).seconds) < previous.duration.seconds / 2
        }
    }

    /// The default budget: 80 frames of 1080p 8-bit 4:2:0 (2.7 s at 30
    /// fps), 20 of 2160p; a step back through a 10 s keyframe interval
    /// decodes it once per 80 frames instead of once per frame.
    static let defaultBudget = 256 << 20

    /// The default budget while playing backward: 1 GiB, at most an
    /// eighth of the machine's memory. A window of frames is decoded from
    /// its keyframe, so with room for C frames an interval of N costs about
    /// N²/C decodes: 256 MB holds 3 s of 1080p, 1 GiB the 10 s interval of
    /// a 1080p H.264 camera file (decoded once), and most of one of 2160p
    /// or 10-bit HEVC (mpv's backward play uses about as much).
    static let defaultBackwardBudget: Int = {
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), pageSize = sysconf(Int32(_SC_PAGESIZE))
        guard pages > 0, pageSize > 0 else { return defaultBudget }
        let (memory, overflow) = pages.multipliedReportingOverflow(by: pageSize)
        return max(defaultBudget, min(1 << 30, overflow ? 1 << 30 : memory / 8))
    }()

    /// The bound now: `forwardBudget`, or `backwardBudget` while playing backward.
    var budget: Int { bound.withLock { $0 } }
    /// `--frame-cache-size`.
    let forwardBudget: Int
    /// `--frame-cache-size` when given, else the larger default for backward play.
    let backwardBudget: Int
    private let bound: Mutex<Int>
    private let state = Mutex(State())
    /// Signalled when a frame comes in (what a step waiting for the
    /// prefetcher's frame waits on).
    let inserted = WakeSignal()

    /// `backwardBudget` (nil: as `budget`) never below `budget`; none when
    /// `budget` is none (the cache turned off).
    init(budget: Int, backwardBudget: Int? = nil) {
        forwardBudget = max(budget, 0)
        self.backwardBudget = forwardBudget == 0 ? 0 : max(backwardBudget ?? forwardBudget, forwardBudget)
        bound = Mutex(forwardBudget)
    }

    /// Playing backward takes the larger bound; back to the other, the
    /// frames over it go, those already shown (the latest) first.
    func setPlayingBackward(_ backward: Bool) {
        let limit = backward ? backwardBudget : forwardBudget
        bound.withLock { $0 = limit }
        guard !backward else { return }
        state.withLock { s in
            while s.bytes > limit, !s.entries.isEmpty { s.remove(at: s.entries.count - 1) }
        }
    }

    var bytes: Int { state.withLock { $0.bytes } }
    var count: Int { state.withLock { $0.entries.count } }

    /// The bytes a copy of a frame like `f` takes (nil: not a picture in memory).
    static func bytes(of f: AVFrame) -> Int? {
        guard f.hw_frames_ctx == nil, f.width > 0, f.height > 0 else { return nil }
        let size = av_image_get_buffer_size(AVPixelFormat(f.format), f.width, f.height, 1)
        return size > 0 ? Int(size) : nil
    }

    /// Keeps a copy of `source` (a decoded picture needing no filter). One
    /// already kept at that time stays (a decode gives the same picture
    /// again: each step back decodes from the keyframe once more, behind
    /// the frame shown from here), unless it was decoded fast and this one
    /// in full. Evicts what is farthest from it while over budget.
    func insert(_ source: UnsafeMutablePointer<AVFrame>, itemTime: MediaTime, duration: MediaTime, decodedFast: Bool) {
        guard let size = DecodedFrameCache.bytes(of: source.pointee), size <= budget,
              !holds(itemTime, replacingFast: !decodedFast),
              let copy = DecodedFrameCache.copy(source) else { return }
        let entry = Entry(frame: copy, itemTime: itemTime, duration: duration, bytes: size, decodedFast: decodedFast,
                          madeFor: nil)
        state.withLock { s in
            s.put(entry)
            while s.bytes > budget, let first = s.entries.first, let last = s.entries.last {
                let far = (itemTime - first.itemTime) > (last.itemTime - itemTime) ? 0 : s.entries.count - 1
                s.remove(at: far)
            }
        }
        inserted.signal()
    }

    /// Keeps a copy of `source`, decoded ahead of a backward step, making
    /// room by letting go of the frames that start after `playhead` (shown
    /// already), latest first, then of the earliest frames before it (the
    /// last the steps will need). False, and nothing kept, when `source`
    /// is itself the earliest. `madeFor`: `source` is the picture resized
    /// for that size shown (nil: decoded).
    func insertAhead(_ source: UnsafeMutablePointer<AVFrame>, itemTime: MediaTime, duration: MediaTime,
                     playhead: MediaTime, madeFor: PictureSize? = nil) -> Bool {
        guard let size = DecodedFrameCache.bytes(of: source.pointee), size <= budget else { return false }
        if holds(itemTime, replacingFast: true) { return true }
        let room = state.withLock { s in
            while s.bytes + size > budget, let first = s.entries.first, let last = s.entries.last {
                if last.itemTime > playhead && last.itemTime > itemTime {
                    s.remove(at: s.entries.count - 1)
                } else if first.itemTime < itemTime {
                    s.remove(at: 0)
                } else {
                    break
                }
            }
            return s.bytes + size <= budget
        }
        guard room, let copy = DecodedFrameCache.copy(source) else { return false }
        state.withLock { s in
            s.put(Entry(frame: copy, itemTime: itemTime, duration: duration, bytes: size, decodedFast: false,
                        madeFor: madeFor))
        }
        inserted.signal()
        return true
    }

    /// Whether a frame starting at `time` is kept (one decoded fast does
    /// not count when `replacingFast`: a full one takes its place).
    private func holds(_ time: MediaTime, replacingFast: Bool) -> Bool {
        state.withLock { s in
            guard let index = s.entries.firstIndex(where: { $0.itemTime >= time }), s.entries[index].itemTime == time
            else { return false }
            return !(replacingFast && s.entries[index].decodedFast)
        }
    }

    /// The kept frame showing at `time` (its start at or before, its end
    /// after) and the ones that follow it without a gap, at most `limit`.
    func run(at time: MediaTime, limit: Int) -> [Entry] {
        state.withLock { s in
            guard let first = s.index(showing: time) else { return [] }
            var run = [s.entries[first]]
            var i = first + 1
            while i < s.entries.endIndex, run.count < limit, let last = run.last, s.follows(i, last) {
                run.append(s.entries[i])
                i += 1
            }
            return run
        }
    }

    /// Where the kept frames that lead without a gap down to the one
    /// showing at `time` begin (nil: none shows at `time`), and how many
    /// frames that is.
    func runDown(to time: MediaTime) -> (start: MediaTime, frames: Int)? {
        state.withLock { s in
            guard var first = s.index(showing: time) else { return nil }
            while first > 0, s.follows(first, s.entries[first - 1]) { first -= 1 }
            return (s.entries[first].itemTime, (s.index(showing: time) ?? first) - first + 1)
        }
    }

    /// The bytes of the frames starting at or before `time` (the ones a
    /// backward step has still to show, and the one on screen).
    func bytes(startingBy time: MediaTime) -> Int {
        state.withLock { s in s.entries.reduce(0) { $1.itemTime <= time ? $0 + $1.bytes : $0 } }
    }

    /// Lets go of the pictures resized for another size shown than `size`
    /// (the window changed size while playing backward): decoded again.
    func removeAll(madeForOtherThan size: PictureSize) {
        state.withLock { s in
            for index in s.entries.indices.reversed() where s.entries[index].madeFor.map({ $0 != size }) ?? false {
                s.remove(at: index)
            }
        }
    }

    /// Lets every frame go, and gives their memory back to the system at
    /// once (glibc keeps freed blocks of this size in its arenas otherwise).
    func removeAll() {
        let removed = state.withLock { s in
            defer { s = State() }
            return s.entries.count
        }
        if removed > 0 { malloc_trim(0) }
    }

    private static func copy(_ source: UnsafeMutablePointer<AVFrame>) -> Frame? {
        guard let copy = try? Frame() else { return nil }
        let f = copy.pointer
        f.pointee.format = source.pointee.format
        f.pointee.width = source.pointee.width
        f.pointee.height = source.pointee.height
        guard av_frame_get_buffer(f, 0) >= 0, av_frame_copy(f, source) >= 0, av_frame_copy_props(f, source) >= 0 else {
            return nil
        }
        return copy
    }
}

/// The size of a picture as drawn, in pixels.
struct PictureSize: Equatable, Sendable {
    var width: Int
    var height: Int
}
