// SPDX-License-Identifier: GPL-3.0-or-later
import Output
import Control
import Foundation
import Media
import Playback
import UI

/// Where a command came from: it decides only whether the OSD says what changed.
enum CommandSource {
    case key, mouse, pip, socket, mpris, commandLine
    /// The window manager (minimizing the window with --pip-auto).
    case window

    /// A person pressed or clicked something: show what it did.
    var showsOSD: Bool { self == .key || self == .mouse || self == .pip }
}

/// Which tiles a command is for.
enum CommandTarget {
    case focused
    /// Every tile (Ctrl+key).
    case all
    case tile(Tile)
    /// A tile made for it: a file dropped beside the tiles (`loadfile`
    /// only; anything else finds no tile).
    case newTile
}

/// The one place commands are applied, whatever produced them (keys,
/// input.conf, the control socket, the Picture in Picture window, MPRIS):
/// mpv's `run_command` and property layer. A transport command or a
/// property of group scope reaches a tile's whole sync group, written once
/// here. Main thread only.
final class CommandController {
    let tiles: TileSet
    let factory: TileFactory
    /// Each feature's state (the roll, Picture in Picture, comparing,
    /// recording, …), which its folder reaches as a property of the
    /// controller: the controller itself names none.
    let features = FeatureStates()
    weak var screen: (any PlayerScreen)? {
        didSet { screen?.helpLines = KeyBindings.helpLines(bindings) }
    }
    /// The key binding table (defaults, then input.conf).
    var bindings = FeatureRegistry.keyBindings {
        didSet { screen?.helpLines = KeyBindings.helpLines(bindings) }
    }
    /// The context menu's table (defaults, then input.conf's `#menu:` lines).
    var menuTable = FeatureRegistry.menuTable
    let screenshots: Screenshots
    private(set) var quitRequested = false
    /// Where properties changed, for the observers (`PropertyChanges`).
    let changes = PropertyChanges()
    /// How many property getters the observers' reads ran (`value(of:)`):
    /// what the tests of `PropertyChanges` count.
    private(set) var propertyReads = 0
    /// Commands' file work (screenshot-to-file, compare-export-frames), off the main thread.
    let fileWorker = FileWorker()
    /// The ticket of the file job the command being applied started (the
    /// socket replies once it has run); see `takeStartedFileJob`.
    var startedFileJob: Int?
    /// How many keys deep the key being handled is: a binding that presses a
    /// key (`keypress`) nests one deeper.
    private var keyDepth = 0
    /// How deep key presses may nest (mpv bounds its nesting too): far more
    /// than any real chain of bindings, far less than the stack holds.
    static let keyNestingLimit = 10

    init(tiles: TileSet, factory: TileFactory, screenshots: Screenshots) {
        self.tiles = tiles
        self.factory = factory
        self.screenshots = screenshots
        FeatureRegistry.installCommands()
        tiles.onChange = { [changes] in changes.mark() }
    }

    /// The count of property changes now (`PropertyChanges.generation`):
    /// an observer that read at another count reads again.
    func changeGeneration() -> UInt64 { changes.generation(tiles.tiles.map(\.player)) }

    /// A line on the OSD, when there is a window.
    func osd(_ text: String, seconds: Double = 3, topic: String? = nil) {
        screen?.showMessage(text, seconds: seconds, topic: topic)
    }

    // MARK: Keys

