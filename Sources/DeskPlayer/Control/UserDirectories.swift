// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The desktop's named folders (xdg-user-dirs): `XDG_VIDEOS_DIR` and the
/// like from the environment, else `$XDG_CONFIG_HOME/user-dirs.dirs`
/// (`~/.config/user-dirs.dirs`), else the English default under $HOME.
package enum UserDirectories {
    /// The videos folder (`XDG_VIDEOS_DIR`, default ~/Videos).
    package static func videos(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        folder("XDG_VIDEOS_DIR", default: "Videos", environment: environment)
    }

    static func folder(_ key: String, default name: String, environment: [String: String]) -> URL {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        if let set = environment[key], set.hasPrefix("/") { return URL(fileURLWithPath: set) }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        // A settings file of a few hundred bytes; one larger is not read.
        if let attributes = try? FileManager.default.attributesOfItem(atPath: config + "/user-dirs.dirs"),
           let size = attributes[.size] as? NSNumber, size.intValue <= 64 << 10,
           let text = try? String(contentsOfFile: config + "/user-dirs.dirs", encoding: .utf8),
           let path = parse(text, home: home)[key] {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: home).appendingPathComponent(name)
    }

    /// `user-dirs.dirs`' lines `XDG_NAME_DIR="$HOME/Name"` (or an absolute
    /// path) as absolute paths; comments and anything else are skipped.
    package static func parse(_ text: String, home: String) -> [String: String] {
        var folders: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("#"), let eq = trimmed.firstIndex(of: "=") else { continue }
            let key = String(trimmed[..<eq])
            var value = String(trimmed[trimmed.index(after: eq)...])
            guard key.hasPrefix("XDG_"), key.hasSuffix("_DIR"), value.count >= 2, value.first == "\"", value.last == "\""
            else { continue }
            value = String(value.dropFirst().dropLast())
            if value.hasPrefix("$HOME") {
                value = home + value.dropFirst("$HOME".count)
            } else if !value.hasPrefix("/") {
                continue
            }
            // $HOME/ itself means the folder is turned off: not a place to fill.
            guard value.trimmingCharacters(in: CharacterSet(charactersIn: "/")) != home.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            else { continue }
            folders[key] = value
        }
        return folders
    }
}
