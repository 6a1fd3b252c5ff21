// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The user's files in `$XDG_CONFIG_HOME/deskplayer/` (default
/// `~/.config/deskplayer/`): `input.conf` rebinds keys, `deskplayer.conf`
/// holds defaults for command-line options. `--no-config` ignores both.
package enum ConfigFiles {
    static func directory(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("deskplayer")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".config/deskplayer")
    }

    /// The text of a config file, nil when there is none.
    package static func read(_ name: String) -> (path: String, text: String)? {
        let url = directory().appendingPathComponent(name)
        // A config file is lines a person wrote: one past a MiB is not read.
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0
        guard size <= 1 << 20 else {
            FileHandle.standardError.write(Data("deskplayer: \(url.path): larger than 1 MiB; not read\n".utf8))
            return nil
        }
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        return (url.path, text)
    }

    /// deskplayer.conf as mpv writes its config: `option=value` or `option`
    /// (a flag), one per line, `#` comments. Each line is checked alone with
    /// the command line's own parser; a bad one is skipped and reported as
    /// "FILE:LINE: reason". The arguments go before the command line's own,
    /// so the command line wins.
    package static func optionArguments(_ text: String, file: String,
                                check: ([String]) -> String?) -> (arguments: [String], problems: [String]) {
        var arguments: [String] = []
        var problems: [String] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !line.isEmpty else { continue }
            let option = line.hasPrefix("--") ? line : "--" + line
            if let reason = check([option]) {
                problems.append("\(file):\(number + 1): \(reason)")
            } else {
                arguments.append(option)
            }
        }
        return (arguments, problems)
    }
}
