// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Writes a whole file or nothing: temporary name in the same folder,
/// fsync, rename over the target, fsync the folder.
package enum AtomicFile {
    package static func write(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw MediaError("cannot write \(temporary.path): \(String(cString: strerror(errno)))") }
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
        close(fd)
        guard ok, rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw MediaError("cannot write \(url.path): \(reason)")
        }
        let dir = open(folder.path, O_RDONLY)
        if dir >= 0 { _ = fsync(dir); close(dir) }
    }
}
