/// Everything a person or a script can ask the player to do. Keys, the
/// command line and (later) the control socket all produce these values;
/// one place in App applies them.
enum Command: Equatable, Sendable {
    case togglePause
    /// Relative seek in seconds.
    case seek(Double)
    /// Seek to this position, in seconds (the seek bar).
    case seekTo(Double)
    /// Volume in percent (the volume bar).
    case setVolume(Int)
    /// Volume change in percentage points.
    case adjustVolume(Int)
    case toggleMute
    /// Loop the file forever, or not (mpv's L).
    case toggleLoop
    case toggleFullscreen
    case leaveFullscreen
    case frameStep
    case playlistNext
    case playlistPrevious
    /// Focus the next tile.
    case focusNext
    case cycleContentMode
    case closeTile
    /// Move the focused player into a Picture in Picture window.
    case startPiP
    /// Show or hide the list of key bindings.
    case toggleHelp
    /// Save the focused tile's video frame at its own size (PNG).
    case screenshot
    /// Save what the window shows (PNG).
    case screenshotWindow
    /// Choose files to play: the desktop's dialog, or the built-in browser.
    case openFiles
    /// Pick from the files played last.
    case recentFiles
    /// Show the next subtitle track (or the previous), then none, then the first again.
    case cycleSubtitles(forward: Bool)
    /// Play the next audio track.
    case cycleAudio
    /// Subtitle delay change in seconds (positive: shown later).
    case adjustSubtitleDelay(Double)
    case toggleSubtitles
    case quit
    /// Quit, remembering where each file was (mpv's Shift+Q).
    case quitWatchLater

    /// mpv's name for the command (input.conf and IPC use these).
    var name: String {
        switch self {
        case .togglePause: return "cycle pause"
        case .seek(let s): return "seek \(Self.number(s))"
        case .seekTo(let s): return "seek \(Self.number(s)) absolute"
        case .setVolume(let v): return "set volume \(v)"
        case .adjustVolume(let v): return "add volume \(v)"
        case .toggleMute: return "cycle mute"
        case .toggleLoop: return "cycle-values loop-file inf no"
        case .toggleFullscreen: return "cycle fullscreen"
        case .leaveFullscreen: return "set fullscreen no"
        case .frameStep: return "frame-step"
        case .playlistNext: return "playlist-next"
        case .playlistPrevious: return "playlist-prev"
        case .focusNext: return "tile-focus next"
        case .cycleContentMode: return "cycle content-mode"
        case .closeTile: return "tile-close"
        case .startPiP: return "pip-start"
        case .toggleHelp: return "help"
        case .screenshot: return "screenshot video"
        case .screenshotWindow: return "screenshot window"
        case .openFiles: return "open-files"
        case .recentFiles: return "recent-files"
        case .cycleSubtitles(let forward): return forward ? "cycle sub" : "cycle sub down"
        case .cycleAudio: return "cycle audio"
        case .adjustSubtitleDelay(let d): return "add sub-delay \(Self.number(d))"
        case .toggleSubtitles: return "cycle sub-visibility"
        case .quit: return "quit"
        case .quitWatchLater: return "quit-watch-later"
        }
    }

