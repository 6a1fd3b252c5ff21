// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The user's own folders as xdg-user-dirs names them
/// (`$XDG_CONFIG_HOME/user-dirs.dirs`: `XDG_VIDEOS_DIR="$HOME/Videos"`),
/// translated names included ("$HOME/Vidéos"), so the roll finds the
/// Videos folder the file manager shows.
package enum UserDirs {
    /// The file is a few lines; more than this is not one.
    static let largestFile = 64 << 10

    /// The Videos folder: `XDG_VIDEOS_DIR` from the environment (an
    /// absolute path), else from user-dirs.dirs, else `~/Videos`.
    package static func videos(_ environment: [String: String]) -> URL {
        folder("XDG_VIDEOS_DIR", fallback: "Videos", environment)
    }

    /// The folder `key` names; `fallback` under the home folder when none does.
    static func folder(_ key: String, fallback: String, _ environment: [String: String]) -> URL {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        if let set = environment[key], set.hasPrefix("/") { return URL(fileURLWithPath: set) }
        if let text = read(configFile(environment, home: home)), let value = parse(text)[key] {
            if value.hasPrefix("$HOME/") { return URL(fileURLWithPath: home + value.dropFirst(5)) }
            if value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            // "$HOME" alone means the folder is not set up (xdg-user-dirs' own rule): the fallback.
        }
        return URL(fileURLWithPath: home).appendingPathComponent(fallback)
    }

    static func configFile(_ environment: [String: String], home: String) -> URL {
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        return URL(fileURLWithPath: config).appendingPathComponent("user-dirs.dirs")
    }

    private static func read(_ url: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: largestFile + 1), data.count <= largestFile else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `KEY="value"` lines (the shell syntax xdg-user-dirs writes: double
    /// quotes, `\` escaping the next character); comments and other lines skipped.
    package static func parse(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = String(trimmed[..<equals])
            var raw = trimmed[trimmed.index(after: equals)...]
            guard raw.hasPrefix("\""), raw.count >= 2 else { continue }
            raw = raw.dropFirst()
            var value = "", escaped = false, closed = false
            for c in raw {
                if escaped { value.append(c); escaped = false } else if c == "\\" { escaped = true } else if c == "\"" {
                    closed = true
                    break
                } else { value.append(c) }
            }
            if closed { out[key] = value }
        }
        return out
    }
}
