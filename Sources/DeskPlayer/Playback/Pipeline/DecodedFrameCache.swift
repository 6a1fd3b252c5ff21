// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Glibc
import Media

/// Decoded frames around the last exact seek, kept by the video decode
/// thread alone (no lock): an exact seek decodes every frame from the
/// keyframe before its target and, until now, threw all but the last
/// away, so each frame step back decoded the whole interval again (as
/// mpv's does). Kept here, the frames before the target make the next
/// step back, and every one after it, a copy out of memory.
///
/// Bounded in bytes (`--frame-cache-size`): what is farthest from the
/// newest frame goes first. The frames are copies, not references to
/// the decoder's buffers: a reference holds a buffer in the decoder's
/// pool, which keeps it for good, and a hardware decoder's pool is a
/// fixed set of surfaces a held one would starve. Copies go back to the
/// system when the cache is cleared (playing on moves away from them).
final class DecodedFrameCache {
    struct Entry {
        let frame: Frame
        /// Where the frame starts and how long it lasts, in the item.
        let itemTime: MediaTime
        let duration: MediaTime
        let bytes: Int
        /// Decoded without the loop filter (a 2160p video shown at 720p):
        /// shown from here as such, never made larger (`VideoFrame.decodedFast`).
        let decodedFast: Bool
        var end: MediaTime { itemTime + duration }
    }

    /// The default budget: 80 frames of 1080p 8-bit 4:2:0 (2.7 s at 30
    /// fps), 20 of 2160p; a step back through a 10 s keyframe interval
    /// decodes it once per 80 frames instead of once per frame.
    static let defaultBudget = 256 << 20

    let budget: Int
    /// In item time order.
    private(set) var entries: [Entry] = []
    private(set) var bytes = 0

    init(budget: Int) { self.budget = max(budget, 0) }

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
        let index = entries.firstIndex { $0.itemTime >= itemTime } ?? entries.endIndex
        if index < entries.endIndex, entries[index].itemTime == itemTime {
            guard entries[index].decodedFast && !decodedFast else { return }
            bytes -= entries[index].bytes
            entries.remove(at: index)
        }
        guard let size = DecodedFrameCache.bytes(of: source.pointee), size <= budget,
              let copy = DecodedFrameCache.copy(source) else { return }
        entries.insert(Entry(frame: copy, itemTime: itemTime, duration: duration, bytes: size, decodedFast: decodedFast), at: index)
        bytes += size
        while bytes > budget, let first = entries.first, let last = entries.last {
            let far = (itemTime - first.itemTime) > (last.itemTime - itemTime) ? 0 : entries.count - 1
            bytes -= entries[far].bytes
            entries.remove(at: far)
        }
    }

    /// The kept frame showing at `time` (its start at or before, its end
    /// after) and the ones that follow it without a gap, at most `limit`.
    func run(at time: MediaTime, limit: Int) -> [Entry] {
        guard let first = entries.firstIndex(where: { $0.itemTime <= time && time < $0.end }) else { return [] }
        var run = [entries[first]]
        var i = first + 1
        // Without a gap: the next starts within half a frame of this one's end.
        while i < entries.endIndex, run.count < limit,
              let last = run.last, abs((entries[i].itemTime - last.end).seconds) < last.duration.seconds / 2 {
            run.append(entries[i])
            i += 1
        }
        return run
    }

    /// Lets every frame go, and gives their memory back to the system at
    /// once (glibc keeps freed blocks of this size in its arenas otherwise).
    func removeAll() {
        guard !entries.isEmpty else { return }
        entries.removeAll()
        bytes = 0
        malloc_trim(0)
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