    /// What `key` means in the binding table (the Picture in Picture
    /// window's section first when `section` says so), applied to `tile`
    /// or the focused one. Ctrl with a tile's key does it for every tile.
    func handleKey(_ key: String, section: KeyBinding.Section = .main, tile: Tile? = nil,
                   from source: CommandSource = .key) throws(CommandError) {
        // A binding may press a key (`a keypress b`); one that presses itself,
        // directly or round a loop, would recurse until the stack ends.
        guard keyDepth < Self.keyNestingLimit else {
            PlayerApp.printError("keypress \(key): key bindings nest deeper than \(Self.keyNestingLimit) keys; refused")
            osd(String(format: tr("Key bindings nest too deep: %@"), key), seconds: 2)
            throw .commandFailed
        }
        keyDepth += 1
        defer { keyDepth -= 1 }
        if key.contains("Shift+"), KeyBindings.command(forKey: key, in: bindings, section: section) == nil {
            // Shift on a key bound only without it does what the key does.
            return try handleKey(key.replacingOccurrences(of: "Shift+", with: ""), section: section, tile: tile, from: source)
        }
        if let command = KeyBindings.command(forKey: key, in: bindings, section: section) {
            try apply(command, to: tile.map { .tile($0) } ?? .focused, from: source)
        } else if key.hasPrefix("Ctrl+"),
                  let command = KeyBindings.command(forKey: String(key.dropFirst(5)), in: bindings, section: section) {
            try apply(command, to: .all, from: source)
        }
    }

    // MARK: Commands

    /// Runs what a person asked for (a key, a click, a mini window's
    /// button): a command that fails says why on the OSD (the socket's
    /// clients get the error in their reply instead).
    func runFromUser(_ body: () throws(CommandError) -> Void) {
        do { try body() } catch {
            if error != .propertyUnavailable { osd(String(format: tr("Cannot do that: %@"), error.rawValue), seconds: 2) }
        }
    }

