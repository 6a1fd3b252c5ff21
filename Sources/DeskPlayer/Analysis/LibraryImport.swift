// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// Copies videos from a phone or a card into the Videos folder on a thread
/// of its own ("Import" in the roll), one after the other: each is written
/// under a hidden temporary name, its size checked against the source's,
/// then renamed into place, under its own name or, when that is taken,
/// "NAME (2).EXT", "NAME (3).EXT"… Nothing is ever deleted or changed on
/// the source. The owner reads the progress and the outcome. Thread-safe (Mutex).
package final class LibraryImport: Sendable {
    package struct Progress: Sendable, Equatable {
        /// Files done (copied or failed), of `count`.
        package var done = 0
        package let count: Int
        package var bytesCopied = 0
        package let bytes: Int
        /// Where each copied file went.
        package var copied: [String] = []
        /// One line for each file that could not be copied.
        package var failures: [String] = []
        package var finished = false
    }

    private final class Shared: Sendable {
        let state: Mutex<Progress>
        let cancelled = Mutex(false)
        init(_ progress: Progress) { state = Mutex(progress) }
    }

    private let shared: Shared
    /// Copied a MiB at a time (a phone over MTP sends as it is read).
    static let chunk = 1 << 20

    /// Starts copying `paths` (each with its size as listed) into `folder`;
    /// `wake` is called (on the copying thread) at each MiB and at the end.
    package init(_ files: [(path: String, bytes: Int)], into folder: String, wake: @escaping @Sendable () -> Void) {
        shared = Shared(Progress(count: files.count, bytes: files.reduce(0) { $0 + max($1.bytes, 0) }))
        let thread = Thread { [shared] in LibraryImport.work(shared, files.map(\.path), into: folder, wake: wake) }
        thread.name = "deskplayer.library-import"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// The owner gone: the file in hand is left (its temporary copy removed), the rest not started.
    deinit { shared.cancelled.withLock { $0 = true } }

    package var progress: Progress { shared.state.withLock { $0 } }

    /// `name` in `folder`, or "STEM (2).EXT", "STEM (3).EXT"… the first not taken.
    package static func freeName(_ name: String, in folder: String) -> String {
        let url = URL(fileURLWithPath: name)
        let stem = url.deletingPathExtension().lastPathComponent, ext = url.pathExtension
        var candidate = name
        var number = 1
        while FileManager.default.fileExists(atPath: folder + "/" + candidate) || isLink(folder + "/" + candidate) {
            number += 1
            candidate = stem + " (\(number))" + (ext.isEmpty ? "" : "." + ext)
        }
        return candidate
    }

    private static func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func work(_ shared: Shared, _ paths: [String], into folder: String, wake: @Sendable () -> Void) {
        defer {
            shared.state.withLock { $0.finished = true }
            wake()
        }
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            shared.state.withLock { $0.failures.append("\(folder): \(error.localizedDescription)"); $0.done = $0.count }
            return
        }
        for path in paths {
            if shared.cancelled.withLock({ $0 }) { return }
            do throws(MediaError) {
                let target = try copy(path, into: folder, shared: shared, wake: wake)
                shared.state.withLock { $0.copied.append(target) }
            } catch {
                shared.state.withLock { $0.failures.append("\(path): \(error.message)") }
            }
            shared.state.withLock { $0.done += 1 }
            wake()
        }
    }

    /// Copies one file; returns where it went.
    private static func copy(_ path: String, into folder: String, shared: Shared, wake: @Sendable () -> Void) throws(MediaError) -> String {
        let name = (path as NSString).lastPathComponent
        let source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw MediaError("cannot read it (\(String(cString: strerror(errno))))") }
        defer { close(source) }
        var info = stat()
        guard fstat(source, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw MediaError("not a file") }
        let expected = Int(info.st_size)
        let temporary = folder + "/.deskplayer-import-\(getpid())-\(UUID().uuidString).part"
        let target = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard target >= 0 else { throw MediaError("cannot write in \(folder) (\(String(cString: strerror(errno))))") }
        var placed = false
        defer {
            if !placed { unlink(temporary) }
        }
        var written = 0
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            if shared.cancelled.withLock({ $0 }) {
                close(target)
                throw MediaError("cancelled")
            }
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                let why = String(cString: strerror(errno))
                close(target)
                throw MediaError("reading it failed (\(why))")
            }
            if n == 0 { break }
            let complete = buffer.withUnsafeBytes { bytes -> Bool in
                guard let base = bytes.baseAddress else { return false }
                var offset = 0
                while offset < n {
                    let m = write(target, base + offset, n - offset)
                    if m < 0 && errno == EINTR { continue }
                    guard m > 0 else { return false }
                    offset += m
                }
                return true
            }
            guard complete else {
                let why = String(cString: strerror(errno))
                close(target)
                throw MediaError("writing it failed (\(why))")
            }
            written += n
            shared.state.withLock { $0.bytesCopied += n }
            wake()
        }
        let synced = fsync(target) == 0
        close(target)
        guard synced else { throw MediaError("writing it failed (\(String(cString: strerror(errno))))") }
        // The size checked: a phone unplugged halfway reads as a short file, not an error.
        var copiedInfo = stat()
        guard stat(temporary, &copiedInfo) == 0, Int(copiedInfo.st_size) == expected, written == expected else {
            throw MediaError("the copy has \(written) bytes of \(expected); not kept")
        }
        // Put in place without replacing anything: a hard link fails on a
        // name taken meanwhile (then the next number is tried).
        for _ in 0..<1000 {
            let free = folder + "/" + freeName(name, in: folder)
            if link(temporary, free) == 0 {
                placed = true
                unlink(temporary)
                return free
            }
            guard errno == EEXIST else {
                // A file system without hard links (a FAT card as the Videos folder): a rename to the free name.
                guard rename(temporary, free) == 0 else { throw MediaError("cannot name it \(free) (\(String(cString: strerror(errno))))") }
                placed = true
                return free
            }
        }
        throw MediaError("no free name for it in \(folder)")
    }
}
