// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Writes a whole file or nothing: a temporary file beside the target,
/// fsync, rename over the target, fsync the folder. In Media so that every
/// layer that writes a file (Playback's audio export, Control's state, App's
/// pictures and movies) makes its temporary file the one exclusive way.
package enum AtomicFile {
    /// A new, empty file beside `url` that no other process can have made or
    /// pointed elsewhere: an unpredictable name, `O_EXCL` (never an existing
    /// file) and `O_NOFOLLOW` (never through a planted symbolic link), mode 0600.
    package static func createTemporary(beside url: URL) throws(MediaError) -> (descriptor: Int32, url: URL) {
        let folder = url.deletingLastPathComponent()
        for _ in 0..<8 {
            let name = ".\(url.lastPathComponent).partial-\(UInt64.random(in: 0...UInt64.max).hexDigits)"
            let temporary = folder.appendingPathComponent(name)
            let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 { return (fd, temporary) }
            guard errno == EEXIST else { break }
        }
        throw MediaError("cannot write \(url.path): \(String(cString: strerror(errno)))")
    }

    /// Puts a written and closed temporary file in the target's place.
    package static func commit(_ temporary: URL, to url: URL) throws(MediaError) {
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw MediaError("cannot write \(url.path): \(reason)")
        }
        let dir = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if dir >= 0 { _ = fsync(dir); close(dir) }
    }

    package static func write(_ data: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let (fd, temporary) = try createTemporary(beside: url)
        var ok = data.withUnsafeBytes { raw -> Bool in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress.map { $0 + done }, raw.count - done)
                if n <= 0 { return false }
                done += n
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        let reason = String(cString: strerror(errno))
        close(fd)
        guard ok else {
            unlink(temporary.path)
            throw MediaError("cannot write \(url.path): \(reason)")
        }
        try commit(temporary, to: url)
    }
}

private extension UInt64 {
    var hexDigits: String { String(self, radix: 16) }
}
