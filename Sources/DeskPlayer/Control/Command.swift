// SPDX-License-Identifier: GPL-3.0-or-later
/// Everything a person or a script can ask the player to do, in mpv's
/// vocabulary (`input/cmd_list.c`). Keys (through the binding table),
/// input.conf, the control socket, the Picture in Picture window and MPRIS
/// all produce these values; one controller in App applies them. Settings
/// are not commands of their own: `set`, `add`, `multiply`, `cycle` and
/// `cycle-values` name a property of the one property table.
package enum Command: Equatable, Sendable {
    case set(property: String, value: JSONValue)
    case add(property: String, by: Double)
    case multiply(property: String, by: Double)
    /// The next value (a flag flips; a choice or track moves on; `down` goes back).
    case cycle(property: String, down: Bool)
    /// The value after the current one in `values` (mpv's cycle-values).
    case cycleValues(property: String, values: [String])
    /// `keyframes`: to the keyframe at or before the target, shown at once
    /// (mpv's `keyframes` flag; the seek bar while it is dragged).
    case seek(Double, SeekMode, keyframes: Bool = false)
    case frameStep
    /// Shows exactly the frame before the one on screen, paused (mpv's frame-back-step).
    case frameBackStep
    /// Editors' J and L (a shuttle): plays that way at 1×, or when it
    /// already does, twice as fast (up to 4×). K pauses (`set pause yes`).
    case shuttle(PlayDirection)
    /// Sets A, then B, then clears the A-B loop (mpv's ab-loop).
    case abLoop
    /// The next or previous entry; `force` past either end stops (mpv's
    /// playlist-next force), else there it is an error and nothing changes.
    case playlistNext(force: Bool)
    case playlistPrev(force: Bool)
    /// Removes an entry of the playlist (nil: the current one).
    case playlistRemove(Int?)
    /// Removes every entry but the current one.
    case playlistClear
    /// Moves entry `from` to before entry `to`.
    case playlistMove(from: Int, to: Int)
    case playlistShuffle
    case playlistUnshuffle
    /// Plays entry N of the playlist now (mpv's playlist-play-index).
    case playlistPlayIndex(Int)
    /// Shows or hides the playlist panel (cycles the `playlist-panel` property).
    case playlistPanel
    /// Stops playing and empties the playlist (mpv's stop): the player waits, idle.
    case stop
    /// mpv's property expansion of the text, as `--title` does it; the reply's data.
    case expandText(String)
    /// A file to play; `options` are the per-file options as mpv's loadfile
    /// takes them (`start=10,pause=yes`).
    case loadfile(String, LoadMode, options: [LoadOption] = [])
    case subAdd(String)
    case screenshot(ScreenshotKind)
    case screenshotToFile(String, ScreenshotKind)
    /// A command one of the app's features added to the table
    /// (`CommandSpec.feature`): its name and its checked arguments, for
    /// that feature to run (comparing, recording, Picture in Picture).
    case feature(FeatureCall)
    /// A line on the OSD for `seconds` (nil: the usual time).
    case showText(String, seconds: Double?)
    /// What the key means in the binding table in use, exactly as if pressed.
    case keypress(String)
    case tileFocus(TileChoice)
    /// The tile at an index, or the focused one.
    case tileClose(Int?)
    case help
    /// The file dialog (or the built-in browser); `subtitles` loads what is
    /// chosen as the focused file's subtitles (sub-add) instead of playing it.
    case openFiles(subtitles: Bool)
    /// The context menu at the pointer, or one of its submenus by its title
    /// ("Audio", "Subtitles": the first whose title starts so), as
    /// mpv's context-menu; the control bar's track buttons run it.
    case contextMenu(String?)
    case recentFiles
    /// Shows or hides the camera roll (cycles the `library` property).
    case library
    case quit
    case quitWatchLater
    case writeWatchLaterConfig
    /// For scripts talking to each other; DeskPlayer has none, so it does nothing.
    case scriptMessage([String])
    /// Does nothing (input.conf's `KEY ignore`).
    case ignore

    /// A feature's command as its spec read it.
    package struct FeatureCall: Equatable, Sendable {
        package let name: String
        package let arguments: [JSONValue]

        package init(name: String, arguments: [JSONValue] = []) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// Which way a shuttle plays (mpv's `play-dir` values).
    package enum PlayDirection: String, Sendable, CaseIterable {
        case forward
        case backward
    }

    /// What `compare-align` matches: `auto` the audio, else the pictures
    /// (no audio on a side, or audio that does not match).
    package enum CompareAlignMethod: String, Sendable, CaseIterable {
        case auto
        case audio
        case video
    }

    package enum SeekMode: String, Sendable, CaseIterable {
        case relative
        case absolute
        case absolutePercent = "absolute-percent"
        case relativePercent = "relative-percent"
    }

    package enum LoadMode: String, Sendable, CaseIterable {
        case replace
        case append
        case appendPlay = "append-play"
    }

    /// One `name=value` of loadfile's options.
    package struct LoadOption: Equatable, Sendable {
        package let name: String
        package let value: String

        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    package enum ScreenshotKind: String, Sendable, CaseIterable {
        /// The video frame at its own size.
        case video
        /// What the window shows.
        case window
        /// The video frame with its subtitles (DeskPlayer's video frames carry them).
        case subtitles
    }

    package enum TileChoice: Equatable, Sendable {
        case next
        case index(Int)
    }
}

/// mpv's error strings, which its clients compare against. Every command
/// source gets the same ones: the socket replies with them, keys show them.
package enum CommandError: String, Error, Sendable {
    case invalidParameter = "invalid parameter"
    case propertyNotFound = "property not found"
    case propertyUnavailable = "property unavailable"
    /// A value the property refuses (out of its range).
    case propertyError = "error accessing property"
    case commandFailed = "error running command"
    /// A client observing as many properties as it may (ControlSocket.observationsPerClient).
    case tooManyObservations = "too many observed properties"
}

extension Command {
    /// The command as input.conf writes it (`seek -5`, `cycle pause`); reads
    /// back with `Command(parsing:)`.
    package var text: String {
        func quoted(_ s: String) -> String {
            s.isEmpty || s.hasPrefix("'") || s.contains(where: { $0 == " " || $0 == "\"" || $0 == "#" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : s
        }
        func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v) }
        func index(_ i: Int?) -> String { i.map { " \($0)" } ?? "" }
        switch self {
        case .set(let p, let v): return "set \(p) \(quoted(v.plainText))"
        case .add(let p, let d): return "add \(p) \(number(d))"
        case .multiply(let p, let f): return "multiply \(p) \(number(f))"
        case .cycle(let p, let down): return down ? "cycle \(p) down" : "cycle \(p)"
        case .cycleValues(let p, let values): return (["cycle-values", p] + values.map(quoted)).joined(separator: " ")
        case .seek(let s, let mode, let keyframes):
            let flags = (mode == .relative ? [] : [mode.rawValue]) + (keyframes ? ["keyframes"] : [])
            return (["seek \(number(s))"] + [flags.joined(separator: "+")].filter { !$0.isEmpty }).joined(separator: " ")
        case .frameStep: return "frame-step"
        case .frameBackStep: return "frame-back-step"
        case .shuttle(let direction): return "shuttle \(direction.rawValue)"
        case .abLoop: return "ab-loop"
        case .playlistNext(let force): return force ? "playlist-next force" : "playlist-next"
        case .playlistPrev(let force): return force ? "playlist-prev force" : "playlist-prev"
        case .playlistRemove(let i): return "playlist-remove " + (i.map(String.init) ?? "current")
        case .playlistClear: return "playlist-clear"
        case .playlistMove(let from, let to): return "playlist-move \(from) \(to)"
        case .playlistShuffle: return "playlist-shuffle"
        case .playlistUnshuffle: return "playlist-unshuffle"
        case .playlistPlayIndex(let i): return "playlist-play-index \(i)"
        case .playlistPanel: return "playlist-panel"
        case .stop: return "stop"
        case .expandText(let text): return "expand-text \(quoted(text))"
        case .loadfile(let path, let mode, let options):
            let list = options.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
            return "loadfile \(quoted(path)) \(mode.rawValue)" + (options.isEmpty ? "" : " " + quoted(list))
        case .subAdd(let path): return "sub-add \(quoted(path))"
        case .screenshot(let kind): return "screenshot \(kind.rawValue)"
        case .screenshotToFile(let path, let kind): return "screenshot-to-file \(quoted(path)) \(kind.rawValue)"
        case .feature(let call): return ([call.name] + call.arguments.map { quoted($0.plainText) }).joined(separator: " ")
        case .showText(let t, let s): return "show-text \(quoted(t))" + (s.map { " \(Int(saturating: ($0 * 1000).rounded()))" } ?? "")
        case .keypress(let key): return "keypress \(key)"
        case .tileFocus(.next): return "tile-focus next"
        case .tileFocus(.index(let i)): return "tile-focus \(i)"
        case .tileClose(let i): return "tile-close" + index(i)
        case .help: return "help"
        case .openFiles(let subtitles): return subtitles ? "open-files sub" : "open-files"
        case .contextMenu(let submenu): return "context-menu" + (submenu.map { " " + quoted($0) } ?? "")
        case .recentFiles: return "recent-files"
        case .library: return "library"
        case .quit: return "quit"
        case .quitWatchLater: return "quit-watch-later"
        case .writeWatchLaterConfig: return "write-watch-later-config"
        case .scriptMessage(let args): return (["script-message"] + args.map(quoted)).joined(separator: " ")
        case .ignore: return "ignore"
        }
    }

    /// Reads a command as input.conf writes it; throws for a name DeskPlayer
    /// does not have or arguments that do not fit.
    package init(parsing text: String) throws(CommandError) {
        let words = CommandSpec.tokenize(text)
        guard !words.isEmpty else { throw .invalidParameter }
        self = try CommandSpec.parse(words.map { .string($0) })
    }
}

extension JSONValue {
    /// The value as mpv prints it for a person (`get_property_string`,
    /// input.conf): flags as yes/no, numbers without a trailing .0.
    package var plainText: String {
        switch self {
        case .string(let s): return s
        case .bool(let b): return b ? "yes" : "no"
        case .null: return ""
        default: return text
        }
    }

    /// As `plainText`, but lists and objects as JSON (mpv's get_property_string).
    package var plainTextOrJSON: String {
        switch self {
        case .array, .object: return text
        default: return plainText
        }
    }
}
