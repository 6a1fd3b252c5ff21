// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Where each file was when the player quit with Shift+Q (mpv's "watch
/// later"), in `$XDG_STATE_HOME/deskplayer/resume.json`. Written to a
/// temporary file that is synced and renamed over the old one, so a crash or
/// a kill at any moment leaves the old state or the new, never a mix.
package struct ResumeStore {
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
    package init(url: URL = ResumeStore.defaultURL()) {
        self.url = url
    }

    package mutating func load() -> String? {
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

    package func position(of name: String) -> Double? { positions[ResumeStore.key(name)] }

    package mutating func set(_ position: Double?, for name: String) { positions[ResumeStore.key(name)] = position }

    package func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try AtomicFile.write(try encoder.encode(positions), to: url)
    }
}
