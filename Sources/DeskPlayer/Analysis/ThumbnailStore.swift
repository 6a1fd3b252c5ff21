// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// The desktop's own thumbnail cache (the freedesktop Thumbnail Managing
/// Standard, 0.9): `$XDG_CACHE_HOME/thumbnails/SIZE/MD5.png`, MD5 of the
/// file's URI, the picture valid while its `Thumb::MTime` is the file's
/// modification time. File managers and DeskPlayer share it: a picture one
/// made the other reads. What cannot be made is remembered in
/// `fail/deskplayer-VERSION/` so it is not tried again until the file changes.
package struct ThumbnailStore: Sendable {
    /// The standard's sizes: the folder and the longest side it holds.
    package enum Size: Int, Sendable, CaseIterable {
        case normal = 128, large = 256, xLarge = 512, xxLarge = 1024

        package var folder: String {
            switch self {
            case .normal: return "normal"
            case .large: return "large"
            case .xLarge: return "x-large"
            case .xxLarge: return "xx-large"
            }
        }
    }

    /// A media file as the cache knows it: its URI and what its entry records.
    package struct Source: Sendable {
        package let path: String
        /// `file://` and the absolute path, escaped as GLib's `g_filename_to_uri` does.
        package let uri: String
        /// Seconds since the epoch, as `Thumb::MTime` records them.
        package let modified: Int
        package let bytes: Int

        /// The local file at `path` (made absolute), as it is now.
        package init(path: String) throws(MediaError) {
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            var info = stat()
            guard stat(absolute, &info) == 0 else {
                throw MediaError("\(path): \(String(cString: strerror(errno)))")
            }
            guard info.st_mode & S_IFMT == S_IFREG else { throw MediaError("\(path): not a file") }
            self.path = absolute
            uri = ThumbnailStore.uri(ofPath: absolute)
            modified = Int(info.st_mtim.tv_sec)
            bytes = Int(info.st_size)
        }
    }

    /// What asking for a file's thumbnail gave.
    package enum Outcome {
        /// The picture an entry already held (no decoding of the media).
        case cached(PictureBuffer)
        /// Made now, and written to the cache.
        case made(PictureBuffer)
        /// None: the file cannot be pictured (now, or a failure entry says
        /// so for this version of it).
        case failed(String)
    }

    /// A cached entry larger than this is not a thumbnail (xx-large
    /// pictures are a few MB at most): it is made again.
    static let largestEntry = 32 << 20

    /// The `thumbnails` folder.
    package let root: URL
    /// The program and version: the `Software` chunk, and the failure folder's name.
    package let software: String, version: String

    /// The store under `root`; by default the user's (`$XDG_CACHE_HOME/thumbnails`,
    /// else `~/.cache/thumbnails`).
    package init(root: URL? = nil, version: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.root = root ?? ThumbnailStore.userRoot(environment)
        self.version = version
        software = "DeskPlayer \(version)"
    }

    static func userRoot(_ environment: [String: String]) -> URL {
        // The XDG base directory rule: an unset, empty or relative value is ignored.
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return URL(fileURLWithPath: cache).appendingPathComponent("thumbnails")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache/thumbnails")
    }

    /// The entry's name: MD5 of the URI in hex, then `.png`.
    package static func entryName(uri: String) -> String { MD5.hex(uri) + ".png" }

    package func url(of source: Source, size: Size) -> URL {
        root.appendingPathComponent(size.folder).appendingPathComponent(ThumbnailStore.entryName(uri: source.uri))
    }

    package var failFolder: URL { root.appendingPathComponent("fail/deskplayer-\(version)") }

    package func failURL(of source: Source) -> URL {
        failFolder.appendingPathComponent(ThumbnailStore.entryName(uri: source.uri))
    }

    /// The picture of the file at `path` for `size`: the cache's when its
    /// entry is for this URI and modification time, else made and written
    /// there (or the failure written). Blocks while it decodes: call it
    /// off the main thread.
    package func thumbnail(of path: String, size: Size) -> Outcome { thumbnailAndLength(of: path, size: size).outcome }

    /// As `thumbnail(of:size:)`, with the file's length in seconds when
    /// known: the entry's `Thumb::Movie::Length`, or the one just read
    /// (the camera roll shows it under the picture).
    package func thumbnailAndLength(of path: String, size: Size) -> (outcome: Outcome, length: Double?) {
        switch lookUp(path, size: size) {
        case .found(let outcome, let length): return (outcome, length)
        case .missing(let source): return make(source, size: size)
        }
    }

    /// What the cache holds for a file, without decoding the media.
    package enum LookUp {
        /// A valid entry (or a failure entry, or the file is not there): the answer.
        case found(Outcome, length: Double?)
        /// No valid entry: `make` is the way to one.
        case missing(Source)
    }

    /// The cached picture of the file at `path` (a stat, a read and a PNG
    /// decode: quick, so the roll does it at normal priority), or what
    /// `make` needs when there is none.
    package func lookUp(_ path: String, size: Size) -> LookUp {
        let source: Source
        do throws(MediaError) { source = try Source(path: path) } catch { return .found(.failed(error.message), length: nil) }
        if let entry = ThumbnailStore.readEntry(url(of: source, size: size)), ThumbnailStore.matches(entry.text, source),
           let cached = try? StillImage.decode(entry.bytes, format: .png, maxSide: size.rawValue) {
            let length = entry.text["Thumb::Movie::Length"].flatMap { Double($0) }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
            return .found(.cached(cached), length: length)
        }
        if let failure = ThumbnailStore.readEntry(failURL(of: source)), ThumbnailStore.matches(failure.text, source) {
            return .found(.failed("\(path): DeskPlayer could not make its picture before (\(failURL(of: source).path))"), length: nil)
        }
        return .missing(source)
    }

    /// Decodes `source` and writes its entry (or its failure entry). Slow:
    /// the roll does it at the lowest priority.
    package func make(_ source: Source, size: Size) -> (outcome: Outcome, length: Double?) {
        do throws(MediaError) {
            let made = try FileThumbnail.make(of: source.path, maxSide: size.rawValue)
            let png = try ThumbnailStore.png(made.picture, duration: made.duration, of: source, software: software)
            try write(png, to: url(of: source, size: size))
            return (.made(made.picture), made.duration)
        } catch {
            // Remembered (for this modification time) so the file is not decoded again each time it is shown.
            if let empty = try? ThumbnailStore.png(PictureBuffer(width: 1, height: 1), duration: nil, of: source,
                                                   software: software) {
                try? write(empty, to: failURL(of: source))
            }
            return (.failed(error.message), nil)
        }
    }

    /// Whether an entry's chunks are for `source` as it is now: its URI,
    /// and its modification time (the standard's test of a stale entry).
    static func matches(_ text: [String: String], _ source: Source) -> Bool {
        text["Thumb::URI"] == source.uri && text["Thumb::MTime"].flatMap { Int($0) } == source.modified
    }

    /// An entry's bytes and text chunks; nil when there is none, it is
    /// too large, a link or anything but a plain file (a FIFO would hold
    /// the caller: it is opened without waiting, then refused), or not a PNG.
    static func readEntry(_ url: URL) -> (bytes: [UInt8], text: [String: String])? {
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        guard let data = try? handle.read(upToCount: largestEntry + 1), data.count <= largestEntry else { return nil }
        let bytes = [UInt8](data)
        guard let text = PNGText.read(bytes) else { return nil }
        return (bytes, text)
    }

    /// The PNG of `picture` with the standard's chunks for `source`.
    package static func png(_ picture: PictureBuffer, duration: Double?, of source: Source,
                            software: String) throws(MediaError) -> [UInt8] {
        let encoded = try PNGEncoder(width: picture.width, height: picture.height).encode(bgra: picture.pixels, pitch: picture.pitch)
        var text: [(keyword: String, text: String)] = [
            ("Thumb::URI", source.uri), ("Thumb::MTime", String(source.modified)), ("Thumb::Size", String(source.bytes)),
        ]
        if let mime = MediaMimeType.of(path: source.path) { text.append(("Thumb::Mimetype", mime)) }
        if let duration { text.append(("Thumb::Movie::Length", String(Int(duration.rounded(.down))))) }
        text.append(("Software", software))
        return try PNGText.adding(text, to: [UInt8](encoded))
    }

    /// Writes an entry as the standard asks: its folders made 0700 (only
    /// the user may read them), the file 0600 under an exclusive temporary
    /// name in the same folder, then renamed into place, so a reader never
    /// sees half a picture.
    private func write(_ png: [UInt8], to url: URL) throws(MediaError) {
        try ThumbnailStore.makeFolders(url.deletingLastPathComponent(), below: root.deletingLastPathComponent())
        do { try AtomicFile.write(Data(png), to: url) } catch let error as MediaError { throw error } catch {
            throw MediaError("cannot write \(url.path): \(error)")
        }
    }

    /// Makes `folder` and those between it and `base` that are missing,
    /// each 0700 (existing ones are left as they are: they are the desktop's).
    static func makeFolders(_ folder: URL, below base: URL) throws(MediaError) {
        var missing: [URL] = []
        var at = folder.standardizedFileURL
        let stop = base.standardizedFileURL.path
        while at.path != stop, at.path != "/", !FileManager.default.fileExists(atPath: at.path) {
            missing.append(at)
            at = at.deletingLastPathComponent()
        }
        if !FileManager.default.fileExists(atPath: base.path) {
            do { try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true) } catch {
                throw MediaError("cannot make \(base.path): \(error.localizedDescription)")
            }
        }
        for made in missing.reversed() {
            guard mkdir(made.path, 0o700) == 0 || errno == EEXIST else {
                throw MediaError("cannot make \(made.path): \(String(cString: strerror(errno)))")
            }
            // 0700 whatever the umask: the process's is not ours alone (the
            // control socket narrows it to 0177 while it binds, and a folder
            // made then had no search bit, so nothing could be written in it).
            chmod(made.path, 0o700)
        }
    }

    /// `file://` and `path` escaped as GLib's `g_filename_to_uri` escapes a
    /// path (RFC 2396): letters, digits and `!$&'()*+,-./:=@_~` as they
    /// are, every other byte of the path's UTF-8 as %XX in capitals. The
    /// cache names an entry by the MD5 of exactly this text, so it must be
    /// the desktop's byte for byte.
    package static func uri(ofPath path: String) -> String {
        let kept = Set(Array("!$&'()*+,-./:=@_~".utf8))
        var out = "file://"
        for byte in path.utf8 {
            let isAlphanumeric = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            if isAlphanumeric || kept.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let digits = String(byte, radix: 16, uppercase: true)
                out += byte < 16 ? "%0" + digits : "%" + digits
            }
        }
        return out
    }
}
