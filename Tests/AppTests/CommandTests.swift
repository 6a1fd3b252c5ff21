// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Playback
@testable import UI
import TestSupport

/// Commands and properties applied in-process to real players decoding real
/// files, without SDL (as mpv's libmpv tests drive a player with no video
/// output): the one command path every source goes through.
@Suite struct CommandTests {
    /// The window's part, recorded: what the OSD said, the tiles shown.
    final class RecordingScreen: PlayerScreen {
        var messages: [(text: String, topic: String?)] = []
        var shown: (count: Int, focused: Int) = (0, 0)
        var isFullscreen = false
        var showsHelp = false
        var helpLines: [(keys: String, help: String)] = []
        var list: ListOverlay?
        var menuItems: [MenuItem]?
        var menu: ContextMenu? { nil }
        var title = ""
        var pointerVisible = true
        var holdsOffScreenSaver = false
        var isMinimized = false
        var presents = 0
        var isSettled = true
        var unsettledBy: String?
        var showsThumbnails = true
        var showsPlaylistPanel = false
        var uiScale = 1.0
        func show(_ views: [PlayerView], focused: Int) { shown = (views.count, focused) }
        func showMessage(_ message: String, seconds: Double, topic: String?) {
            if let topic { messages.removeAll { $0.topic == topic } }
            messages.append((message, topic))
        }
        func setTitle(_ title: String) { self.title = title }
        func raise() {}
        func capture() throws(MediaError) -> PictureBuffer { throw MediaError("no window in this test") }
    }

    /// Tiles playing `files` (the first `synced` of them in a sync group),
    /// opened and past their first refresh.
    struct Rig {
        let options: DeskPlayerCommand
        let tiles: TileSet
        let controller: CommandController
        let screen = RecordingScreen()

        init(_ files: [String], synced: Int = 0, arguments: [String] = []) throws {
            options = try DeskPlayerCommand.parse(files + arguments + ["--no-config", "--no-resume"])
            tiles = TileSet(mixer: Mixer())
            let factory = TileFactory(options: options)
            controller = CommandController(tiles: tiles, factory: factory, screenshots: Screenshots(directory: "/nonexistent"))
            controller.screen = screen
            tiles.screen = screen
            let made = files.map { factory.tile([$0]) }
            for tile in made { tiles.add(tile, paused: true) }
            if synced > 1 { tiles.synchronize(Array(made.prefix(synced))) }
            for tile in made {
                #expect(tile.player.currentItem?.waitUntilLoaded() == .readyToPlay)
                _ = tile.player.update(at: HostTime.now())
            }
        }

        var players: [Player] { tiles.tiles.map(\.player) }

        func apply(_ text: String, from source: CommandSource = .socket) throws {
            try controller.apply(try Command(parsing: text), from: source)
        }
    }

    static let files = [Fixtures.asset("demo.mp4"), Fixtures.asset("compare.mp4"), Fixtures.asset("tone.wav")]

    @Test func aSyncGroupMovesTogetherFromEverySource() throws {
        let rig = try Rig(Self.files, synced: 2)
        let (a, b, loner) = (rig.players[0], rig.players[1], rig.players[2])
        #expect(a.isPaused && b.isPaused && loner.isPaused)

        // The socket: set_property pause false reaches the whole group, not the focused tile only.
        try rig.controller.apply(.set(property: "pause", value: .bool(false)), from: .socket)
        #expect(!a.isPaused && !b.isPaused, "both synced tiles play")
        #expect(loner.isPaused, "a tile outside the group is left alone")

        // A key: SPACE is `cycle pause`, computed once for the group.
        try rig.controller.handleKey("SPACE")
        #expect(a.isPaused && b.isPaused)

        // keypress means exactly what the key means.
        try rig.controller.apply(.keypress("p"), from: .socket)
        #expect(!a.isPaused && !b.isPaused)

        // The Picture in Picture window's keys, for the player it shows (the second tile).
        try rig.controller.handleKey("SPACE", section: .pip, tile: rig.tiles.tiles[1], from: .pip)
        #expect(a.isPaused && b.isPaused, "pausing the PiP player pauses its group")

        // Seek from the second tile: both land on the same position.
        try rig.controller.apply(.seek(3, .absolute), to: .tile(rig.tiles.tiles[1]), from: .pip)
        #expect(abs(a.currentTime.seconds - 3) < 1e-6 && abs(b.currentTime.seconds - 3) < 1e-6)
        try rig.apply("seek 2")
        #expect(abs(a.currentTime.seconds - 5) < 1e-6 && abs(b.currentTime.seconds - 5) < 1e-6)
        try rig.apply("set time-pos 1.5")
        #expect(abs(b.currentTime.seconds - 1.5) < 1e-6)
        #expect(abs(loner.currentTime.seconds) < 1e-6, "the other tile did not move")

        // Frame step, from a key: each tile of the group shows its next frame.
        try rig.controller.apply(.set(property: "pause", value: .bool(false)), from: .socket)
        try rig.controller.handleKey(".")
        #expect(a.isPaused && b.isPaused)
    }

