// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Recordings a killed player left under their temporary names
/// (`.Video YYYY-MM-DD HH-MM-SS.mp4.partial-…`): fragmented MP4 plays up to
/// its last fragment, but a hidden name is seen by no file manager and no
/// roll. A recording whose writer is gone (its lock is free: the kernel lets
/// a lock go with the process that held it) is put under the name it was
/// to have; an empty one is removed. One still being written is left alone.
package enum InterruptedRecordings {
    /// Names the left recordings in `folder`; returns where each went (or why it could not).
    package static func recover(in folder: URL) -> [Result<URL, MediaError>] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var recovered: [Result<URL, MediaError>] = []
        // Bounded: a folder with more left recordings than this is not ours to walk through.
        for name in names.prefix(10_000) {
            guard let target = intendedName(name) else { continue }
            let temporary = folder.appendingPathComponent(name)
            let fd = open(temporary.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            if info.st_size == 0 {
                unlink(temporary.path)
                continue
            }
            recovered.append(RecordingName.place(temporary, as: folder.appendingPathComponent(target)))
        }
        return recovered
    }

    /// "Video 2026-11-29 08-00-00.mp4" for ".Video 2026-11-29 08-00-00.mp4.partial-3fa9c", nil for any other name.
    static func intendedName(_ name: String) -> String? {
        guard name.hasPrefix(".Video "), let mark = name.range(of: ".mp4.partial-", options: .backwards) else { return nil }
        let target = String(name[name.index(after: name.startIndex)..<mark.lowerBound]) + ".mp4"
        return target.contains("/") ? nil : target
    }
}