    /// Applies `command`; returns what the socket replies with as `data`.
    @discardableResult
    func apply(_ command: Command, to target: CommandTarget = .focused, from source: CommandSource) throws(CommandError) -> JSONValue {
        // What a command changes (a failed one too may have changed some of
        // it), observers hear of; text shown or expanded changes nothing.
        switch command {
        case .expandText, .showText, .scriptMessage, .ignore: break
        default: changes.mark()
        }
        switch command {
        case .set(let name, let value):
            try change(name, target, source) { _, _, _ throws(CommandError) in value }
        case .add(let name, let delta):
            try change(name, target, source) { property, current, leader throws(CommandError) in
                if let add = property.add { return try add(leader, delta) }
                return .number(try clamp(property, try PropertyValue.number(current) + delta))
            }
        case .multiply(let name, let factor):
            try change(name, target, source) { property, current, _ throws(CommandError) in
                .number(try clamp(property, try PropertyValue.number(current) * factor))
            }
        case .cycle(let name, let down):
            try cycle(name, down: down, target, source)
        case .cycleValues(let name, let values):
            // Compared by meaning: for loop-file "yes" is the "inf" read back, for speed "1.50" is 1.5.
            try change(name, target, source) { property, current, _ throws(CommandError) in
                let now = property.meaning(current)
                let index = values.firstIndex { property.meaning(.string($0)) == now }.map { ($0 + 1) % values.count } ?? 0
                return .string(values[index])
            }
        case .seek(let amount, let mode, let keyframes):
            try seek(amount, mode, keyframes: keyframes, target)
        case .frameStep:
            for tile in try groups(target).flatMap(\.members) { tile.player.stepFrame() }
        case .frameBackStep:
            // The leader shows its previous frame; the others the frame due then on the group clock.
            for unit in try groups(target) {
                guard let time = unit.leader.player.stepBack() else { continue }
                for member in unit.members where member !== unit.leader { member.player.showFrame(at: time) }
            }
        case .shuttle(let direction):
            try shuttle(direction, target, source)
        case .abLoop:
            for tile in try resolve(target) { osd(tile.player.cycleABLoop(), seconds: 2, topic: "ab-loop") }
        case .playlistNext(let force), .playlistPrev(let force):
            // The pause state carries over, as in mpv. Past an end: weak is an
            // error and nothing changes; force stops.
            let forward: Bool = if case .playlistNext = command { true } else { false }
            for tile in try resolve(target) {
                let queue = tile.playlist
                let atEnd = forward ? queue.items.count <= 1 && !queue.loopsQueue : queue.history.isEmpty
                if atEnd && !force {
                    // A key at the end says so; a client gets mpv's error.
                    guard source.showsOSD else { throw .commandFailed }
                    osd(forward ? tr("No next file") : tr("No previous file"), seconds: 1.5)
                    continue
                }
                if atEnd && !forward { queue.stop() } else if forward { queue.advanceToNextItem() } else { queue.playPrevious() }
                tile.ended = false
            }
        case .playlistRemove(let index):
            for tile in try resolve(target) {
                let queue = tile.playlist
                guard queue.remove(at: index ?? queue.history.count) else { throw .invalidParameter }
            }
        case .playlistClear:
            for tile in try resolve(target) { tile.playlist.clearAllButCurrent() }
        case .playlistMove(let from, let to):
            for tile in try resolve(target) where !tile.playlist.move(from, before: to) { throw .invalidParameter }
        case .playlistShuffle:
            for tile in try resolve(target) { tile.playlist.shuffle() }
        case .playlistUnshuffle:
            for tile in try resolve(target) { tile.playlist.unshuffle() }
        case .playlistPlayIndex(let index):
            for tile in try resolve(target) {
                guard tile.playlist.play(at: index) else { throw .invalidParameter }
                tile.ended = false
            }
        case .playlistPanel:
            try cycle("playlist-panel", down: false, target, source)
        case .stop:
            for tile in try resolve(target) {
                tile.playlist.stop()
                tile.ended = false
            }
        case .expandText(let text):
            return .string(expand(text))
        case .loadfile(let path, let mode, let options):
            try load(path, mode: mode, options: options, in: try? resolve(target).first)
        case .subAdd(let path):
            guard let item = try resolve(target).first?.player.currentItem else { throw .propertyUnavailable }
            item.addSubtitleFile(path)
            osd(String(format: tr("Loading subtitles: %@"), (path as NSString).lastPathComponent), seconds: 2)
        case .screenshot(let kind):
            try screenshot(kind, target)
        case .screenshotToFile(let path, let kind):
            try screenshot(kind, target, to: URL(fileURLWithPath: path))
        case .feature(let call):
            // A feature's own command (FeatureRegistry): its handler runs it.
            guard let command = FeatureRegistry.commands[call.name] else { throw .invalidParameter }
            return try command.run(CommandSpec.Arguments(call.arguments), self, target, source)
        case .showText(let text, let seconds):
            // mpv expands properties in show-text; scripts send `${filename}` and the like.
            osd(expand(text), seconds: seconds ?? 3)
        case .keypress(let key):
            try handleKey(key, tile: { if case .tile(let t) = target { return t } else { return nil } }(), from: source)
        case .tileFocus(.next):
            tiles.focusNext()
        case .tileFocus(.index(let index)):
            guard tiles.tiles.indices.contains(index) else { throw .invalidParameter }
            tiles.focus(index)
        case .tileClose(let index):
            let tile = try self.tile(index, target)
            if tile.isInPiP { pips?.close(tile) } else { tiles.close(tile) }
        case .help:
            screen?.showsHelp.toggle()
        case .openFiles(let subtitles):
            if subtitles, (try? resolve(target).first?.player.currentItem) == nil { throw .propertyUnavailable }
            opener?.openFiles(subtitles: subtitles)
        case .contextMenu(let path):
            guard let screen else { throw .commandFailed }
            let items = ContextMenuBuilder.items(menuTable, controller: self)
            guard let shown = path.map({ ContextMenuBuilder.submenu($0, in: items) }) ?? items else { throw .invalidParameter }
            screen.menuItems = shown
        case .recentFiles:
            opener?.showRecentFiles()
        case .library:
            try cycle("library", down: false, target, source)
        case .quit:
            quitRequested = true
        case .quitWatchLater:
            saveResumePositions()
            quitRequested = true
        case .writeWatchLaterConfig:
            saveResumePositions()
        case .scriptMessage, .ignore:
            break
        }
        return .null
    }

    // MARK: Properties

