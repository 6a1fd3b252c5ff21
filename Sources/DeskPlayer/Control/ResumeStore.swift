import Foundation

/// Where each file was when the player quit with Shift+Q (mpv's "watch
/// later"), in `$XDG_STATE_HOME/deskplayer/resume.json`. Written to a
/// temporary file that is synced and renamed over the old one, so a crash or
/// a kill at any moment leaves the old state or the new, never a mix.
struct ResumeStore {
    let url: URL
    private(set) var positions: [String: Double] = [:]

    static func defaultURL(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else {
            base = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/state")
        }
        return base.appendingPathComponent("deskplayer/resume.json")
    }

    /// Reads the store; a missing file is empty, an unreadable one is
    /// reported (nil problem otherwise) and treated as empty.
    init(url: URL = ResumeStore.defaultURL()) {
        self.url = url
    }

    mutating func load() -> String? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        guard let decoded = try? JSONDecoder().decode([String: Double].self, from: data) else {
            return "\(url.path): not a resume file; starting from the beginning"
        }
        positions = decoded.filter { $0.value.isFinite && $0.value >= 0 }
        return nil
    }

    /// The key of a file: its absolute path (URLs as given).
    static func key(_ name: String) -> String {
        name.contains("://") ? name : URL(fileURLWithPath: name).standardizedFileURL.path
    }

    func position(of name: String) -> Double? { positions[ResumeStore.key(name)] }

    mutating func set(_ position: Double?, for name: String) { positions[ResumeStore.key(name)] = position }

    func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try AtomicFile.write(try encoder.encode(positions), to: url)
    }
}

/// Writes a whole file or nothing: temporary name in the same folder,
/// fsync, rename over the target, fsync the folder.
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws {
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