    /// Reads a command as input.conf writes it ("seek -5", "cycle pause");
    /// nil for one DeskPlayer does not have.
    init?(parsing text: String) {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return nil }
        let rest = words.dropFirst().joined(separator: " ")
        switch (first, rest) {
        case ("seek", _):
            // "seek 5" or "seek 5 relative"; "seek 5 absolute".
            let parts = rest.split(separator: " ")
            guard let n = parts.first.flatMap({ Double($0) }), n.isFinite, parts.count <= 2 else { return nil }
            switch parts.count == 2 ? String(parts[1]) : "relative" {
            case "relative": self = .seek(n)
            case "absolute" where n >= 0: self = .seekTo(n)
            default: return nil
            }
        case ("set", _):
            let parts = rest.split(separator: " ")
            guard parts.count == 2, parts[0] == "volume", let n = Int(parts[1]), (0...100).contains(n) else {
                guard let command = Command.plain.first(where: { $0.name == words.joined(separator: " ") }) else { return nil }
                self = command
                return
            }
            self = .setVolume(n)
        case ("add", _):
            let parts = rest.split(separator: " ")
            if parts.count == 2, parts[0] == "sub-delay", let d = Double(parts[1]), d.isFinite {
                self = .adjustSubtitleDelay(d)
                return
            }
            guard parts.count == 2, parts[0] == "volume", let n = Int(parts[1]) else { return nil }
            self = .adjustVolume(n)
        default:
            let normalized = words.joined(separator: " ")
            guard let command = Command.plain.first(where: { $0.name == normalized }) else { return nil }
            self = command
        }
    }

    /// The commands without a number, found by name.
    private static let plain: [Command] = [
        .togglePause, .toggleMute, .toggleLoop, .toggleFullscreen, .leaveFullscreen, .frameStep, .playlistNext, .playlistPrevious,
        .focusNext, .cycleContentMode, .closeTile, .startPiP, .toggleHelp, .screenshot, .screenshotWindow, .openFiles, .recentFiles, .quit, .quitWatchLater,
        .cycleSubtitles(forward: true), .cycleSubtitles(forward: false), .cycleAudio, .toggleSubtitles,
    ]

    private static func number(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(v)
    }
}

/// Which players a command is for: the focused tile, or every tile (Ctrl+key).
enum CommandScope: Sendable, Equatable {
    case focused
    case all
}

/// One key and what it does, with the line the help overlay shows.
struct KeyBinding: Sendable, Equatable {
    /// mpv's key name: "SPACE", "LEFT", "p", "Ctrl+p", ".".
    let key: String
    let command: Command
    let help: String
}

/// The one binding table: the keyboard handler and the help read it.
enum KeyBindings {
    /// mpv's defaults for the commands DeskPlayer has.
    static let defaults: [KeyBinding] = [
        KeyBinding(key: "SPACE", command: .togglePause, help: "pause / play"),
        KeyBinding(key: "p", command: .togglePause, help: "pause / play"),
        KeyBinding(key: "LEFT", command: .seek(-5), help: "seek back 5 s"),
        KeyBinding(key: "RIGHT", command: .seek(5), help: "seek forward 5 s"),
        KeyBinding(key: "DOWN", command: .seek(-60), help: "seek back 60 s"),
        KeyBinding(key: "UP", command: .seek(60), help: "seek forward 60 s"),
        KeyBinding(key: "9", command: .adjustVolume(-2), help: "volume down"),
        KeyBinding(key: "0", command: .adjustVolume(2), help: "volume up"),
        KeyBinding(key: "/", command: .adjustVolume(-2), help: "volume down"),
        KeyBinding(key: "*", command: .adjustVolume(2), help: "volume up"),
        KeyBinding(key: "m", command: .toggleMute, help: "mute"),
        KeyBinding(key: "L", command: .toggleLoop, help: "loop the file: on / off"),
        KeyBinding(key: "f", command: .toggleFullscreen, help: "fullscreen"),
        KeyBinding(key: "ESC", command: .leaveFullscreen, help: "leave fullscreen"),
        KeyBinding(key: ".", command: .frameStep, help: "step one frame (pauses)"),
        KeyBinding(key: ">", command: .playlistNext, help: "next file"),
        KeyBinding(key: "ENTER", command: .playlistNext, help: "next file"),
        KeyBinding(key: "<", command: .playlistPrevious, help: "previous file"),
        KeyBinding(key: "TAB", command: .focusNext, help: "focus the next tile"),
        KeyBinding(key: "c", command: .cycleContentMode, help: "content mode: fit, fill, stretch"),
        KeyBinding(key: "Ctrl+w", command: .closeTile, help: "close the focused tile"),
        KeyBinding(key: "Ctrl+p", command: .startPiP, help: "Picture in Picture (Esc in it restores)"),
        KeyBinding(key: "s", command: .screenshot, help: "screenshot of the video at its own size"),
        KeyBinding(key: "S", command: .screenshotWindow, help: "screenshot of the window"),
        KeyBinding(key: "Ctrl+o", command: .openFiles, help: "open files (dialog, or the built-in browser)"),
        KeyBinding(key: "Ctrl+r", command: .recentFiles, help: "recent files"),
        KeyBinding(key: "j", command: .cycleSubtitles(forward: true), help: "next subtitle track"),
        KeyBinding(key: "J", command: .cycleSubtitles(forward: false), help: "previous subtitle track"),
        KeyBinding(key: "v", command: .toggleSubtitles, help: "subtitles: show / hide"),
        KeyBinding(key: "z", command: .adjustSubtitleDelay(-0.1), help: "subtitle delay -100 ms"),
        KeyBinding(key: "Z", command: .adjustSubtitleDelay(0.1), help: "subtitle delay +100 ms"),
        KeyBinding(key: "#", command: .cycleAudio, help: "next audio track"),
        KeyBinding(key: "F1", command: .toggleHelp, help: "show / hide this list"),
        KeyBinding(key: "?", command: .toggleHelp, help: "show / hide this list"),
        KeyBinding(key: "q", command: .quit, help: "quit"),
        KeyBinding(key: "Q", command: .quitWatchLater, help: "quit, remembering where each file was"),
    ]

