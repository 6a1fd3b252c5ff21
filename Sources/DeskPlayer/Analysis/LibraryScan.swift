// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

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

    /// Lists `roots`; a folder that cannot be listed is skipped (and said
    /// in `problems`), the rest go on.
    package static func run(_ roots: [Root], maxDepth: Int = maxDepth, maxCount: Int = maxCount,
                            maxFolders: Int = maxFolders) -> Result {
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
                let names: [String]
                do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
                    result.problems.append("\(folder): cannot list it (\(reason(error))); its videos are left out")
                    continue
                }
                result.folders.append(folder)
                for name in names.sorted() where !name.hasPrefix(".") {
                    let path = folder + "/" + name
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    var kind = info.st_mode & S_IFMT
                    if kind == S_IFLNK {
                        // A linked file is listed; a linked folder is not entered (it could loop).
                        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                        kind = S_IFREG
                    }
                    if kind == S_IFDIR {
                        if depth < maxDepth { pending.append((path, depth + 1)) }
                    } else if kind == S_IFREG, isVideo(name) {
                        result.entries.append(LibraryEntry(path: path, modified: Int(info.st_mtim.tv_sec),
                                                           bytes: Int(clamping: info.st_size), source: root.source))
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
    package static func days(_ entries: [LibraryEntry], timeZone: TimeZone = .current) -> [LibraryDay] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var days: [LibraryDay] = []
        var current: (day: String, entries: [LibraryEntry])?
        for entry in entries {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(entry.modified)))
            let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            if current?.day == day {
                current?.entries.append(entry)
            } else {
                if let done = current { days.append(LibraryDay(day: done.day, entries: done.entries)) }
                current = (day, [entry])
            }
        }
        if let done = current { days.append(LibraryDay(day: done.day, entries: done.entries)) }
        return days
    }

    /// A video by its name's extension (the types of the desktop entry).
    package static func isVideo(_ name: String) -> Bool {
        MediaMimeType.of(path: name)?.hasPrefix("video/") == true
    }

    private static func names(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func reason(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(clamping: code))) }
        return (error as NSError).localizedDescription
    }
}