    /// `--sync a b c`, one closed: the group's commands reach only the live
    /// tiles, and when the closed one was the clock the others followed, they
    /// follow a live one's. Two closed, the last tile is on its own.
    @Test func aClosedTileLeavesItsSyncGroup() throws {
        let rig = try Rig([Self.files[0], Self.files[1], Self.files[0]], synced: 3)
        let (first, second, third) = (rig.tiles.tiles[0], rig.tiles.tiles[1], rig.tiles.tiles[2])
        try rig.apply("tile-close 0")
        #expect(rig.tiles.tiles.count == 2)
        let live = rig.tiles.group(of: second).elementsEqual([second, third]) { $0 === $1 }
        #expect(live, "the group is the two live tiles")
        #expect(second.player.syncClock == nil && third.player.syncClock === second.player.clock,
                "the group follows a live tile's clock, not the closed one's")

        try rig.controller.apply(.set(property: "pause", value: .bool(false)), from: .socket)
        #expect(!second.player.isPaused && !third.player.isPaused, "the live tiles play")
        #expect(first.player.isPaused, "the closed tile is not part of the group any more")

        try rig.apply("tile-close 1")
        let alone = rig.tiles.group(of: second).elementsEqual([second]) { $0 === $1 }
        #expect(rig.tiles.syncGroup.isEmpty && alone)
        #expect(second.player.syncClock == nil)
        try rig.controller.apply(.set(property: "pause", value: .bool(true)), from: .socket)
        #expect(second.player.isPaused && !third.player.isPaused, "the closed tile is left alone")
    }

    /// A binding that presses its own key, directly or round a loop, is
    /// refused at a bounded depth with a line on the OSD; a binding that
    /// presses another key still does what that key does.
    @Test func keypressBindingsThatLoopAreRefusedAtABoundedDepth() throws {
        let rig = try Rig([Self.files[0]])
        let player = rig.players[0]
        let conf = """
            a keypress a
            b keypress c
            c keypress b
            d keypress p
            """
        let (table, problems) = KeyBindings.applying(inputConf: conf, file: "input.conf", to: KeyBindings.defaults)
        #expect(problems.isEmpty)
        rig.controller.bindings = table

        for key in ["a", "b"] {
            #expect(throws: CommandError.commandFailed, "\(key) loops back to itself") {
                try rig.controller.apply(.keypress(key), from: .socket)
            }
            #expect(rig.screen.messages.last?.text == "Key bindings nest too deep: \(key)")
        }
        #expect(throws: CommandError.commandFailed) { try rig.controller.handleKey("a") }

        // Refusing a loop leaves the depth where it was: a short chain still works, as often as pressed.
        #expect(player.isPaused)
        for _ in 0..<(CommandController.keyNestingLimit + 1) { try rig.controller.apply(.keypress("d"), from: .socket) }
        #expect(!player.isPaused, "d presses p, which cycles pause (an odd number of times)")
    }

    @Test func propertiesAreSetAddedCycledAndRefusedAsMpvDoes() throws {
        let rig = try Rig(Array(Self.files.prefix(2)))
        let focused = rig.players[0], other = rig.players[1]
        try rig.apply("set volume 40")
        #expect(try rig.controller.value(of: "volume") == .number(40))
        #expect(other.volume == 1, "a tile property reaches the focused tile only")
        try rig.apply("add volume 75")
        #expect(focused.volume == 1, "add clamps to the range")
        try rig.apply("add volume -2", from: .key)
        #expect(rig.screen.messages.last?.text == "Volume 98 %")
        try rig.apply("add volume -2", from: .key)
        #expect(rig.screen.messages.filter { $0.topic == "volume" }.map(\.text) == ["Volume 96 %"], "one line per setting")

        // Out of range or the wrong type: mpv's errors, nothing changes.
        #expect(throws: CommandError.propertyError) { try rig.apply("set volume 150") }
        #expect(throws: CommandError.invalidParameter) { try rig.controller.apply(.set(property: "volume", value: .string("loud")), from: .socket) }
        #expect(throws: CommandError.propertyNotFound) { try rig.apply("set no-such-thing 1") }
        #expect(throws: CommandError.invalidParameter) { try rig.apply("set duration 3") }
        #expect(focused.volume == 0.96)

        try rig.apply("cycle mute")
        #expect(focused.isMuted)
        try rig.apply("cycle-values loop-file inf no")
        #expect(try rig.controller.value(of: "loop-file") == .string("inf"))
        try rig.apply("cycle-values loop-file inf no")
        #expect(try rig.controller.value(of: "loop-file") == .bool(false))
        try rig.apply("cycle content-mode")
        #expect(try rig.controller.value(of: "content-mode") == .string("fill"))
        try rig.apply("cycle content-mode down")
        #expect(try rig.controller.value(of: "content-mode") == .string("fit"))

        // Ctrl+key: the key's command for every tile.
        try rig.controller.handleKey("Ctrl+m")
        #expect(other.isMuted && !focused.isMuted, "each tile flips its own")

        // Focus moves what properties read.
        try rig.apply("tile-focus next")
        #expect(try rig.controller.value(of: "path") == .string(Self.files[1]))
        #expect(rig.screen.shown == (2, 1))
        #expect(throws: CommandError.invalidParameter) { try rig.apply("tile-focus 9") }

        // App properties need no tile.
        try rig.apply("cycle fullscreen")
        #expect(rig.screen.isFullscreen)
        #expect(try rig.controller.value(of: "property-list").text.contains("\"time-pos\""))
    }

    @Test func playlistCommandsAndPositionsFollowTheQueue() throws {
        let rig = try Rig([Self.files[2]])
        try rig.apply("loadfile \(Self.files[0]) append")
        try rig.apply("loadfile \(Self.files[1]) append")
        #expect(try rig.controller.value(of: "playlist-count") == .number(3))
        try rig.apply("set playlist-pos 2")
        #expect(try rig.controller.value(of: "path") == .string(Self.files[1]))
        #expect(try rig.controller.value(of: "playlist-pos") == .number(2))
        try rig.apply("playlist-prev")
        #expect(try rig.controller.value(of: "path") == .string(Self.files[0]))
        #expect(throws: CommandError.propertyError) { try rig.apply("set playlist-pos 7") }
        try rig.apply("tile-close")
        #expect(rig.tiles.isEmpty && rig.screen.shown.count == 0)
        #expect(try rig.controller.value(of: "idle-active") == .bool(true))
        #expect(throws: CommandError.propertyUnavailable) { try rig.controller.value(of: "pause") }
        try rig.apply("loadfile \(Self.files[2])")
        #expect(rig.tiles.tiles.count == 1, "loadfile with no tile left opens one")
    }

    /// `show-text` expands properties as mpv does (scripts send
    /// `show-text '${filename}'`): the OSD shows the values, in both the
    /// input.conf form and the socket's JSON array form, with the nesting
    /// bound `expand-text` has.
    @Test func showTextExpandsPropertiesOnTheOSD() throws {
        let rig = try Rig([Self.files[0]])
        try rig.apply("show-text '${filename}'")
        #expect(rig.screen.messages.last?.text == "demo.mp4")
        try rig.controller.apply(try CommandSpec.parse([.string("show-text"), .string("${?pause==yes:paused}${!pause==yes:playing} ${=volume} $$5 ${nothing}"), .number(500)]), from: .socket)
        #expect(rig.screen.messages.last?.text == "paused 100.000000 $5 (error)")
        try rig.apply("set pause no")
        try rig.apply("show-text '${?pause==yes:paused}${!pause==yes:playing}'")
        #expect(rig.screen.messages.last?.text == "playing")
        // A field nested past the bound expands to nothing rather than recursing on.
        let deep = String(repeating: "${?pause==no:", count: WindowTitle.nestingLimit + 4) + "x" + String(repeating: "}", count: WindowTitle.nestingLimit + 4)
        try rig.controller.apply(try CommandSpec.parse([.string("show-text"), .string(deep)]), from: .socket)
        #expect(rig.screen.messages.last?.text == "")
        #expect(try rig.controller.apply(.expandText(deep), from: .socket) == .string(""), "the same as expand-text")
        // input.conf's single quotes, as mpv's: they open a word, nothing is escaped inside; an apostrophe in a word is a letter.
        #expect(try Command(parsing: #"show-text 'a "b" \c' 500"#) == .showText(#"a "b" \c"#, seconds: 0.5))
        #expect(try Command(parsing: "show-text don't") == .showText("don't", seconds: nil))
        let leading = Command.showText("'quoted", seconds: nil)
        #expect(try Command(parsing: leading.text) == leading, "a leading apostrophe survives the round trip")
    }

    /// Strings as socket clients send them, read by each property's type;
    /// values printed back in mpv's forms; playlist verbs on a real queue.
    @Test func stringsAndMpvFormsFollowThePropertysType() throws {
        let rig = try Rig([Self.files[0]])
        try rig.apply("loadfile \(Self.files[1]) append")
        try rig.apply("loadfile \(Self.files[2]) append")
        let c = rig.controller
        try c.apply(.set(property: "speed", value: .string("1.5")), from: .socket)
        #expect(try c.text(at: "speed", raw: true) == "1.500000" && c.text(at: "speed", raw: false) == "1.50")
        try c.apply(.set(property: "time-pos", value: .string("0:04")), from: .socket)
        #expect(try c.text(at: "time-pos", raw: false) == "00:00:04")
        #expect(try c.text(at: "playlist-pos", raw: true) == "0" && c.text(at: "pause", raw: true) == "yes")
        #expect(c.expand("${filename/no-ext} ${playlist-pos-1}/${playlist-count} ${=volume} ${nothing}") == "demo 1/3 100.000000 (error)")
        #expect(throws: CommandError.invalidParameter) { try c.apply(.set(property: "speed", value: .string("fast")), from: .socket) }

        // cycle-values compares by meaning: loop-file reads back "inf" after "yes".
        try rig.apply("cycle-values loop-file yes no")
        #expect(try c.value(of: "loop-file") == .string("inf"))
        try rig.apply("cycle-values loop-file yes no")
        #expect(try c.value(of: "loop-file") == .bool(false))

        // Seek flags joined or apart; an unknown one is refused.
        #expect(try Command(parsing: "seek 10 absolute exact") == .seek(10, .absolute))
        #expect(try Command(parsing: "seek 50 absolute-percent+keyframes") == .seek(50, .absolutePercent, keyframes: true))
        #expect(throws: CommandError.invalidParameter) { try Command(parsing: "seek 10 sideways") }

        // The playlist: [demo, compare, tone], demo playing.
        func names() throws -> [String] {
            guard case .array(let entries) = try c.value(of: "playlist") else { return [] }
            return entries.compactMap { $0["filename"]?.string.map { ($0 as NSString).lastPathComponent } }
        }
        try rig.apply("playlist-move 2 0")
        #expect(try names() == ["tone.wav", "demo.mp4", "compare.mp4"] && c.value(of: "playlist-pos") == .number(1))
        try rig.apply("playlist-remove 0")
        #expect(try names() == ["demo.mp4", "compare.mp4"] && c.value(of: "playlist-pos") == .number(0))
        try rig.apply("playlist-next")
        #expect(throws: CommandError.commandFailed) { try rig.apply("playlist-next weak") }
        #expect(try c.value(of: "path") == .string(Self.files[1]), "a weak next at the end changes nothing")
        try rig.apply("playlist-clear")
        #expect(try names() == ["compare.mp4"])
        try rig.apply("stop")
        #expect(try c.value(of: "idle-active") == .bool(true) && c.value(of: "playlist-count") == .number(0))

        // loadfile's options: where it starts, and properties set as it starts.
        try rig.apply("loadfile \(Self.files[0]) replace start=3,speed=2")
        #expect(try c.value(of: "speed") == .number(2))
        #expect(throws: CommandError.invalidParameter) { try rig.apply("loadfile \(Self.files[0]) replace no-such-option=1") }
        let item = try #require(rig.tiles.focused?.player.currentItem)
        #expect(item.startTime.seconds == 3 && item.waitUntilLoaded() == .readyToPlay)
        // start=N% as mpv's: that share of the length, known once the file is open.
        try rig.apply("loadfile \(Self.files[0]) replace start=40%")
        let later = try #require(rig.tiles.focused?.player.currentItem)
        #expect(later.waitUntilLoaded() == .readyToPlay)
        let length = try #require(later.info?.duration?.seconds)
        #expect(abs(later.startTime.seconds - length * 0.4) < 0.001)
    }
}
