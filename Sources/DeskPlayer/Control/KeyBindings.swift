// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// One key and what it does, with the line the help overlay shows.
package struct KeyBinding: Sendable, Equatable {
    /// Where a binding applies: the main window, or the Picture in Picture
    /// window (looked up there first, then the main section). input.conf
    /// writes a section as mpv does: `{pip} ESC pip-restore`.
    package enum Section: String, Sendable, CaseIterable {
        case main = "default"
        case pip
    }

    /// mpv's key name: "SPACE", "LEFT", "p", "Ctrl+p", ".".
    package let key: String
    package let command: Command
    let help: String
    package var section: Section = .main
}

/// The one binding table: every window's keys, `keypress`, and the help
/// overlay read it.
package enum KeyBindings {
    /// mpv's defaults for the commands of the table (the app's features add
    /// the keys of their own commands: App's `FeatureRegistry.keyBindings`).
    package static let defaults: [KeyBinding] = [
        ("SPACE", "cycle pause", trNoop("pause / play")),
        ("p", "cycle pause", trNoop("pause / play")),
        ("LEFT", "seek -5", trNoop("seek back 5 s")),
        ("RIGHT", "seek 5", trNoop("seek forward 5 s")),
        ("DOWN", "seek -60", trNoop("seek back 60 s")),
        ("UP", "seek 60", trNoop("seek forward 60 s")),
        ("PGUP", "add chapter 1", trNoop("next chapter")),
        ("PGDWN", "add chapter -1", trNoop("previous chapter (its start when more than 5 s in)")),
        ("9", "add volume -2", trNoop("volume down")),
        ("0", "add volume 2", trNoop("volume up")),
        ("/", "add volume -2", trNoop("volume down")),
        ("*", "add volume 2", trNoop("volume up")),
        ("m", "cycle mute", trNoop("mute")),
        ("L", "cycle-values loop-file inf no", trNoop("loop the file: on / off")),
        ("f", "cycle fullscreen", trNoop("fullscreen")),
        ("ESC", "set fullscreen no", trNoop("leave fullscreen")),
        (".", "frame-step", trNoop("step one frame (pauses)")),
        (",", "frame-back-step", trNoop("step one frame back (pauses)")),
        ("[", "multiply speed 1/1.1", trNoop("slower (speed / 1.1)")),
        ("]", "multiply speed 1.1", trNoop("faster (speed x 1.1)")),
        ("{", "multiply speed 0.5", trNoop("half the speed")),
        ("}", "multiply speed 2.0", trNoop("double the speed")),
        ("BS", "set speed 1.0", trNoop("normal speed")),
        // Editors' J/K/L; plain j, J, l and L are mpv's (subtitles, A-B loop, loop-file).
        ("Alt+j", "shuttle backward", trNoop("play backward (again: 2×, 4×)")),
        ("Alt+k", "set pause yes", trNoop("pause")),
        ("Alt+l", "shuttle forward", trNoop("play forward (again: 2×, 4×)")),
        ("l", "ab-loop", trNoop("A-B loop: set A, set B, clear")),
        (">", "playlist-next", trNoop("next file")),
        ("ENTER", "playlist-next", trNoop("next file")),
        ("<", "playlist-prev", trNoop("previous file")),
        ("F8", "playlist-panel", trNoop("playlist panel: show / hide")),
        ("TAB", "tile-focus next", trNoop("focus the next tile")),
        ("c", "cycle content-mode", trNoop("content mode: fit, fill, stretch")),
        ("d", "cycle deinterlace", trNoop("deinterlace: auto, no, yes")),
        ("h", "cycle scope", trNoop("scope: histogram, waveform, vectorscope, none")),
        ("Ctrl+h", "cycle-values hwdec auto-safe no", trNoop("hardware decoding: auto-safe / no")),
        ("Ctrl+w", "tile-close", trNoop("close the focused tile")),
        ("s", "screenshot video", trNoop("screenshot of the video at its own size")),
        ("S", "screenshot window", trNoop("screenshot of the window")),
        ("Ctrl+o", "open-files", trNoop("open files (dialog, or the built-in browser)")),
        ("MBTN_RIGHT", "context-menu", trNoop("the menu (right click)")),
        ("Ctrl+r", "recent-files", trNoop("recent files")),
        ("Ctrl+l", "library", trNoop("your videos: the camera roll")),
        ("j", "cycle sub", trNoop("next subtitle track")),
        ("J", "cycle sub down", trNoop("previous subtitle track")),
        ("v", "cycle sub-visibility", trNoop("subtitles: show / hide")),
        ("z", "add sub-delay -0.1", trNoop("subtitle delay -100 ms")),
        ("Z", "add sub-delay 0.1", trNoop("subtitle delay +100 ms")),
        ("SHARP", "cycle audio", trNoop("next audio track")),
        ("F1", "help", trNoop("show / hide this list")),
        ("?", "help", trNoop("show / hide this list")),
        ("q", "quit", trNoop("quit")),
        ("Q", "quit-watch-later", trNoop("quit, remembering where each file was")),
    ].map { binding(key: $0.0, $0.1, help: $0.2) } + ZoomKeys.bindings.map { binding(key: $0.key, $0.command, help: $0.help) } + [
        binding(key: "SPACE", "cycle pause", help: trNoop("pause / play"), section: .pip),
    ]

    /// A default binding; its command text is the table's own, checked by the
    /// tests (a typo would show as `ignore`, never as a crash).
    package static func binding(key: String, _ command: String, help: String, section: KeyBinding.Section = .main) -> KeyBinding {
        KeyBinding(key: key, command: (try? Command(parsing: command)) ?? .ignore, help: help, section: section)
    }

    /// The command for a key in `section` (the main section's when that one has none).
    package static func command(forKey key: String, in table: [KeyBinding] = defaults, section: KeyBinding.Section = .main) -> Command? {
        if section != .main, let binding = table.first(where: { $0.key == key && $0.section == section }) {
            return binding.command
        }
        return table.first { $0.key == key && $0.section == .main }?.command
    }

    /// The help overlay's lines, one per command, its keys together
    /// ("SPACE, p" · "pause / play"), in the table's order: made from the
    /// table itself so it cannot go stale.
    package static func helpLines(_ table: [KeyBinding]) -> [(keys: String, help: String)] {
        var lines: [(keys: [String], help: String, command: Command, section: KeyBinding.Section)] = []
        for binding in table {
            if let i = lines.firstIndex(where: { $0.command == binding.command && $0.section == binding.section }) {
                lines[i].keys.append(binding.key)
            } else {
                lines.append(([binding.key], binding.help, binding.command, binding.section))
            }
        }
        return lines.map { line in
            (line.keys.map { displayName($0, line.section) }.joined(separator: ", "), line.help)
        }
    }

    /// A key as the help overlay shows it: `#` for SHARP, COMMA for `,`, "ESC in PiP" for
    /// the Picture in Picture window's own keys.
    package static func displayName(_ key: String, _ section: KeyBinding.Section = .main) -> String {
        // The comma key is spelled out: the overlay lists a command's keys with commas.
        let name = key == "," ? "COMMA" : key.replacingOccurrences(of: "SHARP", with: "#")
        return section == .main ? name : "\(name) in PiP"
    }

    /// The table with an input.conf's lines applied over it: `KEY COMMAND`
    /// rebinds KEY, `KEY ignore` unbinds it, `{pip} KEY COMMAND` binds it in
    /// the Picture in Picture window, `#` starts a comment. A bad line is
    /// skipped and reported as "FILE:LINE: reason".
    package static func applying(inputConf text: String, file: String, to table: [KeyBinding])
        -> (table: [KeyBinding], problems: [String]) {
        var table = table
        var problems: [String] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            var section = KeyBinding.Section.main
            if line.hasPrefix("{"), let close = line.firstIndex(of: "}") {
                let name = String(line[line.index(after: line.startIndex)..<close])
                guard let named = KeyBinding.Section(rawValue: name) else {
                    problems.append("\(file):\(number + 1): unknown section '{\(name)}'")
                    continue
                }
                section = named
                line = String(line[line.index(after: close)...]).trimmingCharacters(in: .whitespaces)
            }
            let parts = line.split(maxSplits: 1, whereSeparator: \.isWhitespace).map(String.init)
            guard let key = parts.first, isKeyName(key) else {
                problems.append("\(file):\(number + 1): unknown key '\(parts.first ?? line)'")
                continue
            }
            guard parts.count == 2 else {
                problems.append("\(file):\(number + 1): '\(key)' has no command")
                continue
            }
            // mpv's dummy key: a command for a `#menu:` item alone, bound to no key.
            if key == "_" { continue }
            let commandText = parts[1].trimmingCharacters(in: .whitespaces)
            table.removeAll { $0.key == key && $0.section == section }
            if commandText == "ignore" { continue }
            let command: Command
            do { command = try Command(parsing: commandText) } catch {
                problems.append("\(file):\(number + 1): unknown command '\(commandText)'")
                continue
            }
            let help = table.first { $0.command == command }?.help ?? commandText
            table.append(KeyBinding(key: key, command: command, help: help, section: section))
        }
        return (table, problems)
    }

    /// A line without its `#` comment (a `#` inside quotes is not one; the
    /// `#` key is named SHARP, as in mpv).
    private static func stripComment(_ line: String) -> String {
        var quoted = false
        for (i, c) in zip(line.indices, line) {
            if c == "\"" { quoted.toggle() }
            if c == "#" && !quoted { return String(line[..<i]) }
        }
        return line
    }

    /// The names KeyNames produces: a printable character or a named key,
    /// with Ctrl+ / Alt+ / Shift+ in front.
    static func isKeyName(_ name: String) -> Bool {
        var base = Substring(name)
        for prefix in ["Ctrl+", "Alt+", "Shift+"] where base.hasPrefix(prefix) && base.count > prefix.count {
            base = base.dropFirst(prefix.count)
        }
        if base.count == 1, let scalar = base.unicodeScalars.first, (33...126).contains(scalar.value) { return true }
        let named: Set<String> = ["SPACE", "LEFT", "RIGHT", "UP", "DOWN", "ESC", "ENTER", "TAB", "BS", "PGUP", "PGDWN",
                                   "HOME", "END", "DEL", "INS", "PLAY", "PAUSE", "PLAYPAUSE", "STOP", "NEXT", "PREV",
                                   "MUTE", "VOLUME_UP", "VOLUME_DOWN", "SHARP", "MBTN_LEFT", "MBTN_RIGHT", "MBTN_MID"]
        return named.contains(String(base)) || (1...12).map { "F\($0)" }.contains(String(base))
    }
}
