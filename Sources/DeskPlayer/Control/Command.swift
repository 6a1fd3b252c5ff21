/// Everything a person or a script can ask the player to do. Keys, the
/// command line and (later) the control socket all produce these values;
/// one place in App applies them.
enum Command: Equatable, Sendable {
    case togglePause
    /// Relative seek in seconds.
    case seek(Double)
    /// Volume change in percentage points.
    case adjustVolume(Int)
    case toggleMute
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
    case quit

    /// mpv's name for the command (input.conf and IPC use these).
    var name: String {
        switch self {
        case .togglePause: return "cycle pause"
        case .seek(let s): return "seek \(Self.number(s))"
        case .adjustVolume(let v): return "add volume \(v)"
        case .toggleMute: return "cycle mute"
        case .toggleFullscreen: return "cycle fullscreen"
        case .leaveFullscreen: return "set fullscreen no"
        case .frameStep: return "frame-step"
        case .playlistNext: return "playlist-next"
        case .playlistPrevious: return "playlist-prev"
        case .focusNext: return "tile-focus next"
        case .cycleContentMode: return "cycle content-mode"
        case .closeTile: return "tile-close"
        case .startPiP: return "pip-start"
        case .quit: return "quit"
        }
    }

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
        KeyBinding(key: "q", command: .quit, help: "quit"),
    ]

    static func command(forKey key: String, in table: [KeyBinding] = defaults) -> Command? {
        table.first { $0.key == key }?.command
    }
}
