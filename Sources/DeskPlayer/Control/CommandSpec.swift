// SPDX-License-Identifier: GPL-3.0-or-later
#if !DESKPLAYER_TSAN
import Synchronization
#endif

/// The command table (mpv's `mp_cmds` in `input/cmd_list.c`): each command's
/// name, its arguments, and how its arguments become a `Command`. input.conf
/// lines, key bindings and the control socket's command arrays are all read
/// here, and the socket's `command-list` property is this table, so a client
/// that builds its methods from it (as mpv's client libraries do) gets
/// exactly what DeskPlayer has. The app's features add their own commands
/// to it (`add`), each parsed to `Command.feature` and run by its feature.
package struct CommandSpec: Sendable {
    package struct Argument: Sendable {
        package enum Kind: String, Sendable {
            case number = "Double"
            case integer = "Integer"
            case text = "String"
            case time = "Time"
            case choice = "Choice"
            case value = "Node"
        }

        let name: String
        let kind: Kind
        let optional: Bool
    }

    package let name: String
    let arguments: [Argument]
    /// The last argument takes every word left (cycle-values, script-message).
    let variadic: Bool
    private let make: @Sendable (Arguments) throws(CommandError) -> Command

    init(_ name: String, _ arguments: [Argument] = [], variadic: Bool = false,
         _ make: @escaping @Sendable (Arguments) throws(CommandError) -> Command) {
        self.name = name
        self.arguments = arguments
        self.variadic = variadic
        self.make = make
    }

    /// A command's arguments, read by position.
    package struct Arguments {
        package let values: [JSONValue]

        package init(_ values: [JSONValue]) { self.values = values }

        package var count: Int { values.count }

        package func text(_ i: Int) throws(CommandError) -> String {
            guard values.indices.contains(i) else { throw .invalidParameter }
            switch values[i] {
            case .string(let s): return s
            case .number, .bool: return values[i].plainText
            default: throw .invalidParameter
            }
        }

        package func optionalText(_ i: Int) throws(CommandError) -> String? {
            values.indices.contains(i) ? try text(i) : nil
        }

        package func number(_ i: Int) throws(CommandError) -> Double {
            if values.indices.contains(i), case .number(let n) = values[i], n.isFinite { return n }
            guard let n = Double(try text(i).replacingOccurrences(of: "+", with: "")), n.isFinite else {
                throw .invalidParameter
            }
            return n
        }

        package func optionalIndex(_ i: Int) throws(CommandError) -> Int? {
            guard values.indices.contains(i) else { return nil }
            let n = try number(i)
            guard n >= 0, n == n.rounded(), n < 1e6 else { throw .invalidParameter }
            return Int(saturating: n)
        }

        package func choice<T: RawRepresentable>(_ i: Int, default value: T) throws(CommandError) -> T where T.RawValue == String {
            guard let word = try optionalText(i) else { return value }
            guard let chosen = T(rawValue: word) else { throw .invalidParameter }
            return chosen
        }
    }

    func makeCommand(_ arguments: [JSONValue]) throws(CommandError) -> Command {
        let required = self.arguments.filter { !$0.optional }.count
        guard arguments.count >= required, variadic || arguments.count <= self.arguments.count else {
            throw .invalidParameter
        }
        return try make(Arguments(arguments))
    }

    package static func arg(_ name: String, _ kind: Argument.Kind, optional: Bool = false) -> Argument {
        Argument(name: name, kind: kind, optional: optional)
    }

    /// Every command DeskPlayer has, by mpv's name where mpv has one.
    static let all: [CommandSpec] = [
        CommandSpec("set", [arg("name", .text), arg("value", .value)]) { a throws(CommandError) in
            .set(property: try a.text(0), value: a.values[1])
        },
        CommandSpec("add", [arg("name", .text), arg("value", .number, optional: true)]) { a throws(CommandError) in
            .add(property: try a.text(0), by: a.count > 1 ? try a.number(1) : 1)
        },
        CommandSpec("multiply", [arg("name", .text), arg("value", .number)]) { a throws(CommandError) in
            .multiply(property: try a.text(0), by: try CommandSpec.factor(try a.text(1)))
        },
        CommandSpec("cycle", [arg("name", .text), arg("value", .choice, optional: true)]) { a throws(CommandError) in
            switch try a.optionalText(1) {
            case nil, "up": return .cycle(property: try a.text(0), down: false)
            case "down": return .cycle(property: try a.text(0), down: true)
            default: throw .invalidParameter
            }
        },
        CommandSpec("cycle-values", [arg("name", .text), arg("values", .text)], variadic: true) { a throws(CommandError) in
            var words: [String] = []
            for i in 0..<a.count { words.append(try a.text(i)) }
            // mpv's "!reverse" first walks the list backwards.
            if words.first == "!reverse" { words.removeFirst(); words = [words.first ?? ""] + words.dropFirst().reversed() }
            guard words.count >= 3 else { throw .invalidParameter }
            return .cycleValues(property: words[0], values: Array(words.dropFirst()))
        },
        // Flags joined ("absolute+exact") or as mpv's older third argument
        // (["seek", 10, "absolute", "exact"]); exact unless `keyframes` is asked.
        CommandSpec("seek", [arg("target", .time), arg("flags", .choice, optional: true),
                             arg("legacy", .choice, optional: true)]) { a throws(CommandError) in
            let amount = try a.number(0)
            var mode = Command.SeekMode.relative
            var keyframes = false
            for i in 1..<max(1, a.count) {
                for word in try a.text(i).split(separator: "+").map(String.init) {
                    if let chosen = Command.SeekMode(rawValue: word) {
                        mode = chosen
                    } else if let chosen = CommandSpec.legacySeekModes[word] {
                        mode = chosen
                    } else if word == "keyframes" {
                        keyframes = true
                    } else if !["exact", "default-precise"].contains(word) {
                        throw .invalidParameter
                    }
                }
            }
            return .seek(amount, mode, keyframes: keyframes)
        },
        CommandSpec("frame-step") { _ throws(CommandError) in .frameStep },
        CommandSpec("frame-back-step") { _ throws(CommandError) in .frameBackStep },
        CommandSpec("shuttle", [arg("direction", .choice)]) { a throws(CommandError) in
            .shuttle(try a.choice(0, default: Command.PlayDirection.forward))
        },
        CommandSpec("ab-loop") { _ throws(CommandError) in .abLoop },
        CommandSpec("playlist-next", [arg("flags", .choice, optional: true)]) { a throws(CommandError) in
            .playlistNext(force: try CommandSpec.force(a))
        },
        CommandSpec("playlist-prev", [arg("flags", .choice, optional: true)]) { a throws(CommandError) in
            .playlistPrev(force: try CommandSpec.force(a))
        },
        CommandSpec("playlist-remove", [arg("index", .value)]) { a throws(CommandError) in
            try a.text(0) == "current" ? .playlistRemove(nil) : .playlistRemove(try a.optionalIndex(0))
        },
        CommandSpec("playlist-clear") { _ throws(CommandError) in .playlistClear },
        CommandSpec("playlist-move", [arg("index1", .integer), arg("index2", .integer)]) { a throws(CommandError) in
            guard let from = try a.optionalIndex(0), let to = try a.optionalIndex(1) else { throw .invalidParameter }
            return .playlistMove(from: from, to: to)
        },
        CommandSpec("playlist-shuffle") { _ throws(CommandError) in .playlistShuffle },
        CommandSpec("playlist-unshuffle") { _ throws(CommandError) in .playlistUnshuffle },
        CommandSpec("playlist-play-index", [arg("index", .integer)]) { a throws(CommandError) in
            guard let index = try a.optionalIndex(0) else { throw .invalidParameter }
            return .playlistPlayIndex(index)
        },
        CommandSpec("playlist-panel") { _ throws(CommandError) in .playlistPanel },
        CommandSpec("stop", [arg("flags", .choice, optional: true)]) { _ throws(CommandError) in .stop },
        CommandSpec("expand-text", [arg("text", .text)]) { a throws(CommandError) in .expandText(try a.text(0)) },
        // mpv 0.35's options third; newer mpv puts an index before them (-1: at the end).
        CommandSpec("loadfile", [arg("url", .text), arg("flags", .choice, optional: true),
                                 arg("options", .text, optional: true), arg("options2", .text, optional: true)]) { a throws(CommandError) in
            var options = try a.optionalText(2) ?? ""
            if a.count > 3 || Int(options) != nil { options = try a.optionalText(3) ?? "" }
            return .loadfile(try a.text(0), try a.choice(1, default: Command.LoadMode.replace),
                             options: try CommandSpec.loadOptions(options))
        },
        CommandSpec("sub-add", [arg("url", .text), arg("flags", .choice, optional: true)]) { a throws(CommandError) in
            .subAdd(try a.text(0))
        },
        CommandSpec("screenshot", [arg("flags", .choice, optional: true)]) { a throws(CommandError) in
            .screenshot(try a.choice(0, default: Command.ScreenshotKind.subtitles))
        },
        CommandSpec("screenshot-to-file", [arg("filename", .text), arg("flags", .choice, optional: true)]) { a throws(CommandError) in
            .screenshotToFile(try a.text(0), try a.choice(1, default: Command.ScreenshotKind.subtitles))
        },
        CommandSpec("show-text", [arg("text", .text), arg("duration", .integer, optional: true)]) { a throws(CommandError) in
            // mpv's duration is in milliseconds; -1 means the default.
            let ms = a.count > 1 ? try a.number(1) : -1
            return .showText(try a.text(0), seconds: ms >= 0 ? ms / 1000 : nil)
        },
        CommandSpec("keypress", [arg("name", .text)]) { a throws(CommandError) in
            let key = try a.text(0)
            guard KeyBindings.isKeyName(key) else { throw .invalidParameter }
            return .keypress(key)
        },
        CommandSpec("tile-focus", [arg("target", .text)]) { a throws(CommandError) in
            let target = try a.text(0)
            if target == "next" { return .tileFocus(.next) }
            guard let index = try a.optionalIndex(0) else { throw .invalidParameter }
            return .tileFocus(.index(index))
        },
        CommandSpec("tile-close", [arg("index", .integer, optional: true)]) { a throws(CommandError) in .tileClose(try a.optionalIndex(0)) },
        CommandSpec("help") { _ throws(CommandError) in .help },
        // open-files [sub]: sub loads the file chosen as subtitles.
        CommandSpec("open-files", [arg("kind", .choice, optional: true)]) { a throws(CommandError) in
            switch try a.optionalText(0) {
            case nil, "media": return .openFiles(subtitles: false)
            case "sub": return .openFiles(subtitles: true)
            default: throw .invalidParameter
            }
        },
        CommandSpec("context-menu", [arg("submenu", .text, optional: true)]) { a throws(CommandError) in
            .contextMenu(try a.optionalText(0))
        },
        CommandSpec("recent-files") { _ throws(CommandError) in .recentFiles },
        CommandSpec("library") { _ throws(CommandError) in .library },
        CommandSpec("quit", [arg("code", .integer, optional: true)]) { _ throws(CommandError) in .quit },
        CommandSpec("quit-watch-later", [arg("code", .integer, optional: true)]) { _ throws(CommandError) in .quitWatchLater },
        CommandSpec("write-watch-later-config") { _ throws(CommandError) in .writeWatchLaterConfig },
        CommandSpec("script-message", [arg("args", .text, optional: true)], variadic: true) { a throws(CommandError) in
            var words: [String] = []
            for i in 0..<a.count { words.append(try a.text(i)) }
            return .scriptMessage(words)
        },
        CommandSpec("ignore") { _ throws(CommandError) in .ignore },
    ]

    /// The IPC's spellings of table commands.
    private static let aliases = ["set_property": "set", "set_property_string": "set", "script-message-to": "script-message"]

    /// mpv's numbered seek modes of old (0 relative, 1 percent, 2 absolute).
    static let legacySeekModes: [String: Command.SeekMode] = ["0": .relative, "1": .absolutePercent, "2": .absolute]

    /// playlist-next's and playlist-prev's flag: weak (the default) or force.
    private static func force(_ a: Arguments) throws(CommandError) -> Bool {
        switch try a.optionalText(0) {
        case nil, "weak": return false
        case "force": return true
        default: throw .invalidParameter
        }
    }

    /// loadfile's options, `name=value` separated by commas; a value may be
    /// in double quotes to hold a comma.
    static func loadOptions(_ text: String) throws(CommandError) -> [Command.LoadOption] {
        var options: [Command.LoadOption] = []
        var pairs: [String] = [], current = "", quoted = false
        for c in text {
            if c == "\"" { quoted.toggle() } else if c == "," && !quoted { pairs.append(current); current = "" } else { current.append(c) }
        }
        if !current.isEmpty || !pairs.isEmpty { pairs.append(current) }
        for pair in pairs {
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex else { throw .invalidParameter }
            var name = String(pair[..<eq])
            if name.hasPrefix("--") { name.removeFirst(2) }
            options.append(Command.LoadOption(name: name, value: String(pair[pair.index(after: eq)...])))
        }
        return options
    }

    /// A feature's command: it parses to `Command.feature` with the
    /// arguments `read` returns (checked, in the form its handler reads),
    /// for the feature to run (App's `FeatureRegistry` adds them).
    package static func feature(_ name: String, _ arguments: [Argument] = [], variadic: Bool = false,
                                _ read: @escaping @Sendable (Arguments) throws(CommandError) -> [JSONValue] = { $0.values })
        -> CommandSpec {
        CommandSpec(name, arguments, variadic: variadic) { a throws(CommandError) in
            .feature(Command.FeatureCall(name: name, arguments: try read(a)))
        }
    }

    /// The features' commands, added once when the app starts (before any
    /// command is parsed: each is known by name only from then).
    private static let added = Mutex<[CommandSpec]>([])

    /// Adds a feature's commands to the table; a name the table has already stays as it was.
    package static func add(_ specs: [CommandSpec]) {
        added.withLock { table in
            for spec in specs where !all.contains(where: { $0.name == spec.name }) && !table.contains(where: { $0.name == spec.name }) {
                table.append(spec)
            }
        }
    }

    /// The table's commands, then the features'.
    package static var every: [CommandSpec] { all + added.withLock { $0 } }

    static func named(_ name: String) -> CommandSpec? {
        let name = aliases[name] ?? name
        return all.first { $0.name == name } ?? added.withLock { table in table.first { $0.name == name } }
    }

    /// A command from its words (input.conf) or its JSON array (the socket):
    /// the name, then the arguments.
    package static func parse(_ parts: [JSONValue]) throws(CommandError) -> Command {
        guard let name = parts.first?.string, let spec = named(name) else { throw .invalidParameter }
        return try spec.makeCommand(Array(parts.dropFirst()))
    }

    /// A command given as mpv's named form: `{"name": "seek", "target": 5}`.
    package static func parse(named object: JSONValue) throws(CommandError) -> Command {
        guard let name = object["name"]?.string, let spec = named(name) else { throw .invalidParameter }
        var values: [JSONValue] = []
        for argument in spec.arguments {
            guard let value = object[argument.name] else {
                if argument.optional { break }
                throw .invalidParameter
            }
            values.append(value)
        }
        return try spec.makeCommand(values)
    }

    /// mpv's `command-list`: each command with its arguments.
    package static var commandList: JSONValue {
        .array(every.map { spec in
            .object([("name", .string(spec.name)),
                      ("args", .array(spec.arguments.map { a in
                          .object([("name", .string(a.name)), ("type", .string(a.kind.rawValue)), ("optional", .bool(a.optional))])
                      })),
                      ("vararg", .bool(spec.variadic))])
        })
    }

    /// "1.1", "0.5", or mpv's "1/1.1" for a factor.
    private static func factor(_ text: String) throws(CommandError) -> Double {
        let parts = text.split(separator: "/")
        let values = parts.compactMap { Double($0) }
        guard values.count == parts.count, let first = values.first else { throw .invalidParameter }
        let value = values.dropFirst().reduce(first) { $1 == 0 ? .nan : $0 / $1 }
        guard value.isFinite, value > 0 else { throw .invalidParameter }
        return value
    }

    /// Splits an input.conf command into words: blanks separate, double
    /// quotes group (with \" and \\ inside), and, as mpv reads them, single
    /// quotes opening a word group it with nothing escaped inside
    /// (`show-text '${filename}'`); an apostrophe inside a word is a letter.
    static func tokenize(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false, quoted = false, singleQuoted = false, escaped = false
        for c in text {
            if escaped {
                current.append(c)
                escaped = false
            } else if singleQuoted {
                if c == "'" { singleQuoted = false } else { current.append(c) }
            } else if quoted {
                if c == "\\" { escaped = true } else if c == "\"" { quoted = false } else { current.append(c) }
            } else if c == "\"" {
                quoted = true
                inWord = true
            } else if c == "'" && !inWord {
                singleQuoted = true
                inWord = true
            } else if c == " " || c == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(c)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
