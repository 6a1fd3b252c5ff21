// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// One video of the camera roll, as its folder lists it: found by name and
/// `stat` alone, never opened (a phone over MTP sends the whole file for an open).
package struct LibraryEntry: Sendable, Equatable {
    package let path: String
    /// Seconds since the epoch (the roll's order, and the thumbnail cache's `Thumb::MTime`).
    package let modified: Int
    package let bytes: Int
    /// Where it was found: "Videos", or the phone's or card's name.
    package let source: String

    package var name: String { (path as NSString).lastPathComponent }
}

/// The videos taken on one day (local time), newest first, as a phone's roll groups them.
package struct LibraryDay: Sendable, Equatable {
    /// "2026-11-28": what the group is for.
    package let day: String
    package let entries: [LibraryEntry]

    package init(day: String, entries: [LibraryEntry]) {
        self.day = day
        self.entries = entries
    }
}

/// Every video the roll shows: the Videos folder (recursively, to a bounded
/// depth) and the DCIM folders of mounted phones and cards; listed, never
/// opened. Blocks on a slow mount: run it off the main thread.
package enum LibraryScan {
    /// A folder the scan starts at, and what the roll calls what it finds there.
    package struct Root: Sendable, Equatable {
        package let path: String
        package let source: String

        package init(path: String, source: String) {
            self.path = path
            self.source = source
        }
    }

    /// What a scan found.
    package struct Result: Sendable, Equatable {
        /// Newest first (by modification time, then path).
        package var entries: [LibraryEntry]
        /// Every folder listed (what the roll watches for new files).
        package var folders: [String]
        /// One line per folder that could not be listed.
        package var problems: [String]
        /// More videos than `maxCount`: the oldest were left out.
        package var truncated: Bool
    }

    /// Folders below a root that are entered (Videos/2024/Trip/clips is 3).
    package static let maxDepth = 6
    /// Videos listed at most: past them the roll would be a list no one scrolls.
    package static let maxCount = 20_000
    /// Folders listed at most (each is also an inotify watch).
    package static let maxFolders = 4_096

    /// The usual roots: the Videos folder, then each mounted phone's
    /// (gvfs's MTP mounts under `$XDG_RUNTIME_DIR/gvfs`) and card's
    /// (`/media/USER/*`, `/run/media/USER/*`) DCIM folder.
    package static func roots(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [Root] {
        let user = environment["USER"] ?? environment["LOGNAME"] ?? NSUserName()
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/run/user/\(getuid())"
        return [Root(path: UserDirs.videos(environment).path, source: "Videos")]
            + dcimRoots(gvfs: runtime + "/gvfs", mounts: ["/media/" + user, "/run/media/" + user])
    }

    /// `gvfs/mtp:host=PHONE/STORAGE/DCIM` and `MOUNT/VOLUME/DCIM`, those
    /// that are there; named after the phone (its host name, underscores
    /// as spaces) or the volume.
    package static func dcimRoots(gvfs: String, mounts: [String]) -> [Root] {
        var roots: [Root] = []
        for host in names(in: gvfs) where host.hasPrefix("mtp:host=") {
            let phone = String(host.dropFirst("mtp:host=".count)).replacingOccurrences(of: "_", with: " ")
            for storage in names(in: gvfs + "/" + host) {
                let dcim = gvfs + "/" + host + "/" + storage + "/DCIM"
                if isFolder(dcim) { roots.append(Root(path: dcim, source: phone.isEmpty ? "Phone" : phone)) }
            }
        }
        for mount in mounts {
            for volume in names(in: mount) {
                let dcim = mount + "/" + volume + "/DCIM"
                if isFolder(dcim) { roots.append(Root(path: dcim, source: volume)) }
            }
        }
        return roots
    }

    /// Lists one folder (`FolderListing.list` but in tests); `wanted` says which file names are worth a stat.
    package typealias Lister = @Sendable (_ folder: String, _ wanted: (String) -> Bool) throws(MediaError) -> [FolderItem]

    /// Lists `roots`; a folder that cannot be listed is skipped (and said
    /// in `problems`), the rest go on.
    package static func run(_ roots: [Root], maxDepth: Int = maxDepth, maxCount: Int = maxCount,
                            maxFolders: Int = maxFolders, list: Lister = FolderListing.list) -> Result {
        var result = Result(entries: [], folders: [], problems: [], truncated: false)
        var seen = Set<String>()
        for root in roots {
            // A Videos folder that is not there is no problem: the user has no videos.
            guard isFolder(root.path) else { continue }
            var pending: [(path: String, depth: Int)] = [(root.path, 0)]
            while let (folder, depth) = pending.popLast() {
                guard result.folders.count < maxFolders else {
                    result.truncated = true
                    break
                }
                guard seen.insert(folder).inserted else { continue }
                let items: [FolderItem]
                do throws(MediaError) { items = try list(folder, isVideo) } catch {
                    result.problems.append("\(folder): cannot list it (\(error.message)); its videos are left out")
                    continue
                }
                result.folders.append(folder)
                for item in items {
                    let path = folder + "/" + item.name
                    switch item.kind {
                    case .folder:
                        if depth < maxDepth { pending.append((path, depth + 1)) }
                    case .file:
                        result.entries.append(LibraryEntry(path: path, modified: item.modified, bytes: item.bytes, source: root.source))
                    }
                }
            }
        }
        result.entries.sort { $0.modified != $1.modified ? $0.modified > $1.modified : $0.path < $1.path }
        if result.entries.count > maxCount {
            result.entries.removeLast(result.entries.count - maxCount)
            result.truncated = true
        }
        return result
    }

    /// `entries` (newest first) in groups by local day, in the same order.
    /// The calendar is asked once a day, not once a video (10,000 videos
    /// over a few years are a few hundred days).
    package static func days(_ entries: [LibraryEntry], timeZone: TimeZone = .current) -> [LibraryDay] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var days: [LibraryDay] = []
        var current: (day: String, start: Int, end: Int, entries: [LibraryEntry])?
        for entry in entries {
            if let at = current, entry.modified >= at.start, entry.modified < at.end {
                current?.entries.append(entry)
                continue
            }
            if let done = current { days.append(LibraryDay(day: done.day, entries: done.entries)) }
            let date = Date(timeIntervalSince1970: Double(entry.modified))
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let span = calendar.dateInterval(of: .day, for: date)
            // Without a span (a date the calendar cannot place) the day holds this video alone.
            let start = span.map { Int($0.start.timeIntervalSince1970.rounded(.up)) } ?? entry.modified
            let end = span.map { Int($0.end.timeIntervalSince1970.rounded(.up)) } ?? entry.modified
            current = (dayName(parts.year ?? 0, parts.month ?? 0, parts.day ?? 0), start, end, [entry])
        }
        if let done = current { days.append(LibraryDay(day: done.day, entries: done.entries)) }
        return days
    }

    /// "2026-11-08" (what `String(format: "%04d-%02d-%02d")` writes, without its cost).
    static func dayName(_ year: Int, _ month: Int, _ day: Int) -> String {
        func padded(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
    }

    /// The extensions of video types (MediaMimeType's), lower case.
    private static let videoExtensions = Set(MediaMimeType.byExtension.filter { $0.value.hasPrefix("video/") }.keys)

    /// A video by its name's extension (the types of the desktop entry).
    package static func isVideo(_ name: String) -> Bool {
        // Only the bytes after the last dot: no NSString for each of 10,000 names.
        let utf8 = name.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")), dot != utf8.startIndex else { return false }
        let suffix = utf8[utf8.index(after: dot)...]
        guard !suffix.isEmpty, suffix.count <= 4 else { return false }
        let lower = String(decoding: suffix.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        return videoExtensions.contains(lower)
    }

    private static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