    static func command(forKey key: String, in table: [KeyBinding] = defaults) -> Command? {
        table.first { $0.key == key }?.command
    }

    /// The help overlay's lines, one per command, its keys together
    /// ("SPACE, p" · "pause / play"), in the table's order: made from the
    /// table itself so it cannot go stale.
    static func helpLines(_ table: [KeyBinding]) -> [(keys: String, help: String)] {
        var lines: [(keys: [String], help: String, command: Command)] = []
        for binding in table {
            if let i = lines.firstIndex(where: { $0.command == binding.command }) {
                lines[i].keys.append(binding.key)
            } else {
                lines.append(([binding.key], binding.help, binding.command))
            }
        }
        return lines.map { ($0.keys.joined(separator: ", "), $0.help) }
    }

    /// The table with an input.conf's lines applied over it: `KEY COMMAND`
    /// rebinds KEY, `KEY ignore` unbinds it, `#` starts a comment. A bad line
    /// is skipped and reported as "FILE:LINE: reason".
    static func applying(inputConf text: String, file: String, to table: [KeyBinding])
        -> (table: [KeyBinding], problems: [String]) {
        var table = table
        var problems: [String] = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !line.isEmpty else { continue }
            let parts = line.split(maxSplits: 1, whereSeparator: \.isWhitespace).map(String.init)
            let key = parts[0]
            guard isKeyName(key) else {
                problems.append("\(file):\(number + 1): unknown key '\(key)'")
                continue
            }
            guard parts.count == 2 else {
                problems.append("\(file):\(number + 1): '\(key)' has no command")
                continue
            }
            let commandText = parts[1].trimmingCharacters(in: .whitespaces)
            if commandText == "ignore" {
                table.removeAll { $0.key == key }
                continue
            }
            guard let command = Command(parsing: commandText) else {
                problems.append("\(file):\(number + 1): unknown command '\(commandText)'")
                continue
            }
            let help = table.first { $0.command == command }?.help ?? commandText
            table.removeAll { $0.key == key }
            table.append(KeyBinding(key: key, command: command, help: help))
        }
        return (table, problems)
    }

    /// The names KeyNames produces: a printable character or a named key,
    /// with Ctrl+ / Alt+ in front.
    static func isKeyName(_ name: String) -> Bool {
        var base = Substring(name)
        for prefix in ["Ctrl+", "Alt+"] where base.hasPrefix(prefix) && base.count > prefix.count {
            base = base.dropFirst(prefix.count)
        }
        if base.count == 1, let scalar = base.unicodeScalars.first, (33...126).contains(scalar.value) { return true }
        let named: Set<String> = ["SPACE", "LEFT", "RIGHT", "UP", "DOWN", "ESC", "ENTER", "TAB", "BS", "PGUP", "PGDWN",
                                   "HOME", "END"]
        return named.contains(String(base)) || (1...12).map { "F\($0)" }.contains(String(base))
    }
}