    /// A property's value for the target (the socket's get_property).
    func value(of name: String, for target: CommandTarget = .focused) throws(CommandError) -> JSONValue {
        guard let property = PropertyTable.named(name) else { throw .propertyNotFound }
        let tile = property.scope == .app ? tiles.focused : (try? resolve(target).first)
        propertyReads += 1
        return try property.get(PropertyTarget(tile: tile, controller: self))
    }

    /// A property, or a part of one as mpv addresses it: `track-list/count`,
    /// `playlist/0/filename`, `metadata/by-key/title` (a name the table has
    /// whole, `filename/no-ext`, is that property).
    func value(at path: String) throws(CommandError) -> JSONValue {
        if PropertyTable.named(path) != nil { return try value(of: path) }
        let (base, rest) = CommandController.split(path)
        var value = try value(of: base)
        for key in rest where key != "by-key" {
            switch value {
            case .array(let elements):
                if key == "count" { value = .number(Double(elements.count)); continue }
                guard let i = Int(key), elements.indices.contains(i) else { throw .propertyUnavailable }
                value = elements[i]
            case .object:
                guard let field = value[key] else { throw .propertyUnavailable }
                value = field
            default:
                throw .propertyUnavailable
            }
        }
        return value
    }

    /// A property path's value as text: mpv's `get_property_string` when
    /// `raw` ("1.500000", "yes"), else as its OSD shows it ("1.50", "00:01:05").
    func text(at path: String, raw: Bool) throws(CommandError) -> String {
        let value = try value(at: path)
        guard let property = PropertyTable.named(path) else { return raw ? value.plainTextOrJSON : value.plainText }
        return raw ? property.rawText(value) : property.shownText(value)
    }

    /// The property a path starts with, and the rest of it.
    static func split(_ path: String) -> (name: String, rest: [String]) {
        if PropertyTable.named(path) != nil { return (path, []) }
        let parts = path.split(separator: "/").map(String.init)
        return (parts.first ?? path, Array(parts.dropFirst()))
    }

    /// mpv's property expansion (`expand-text`, `show-text`, `--title`): `${NAME}` as the
    /// OSD shows it, `${=NAME}` as get_property_string gives it; "(error)"
    /// for a name there is no such property, "(unavailable)" for one without a value now.
    func expand(_ template: String) -> String {
        WindowTitle.expand(template) { name, raw in lookup(name, raw: raw) }
    }

    /// What a name in `${…}` stands for now (`raw`: `${=NAME}`).
    func lookup(_ name: String, raw: Bool) -> WindowTitle.Lookup {
        do throws(CommandError) { return .value(try text(at: name, raw: raw)) } catch {
            return error == .propertyNotFound ? .unknown : .unavailable
        }
    }

    /// Sets a property from its value now: once per tile, or once per sync
    /// group (from the group's first target) for group properties.
    private func change(_ name: String, _ target: CommandTarget, _ source: CommandSource,
                        _ next: (Property, JSONValue, PropertyTarget) throws(CommandError) -> JSONValue) throws(CommandError) {
        guard let property = PropertyTable.named(name) else { throw .propertyNotFound }
        guard let set = property.set else { throw .invalidParameter }  // read-only
        for unit in try units(property, target) {
            let leader = PropertyTarget(tile: unit.leader, controller: self, source: source)
            let current = try property.get(leader)
            let value = try next(property, current, leader)
            for member in unit.members {
                try set(PropertyTarget(tile: member, controller: self, leader: unit.leader, source: source), value)
            }
            announce(property, unit.leader, source)
        }
    }

    private func cycle(_ name: String, down: Bool, _ target: CommandTarget, _ source: CommandSource) throws(CommandError) {
        guard let property = PropertyTable.named(name) else { throw .propertyNotFound }
        if let cycle = property.cycle {
            for unit in try units(property, target) {
                try cycle(PropertyTarget(tile: unit.leader, controller: self, source: source), down)
            }
            return
        }
        try change(name, target, source) { property, current, leader throws(CommandError) in
            if let add = property.add { return try add(leader, down ? -1 : 1) }
            switch property.kind {
            case .flag: return .bool(!(try PropertyValue.flag(current)))
            case .choice(let values):
                let index = values.firstIndex(of: current.plainText) ?? (down ? 0 : values.count - 1)
                return .string(values[(index + (down ? values.count - 1 : 1)) % values.count])
            case .number: return .number(try clamp(property, try PropertyValue.number(current) + (down ? -1 : 1)))
            case .value: throw .invalidParameter
            }
        }
    }

