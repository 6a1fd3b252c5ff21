// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Where each file was when the player quit with Shift+Q (mpv's "watch
/// later"), in `$XDG_STATE_HOME/deskplayer/resume.json`. Written to a
/// temporary file that is synced and renamed over the old one, so a crash or
/// a kill at any moment leaves the old state or the new, never a mix.
package struct ResumeStore {
    package let url: URL
    private(set) var positions: [String: Double] = [:]

    package static func defaultURL(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
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
    package init(url: URL = ResumeStore.defaultURL()) {
        self.url = url
    }

    /// The largest resume file read: some 50,000 entries of long paths. A
    /// larger one is not ours to trust and is read as empty.
    static let sizeLimit = 8 << 20

    package mutating func load() -> String? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int else { return nil }
        guard size <= ResumeStore.sizeLimit else {
            return "\(url.path): larger than \(ResumeStore.sizeLimit >> 20) MiB; starting from the beginning"
        }
        guard let data = try? Data(contentsOf: url) else { return nil }
        guard let decoded = try? JSONDecoder().decode([String: Double].self, from: data) else {
            return "\(url.path): not a resume file; starting from the beginning"
        }
        // A position no file reaches (1e300, NaN written by hand) is dropped, not sought to.
        positions = decoded.filter { $0.value.isFinite && $0.value >= 0 && $0.value < ResumeStore.longestPosition }
        return nil
    }

    /// Some 300 years: past any real file, inside what a time can hold.
    static let longestPosition = 1e10

    /// The key of a file: its absolute path (URLs as given).
    static func key(_ name: String) -> String {
        name.contains("://") ? name : URL(fileURLWithPath: name).standardizedFileURL.path
    }

    package func position(of name: String) -> Double? { positions[ResumeStore.key(name)] }

    package mutating func set(_ position: Double?, for name: String) { positions[ResumeStore.key(name)] = position }

    /// Reads the store as it is now, applies `change` and writes it back, all
    /// under an exclusive lock on a file beside it: two players quitting
    /// together each keep their entries (a load then save without the lock
    /// lets the second writer drop the first one's).
    package static func update(url: URL = ResumeStore.defaultURL(), _ change: (inout ResumeStore) -> Void) throws {
        try LockFile.holding(beside: url) {
            var store = ResumeStore(url: url)
            if let problem = store.load() { FileHandle.standardError.write(Data("deskplayer: \(problem)\n".utf8)) }
            change(&store)
            try store.save()
        }
    }

    package func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try AtomicFile.write(try encoder.encode(positions), to: url)
    }
}
