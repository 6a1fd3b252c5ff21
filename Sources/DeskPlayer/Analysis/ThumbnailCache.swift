// SPDX-License-Identifier: GPL-3.0-or-later
import Media
/// The seek-bar thumbnails made of one file, by time bucket (half a second
/// of the item's timeline each), least recently used first out once they
/// pass a size in bytes. A bucket may hold "no picture" (a damaged region):
/// it is not decoded again. Not thread-safe: its owner locks.
package struct ThumbnailCache {
    /// A bucket's picture and the time of the frame it shows (nil picture: none can be made there).
    package struct Entry {
        package let picture: PictureBuffer?
        package let frameSeconds: Double
    }

    /// Seconds of the timeline one bucket covers: a thumbnail stands for any
    /// time in its bucket, so it is at most this far from the time asked.
    package static let bucketSeconds = 0.5

    package static func bucket(_ seconds: Double) -> Int { Int(saturating: (max(seconds, 0) / bucketSeconds).rounded(.down)) }

    package let byteLimit: Int
    private var entries: [Int: (entry: Entry, lastUse: Int)] = [:]
    private var clock = 0
    private(set) var bytes = 0

    package init(byteLimit: Int) { self.byteLimit = byteLimit }

    package var count: Int { entries.count }

    /// The entry of `bucket`, marked as just used.
    package mutating func entry(_ bucket: Int) -> Entry? {
        guard let found = entries[bucket] else { return nil }
        clock += 1
        entries[bucket]?.lastUse = clock
        return found.entry
    }

    package func contains(_ bucket: Int) -> Bool { entries[bucket] != nil }

    /// Keeps `entry` for `bucket` (a bucket already filled keeps its own),
    /// then drops the least recently used until the pictures fit.
    package mutating func insert(_ entry: Entry, for bucket: Int) {
        guard entries[bucket] == nil else { return }
        clock += 1
        entries[bucket] = (entry, clock)
        bytes += ThumbnailCache.size(of: entry)
        while bytes > byteLimit, entries.count > 1,
              let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            if let gone = entries.removeValue(forKey: oldest) { bytes -= ThumbnailCache.size(of: gone.entry) }
        }
    }

    private static func size(of entry: Entry) -> Int {
        entry.picture.map { $0.pitch * $0.height } ?? 0
    }
}