    private func announce(_ property: Property, _ tile: Tile?, _ source: CommandSource) {
        guard source.showsOSD, let text = property.osd?(PropertyTarget(tile: tile, controller: self)) else { return }
        osd(text, seconds: 1.5, topic: property.name)
    }

    private func clamp(_ property: Property, _ value: Double) throws(CommandError) -> Double {
        guard value.isFinite else { throw .invalidParameter }
        if case .number(let range) = property.kind { return min(max(value, range.lowerBound), range.upperBound) }
        return value
    }

    // MARK: Targets

    /// The tiles a target names (none: the property or command is unavailable).
    func resolve(_ target: CommandTarget) throws(CommandError) -> [Tile] {
        switch target {
        case .focused:
            guard let tile = tiles.focused else { throw .propertyUnavailable }
            return [tile]
        case .all:
            guard !tiles.isEmpty else { throw .propertyUnavailable }
            return tiles.tiles
        case .tile(let tile):
            return [tile]
        case .newTile:
            throw .propertyUnavailable
        }
    }

    /// The target's tiles gathered by sync group, each group led by the
    /// first of its tiles the target named.
    private func groups(_ target: CommandTarget) throws(CommandError) -> [(leader: Tile, members: [Tile])] {
        var units: [(leader: Tile, members: [Tile])] = []
        for tile in try resolve(target) where !units.contains(where: { $0.members.contains { $0 === tile } }) {
            units.append((tile, tiles.group(of: tile)))
        }
        return units
    }

    private func units(_ property: Property, _ target: CommandTarget) throws(CommandError) -> [(leader: Tile?, members: [Tile?])] {
        switch property.scope {
        case .app: return [(tiles.focused, [tiles.focused])]
        case .tile: return try resolve(target).map { ($0, [$0]) }
        case .group: return try groups(target).map { ($0.leader, $0.members) }
        }
    }

    /// The tile at `index`, else the target's.
    func tile(_ index: Int?, _ target: CommandTarget) throws(CommandError) -> Tile {
        if let index {
            guard tiles.tiles.indices.contains(index) else { throw .invalidParameter }
            return tiles.tiles[index]
        }
        guard let tile = try resolve(target).first else { throw .propertyUnavailable }
        return tile
    }

    /// The mini window a restore or close without an index means: the
    /// target tile's, else the one opened last.
    func pipTarget(_ target: CommandTarget, _ pips: PiPManager) -> Tile? {
        if case .tile(let tile) = target { return tile }
        return pips.lastOpened
    }

    // MARK: Transport

    /// Seeks each sync group to one position, worked out from its leader.
    private func seek(_ amount: Double, _ mode: Command.SeekMode, keyframes: Bool, _ target: CommandTarget) throws(CommandError) {
        for unit in try groups(target) {
            let player = unit.leader.player
            if player.currentItem?.info?.isLive == true {
                // A camera's or a live stream's past is not kept: nothing to seek to.
                PlayerApp.printError("seek: a live source cannot seek")
                osd("A live source cannot seek", seconds: 2)
                throw .commandFailed
            }
            let now = player.currentTime.seconds
            let duration = player.currentItem?.duration?.seconds
            let position: Double
            switch mode {
            case .relative: position = now + amount
            case .absolute: position = amount < 0 ? (duration ?? 0) + amount : amount
            case .absolutePercent, .relativePercent:
                guard let duration else { throw .propertyUnavailable }
                let base = mode == .relativePercent ? now : 0
                position = base + duration * min(max(amount, -100), 100) / 100
            }
            for member in unit.members { member.player.seek(to: MediaTime(seconds: max(0, position)), keyframes: keyframes) }
        }
    }
}
