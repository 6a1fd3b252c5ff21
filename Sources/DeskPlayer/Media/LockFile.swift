// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// An exclusive lock on a file beside a store (`NAME.lock`), held while a
/// store is read, changed and written: two players writing at once each
/// keep their entries (a load then save without the lock lets the second
/// writer drop the first one's). Closing the descriptor releases it.
package enum LockFile {
    /// Runs `body` holding the lock beside `url` (its folder is made first).
    package static func holding<T>(beside url: URL, _ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let lockPath = url.path + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw MediaError("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(lock) }  // closing releases the lock
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { throw MediaError("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        }
        return try body()
    }
}
