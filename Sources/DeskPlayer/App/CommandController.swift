import Control
import Foundation
import Media
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
    /// Picture in Picture windows (nil headless: there is no display to open them on).
    var pips: PiPManager?
    /// Files dialogs, the built-in browser, recent files.
    var opener: MediaOpener?
    weak var screen: (any PlayerScreen)? {
        didSet { screen?.helpLines = KeyBindings.helpLines(bindings) }
    }
    /// The key binding table (defaults, then input.conf).
    var bindings = KeyBindings.defaults {
        didSet { screen?.helpLines = KeyBindings.helpLines(bindings) }
    }
    let screenshots: Screenshots
    private(set) var quitRequested = false

    init(tiles: TileSet, factory: TileFactory, screenshots: Screenshots) {
        self.tiles = tiles
        self.factory = factory
        self.screenshots = screenshots
    }

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
        if let command = KeyBindings.command(forKey: key, in: bindings, section: section) {
            try apply(command, to: tile.map { .tile($0) } ?? .focused, from: source)
        } else if key.hasPrefix("Ctrl+"),
                  let command = KeyBindings.command(forKey: String(key.dropFirst(5)), in: bindings, section: section) {
            try apply(command, to: .all, from: source)
        }
    }

    // MARK: Commands

    /// Applies `command`; returns what the socket replies with as `data`.
    @discardableResult
    func apply(_ command: Command, to target: CommandTarget = .focused, from source: CommandSource) throws(CommandError) -> JSONValue {
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
            try change(name, target, source) { _, current, _ throws(CommandError) in
                let index = values.firstIndex(of: current.plainText).map { ($0 + 1) % values.count } ?? 0
                return .string(values[index])
            }
        case .seek(let amount, let mode):
            try seek(amount, mode, target)
        case .frameStep:
            for tile in try groups(target).flatMap(\.members) { tile.player.stepFrame() }
        case .frameBackStep:
            // The leader shows its previous frame; the others the frame due then on the group clock.
            for unit in try groups(target) {
                guard let time = unit.leader.player.stepBack() else { continue }
                for member in unit.members where member !== unit.leader { member.player.showFrame(at: time) }
            }
        case .abLoop:
            for tile in try resolve(target) { osd(tile.player.cycleABLoop(), seconds: 2, topic: "ab-loop") }
        case .playlistNext, .playlistPrev:
            // The pause state carries over, as in mpv.
            for tile in try resolve(target) {
                command == .playlistNext ? tile.playlist.advanceToNextItem() : tile.playlist.playPrevious()
                tile.ended = false
            }
        case .loadfile(let path, let mode):
            load(path, mode: mode, in: try? resolve(target).first)
        case .subAdd(let path):
            guard let item = try resolve(target).first?.player.currentItem else { throw .propertyUnavailable }
            item.addSubtitleFile(path)
            osd("Loading subtitles: \((path as NSString).lastPathComponent)", seconds: 2)
        case .screenshot(let kind):
            try screenshot(kind, target)
        case .screenshotToFile(let path, let kind):
            try screenshot(kind, target, to: URL(fileURLWithPath: path))
        case .showText(let text, let seconds):
            osd(text, seconds: seconds ?? 3)
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
        case .pipStart(let index):
            guard let pips else { throw .commandFailed }
            try pips.start(try tile(index, target))
        case .pipRestore(let index), .pipClose(let index):
            guard let pips, let tile = index != nil ? try tile(index, target) : pipTarget(target, pips), tile.isInPiP
            else { throw .propertyUnavailable }
            if case .pipRestore = command { pips.restore(tile) } else { pips.close(tile) }
        case .help:
            screen?.showsHelp.toggle()
        case .openFiles:
            opener?.openFiles()
        case .recentFiles:
            opener?.showRecentFiles()
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
        return try property.get(PropertyTarget(tile: tile, controller: self))
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
    private func resolve(_ target: CommandTarget) throws(CommandError) -> [Tile] {
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
    private func tile(_ index: Int?, _ target: CommandTarget) throws(CommandError) -> Tile {
        if let index {
            guard tiles.tiles.indices.contains(index) else { throw .invalidParameter }
            return tiles.tiles[index]
        }
        guard let tile = try resolve(target).first else { throw .propertyUnavailable }
        return tile
    }

    /// The mini window a restore or close without an index means: the
    /// target tile's, else the one opened last.
    private func pipTarget(_ target: CommandTarget, _ pips: PiPManager) -> Tile? {
        if case .tile(let tile) = target { return tile }
        return pips.lastOpened
    }

    // MARK: Transport

    /// Seeks each sync group to one position, worked out from its leader.
    private func seek(_ amount: Double, _ mode: Command.SeekMode, _ target: CommandTarget) throws(CommandError) {
        for unit in try groups(target) {
            let player = unit.leader.player
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
            for member in unit.members { member.player.seek(to: MediaTime(seconds: max(0, position))) }
        }
    }

    // MARK: Files

    /// Plays `path` in `tile` now (its queue's current item is replaced).
    private func play(_ path: String, in tile: Tile) {
        tile.playlist.replaceCurrentItem(with: factory.item(path))
        tile.ended = false
        tile.player.play()
    }

    /// `loadfile`: replace plays the file now in `tile` (a new tile when
    /// there is none); append adds it to that tile's queue.
    func load(_ path: String, mode: Command.LoadMode = .replace, in tile: Tile?) {
        guard let tile else {
            tiles.add(factory.tile([path]), focus: true)
            return
        }
        switch mode {
        case .replace:
            play(path, in: tile)
        case .append, .appendPlay:
            tile.playlist.insert(factory.item(path), after: nil)
            if mode == .appendPlay && tile.ended {
                tile.ended = false
                tile.player.play()
            }
        }
    }

    /// `s`/`S` take the picture in the background and say where it went;
    /// `screenshot-to-file` writes it before replying.
    private func screenshot(_ kind: Command.ScreenshotKind, _ target: CommandTarget, to url: URL? = nil) throws(CommandError) {
        if kind == .window {
            guard let screen else { throw .commandFailed }
            guard let url else { return screenshots.takeWindow(screen) }
            do { try Screenshots.writeWindow(screen, to: url) } catch { return try failed("screenshot", error) }
            return
        }
        let player = try resolve(target)[0].player
        guard let item = player.currentItem, item.info?.hasVideo == true else {
            if url == nil { osd("No video to take a screenshot of", seconds: 2) }
            throw .propertyUnavailable
        }
        let time = MediaTime(seconds: player.shownFrameInterval?.start ?? player.currentTime.seconds)
        // Filtered as it plays: turned upright, deinterlaced as the player does now.
        var settings = item.preferences.video
        settings.deinterlace = player.deinterlace
        guard let url else { return screenshots.takeVideo(item.name, at: time, settings: settings) }
        do { try Screenshots.writeVideo(item.name, at: time, settings: settings, to: url) } catch { try failed("screenshot", error) }
    }

    /// A command that could not be carried out: one line on stderr, mpv's error to the caller.
    private func failed(_ what: String, _ error: MediaError) throws(CommandError) {
        PlayerApp.printError("\(what): \(error)")
        throw .commandFailed
    }

    /// Remembers where each tile's file is (mpv's watch later). A file near
    /// its end is forgotten instead: next time it starts over.
    func saveResumePositions() {
        var store = ResumeStore()
        _ = store.load()  // another player's entries stay
        for tile in tiles.tiles {
            guard let item = tile.player.currentItem, item.composition == nil else { continue }
            let position = tile.player.currentTime.seconds
            let nearEnd = item.duration.map { position > $0.seconds - 1 } ?? false
            store.set(nearEnd ? nil : position, for: item.name)
        }
        do { try store.save() } catch {
            PlayerApp.printError("\(error)")
            osd("\(error)")
        }
    }
}
