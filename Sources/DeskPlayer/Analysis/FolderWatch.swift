// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The owner of one inotify descriptor (closed in `deinit`): says when a
/// file appears in, leaves or is written in a watched folder, so the roll
/// shows a new recording or a copied file without reopening. Used by one
/// thread (the library scanner's).
final class FolderWatch {
    private let fd: Int32
    private var watched = Set<String>()
    /// What changes a folder's list of videos: a file made, written, moved in or out, removed; a folder made or removed.
    private static let mask = UInt32(IN_CREATE) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
        | UInt32(IN_DELETE) | UInt32(IN_DELETE_SELF) | UInt32(IN_ONLYDIR)

    init?() {
        fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard fd >= 0 else { return nil }
    }

    deinit { close(fd) }

    /// Watches each of `folders` not watched yet; returns the folders that
    /// could not be watched (the system's limit of watches reached, or gone).
    func watch(_ folders: [String]) -> [String] {
        var refused: [String] = []
        for folder in folders where !watched.contains(folder) {
            if inotify_add_watch(fd, folder, FolderWatch.mask) >= 0 { watched.insert(folder) } else { refused.append(folder) }
        }
        return refused
    }

    /// Waits up to `timeoutMs` for a change; reads every event waiting
    /// and returns whether there was any.
    func waitForChange(timeoutMs: Int32) -> Bool {
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&request, 1, timeoutMs) > 0 else { return false }
        var any = false
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            any = true
        }
        return any
    }
}
