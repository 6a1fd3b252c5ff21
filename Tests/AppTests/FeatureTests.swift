// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Playback
import TestSupport

/// The features in-process against a screen of the test's own (CommandTests'
/// `RecordingScreen`, no SDL): an `AppCore` made with it, every feature that
/// needs no SDL window, and a turn of the loop as far as they go, on real
/// players decoding real files. What a feature decides (the title, the
/// screen saver held off, observers told) is checked here; ScreenTests keep
/// what needs pixels or the X server.
@Suite struct FeatureTests {
    /// `CommandTests.Rig`'s tiles with the features around them.
    final class FeatureRig {
        let rig: CommandTests.Rig
        let core: AppCore
        let features: [any AppFeature]
        var screen: CommandTests.RecordingScreen { rig.screen }

        init(_ files: [String], arguments: [String] = []) throws {
            rig = try CommandTests.Rig(files, arguments: arguments)
            let core = AppCore(options: rig.options, tiles: rig.tiles, controller: rig.controller, screen: rig.screen)
            self.core = core
            // MPRIS left out: it would take a name on the session bus the test runs beside.
            features = FeatureRegistry.features.filter { ObjectIdentifier($0) != ObjectIdentifier(MPRISFeature.self) }
                .compactMap { $0.init(core) }
        }

        deinit { for feature in features { feature.finish(core) } }

        /// One turn of the loop without the window's drawing: the players
        /// tick and their events are taken, then each feature's prepare,
        /// update and announce, in the registry's order.
        func turn() {
            let now = HostTime.now()
            for tile in rig.tiles.tiles {
                tile.player.tick(at: now)
                _ = tile.playlist.takeEvents()
            }
            for feature in features { feature.prepare(core, at: now) }
            for feature in features { feature.update(core, at: now) }
            for feature in features { feature.announce(core, at: now) }
        }

        func apply(_ text: String) throws { try rig.apply(text) }
    }

    /// The window title is the media title (the title tag, else the file's
    /// name) and the app's name, and follows what plays: a file loaded is
    /// named by its tag once it has opened (its player's event marks the
    /// change). Moved from ScreenTests' cover test and IdleWindowTests,
    /// which read it from the X server.
    @Test func theTitleIsTheTitleTagAndFollowsTheFile() throws {
        let media = try #require(TaggedMedia.shared, "could not make the test media with ffmpeg")
        let features = try FeatureRig([Fixtures.asset("demo.mp4")])
        features.turn()
        #expect(features.screen.title == "demo.mp4 - DeskPlayer")
        try features.apply("loadfile \(media.mp3)")
        #expect(eventually { features.turn(); return features.screen.title == "Song Title - DeskPlayer" },
                "title '\(features.screen.title)'")
    }

    /// The screen saver is held off while a video plays in sight, allowed
    /// while it is paused, while the window is minimized, and for sound
    /// alone. Moved from IdleWindowTests.
    @Test func theScreenSaverIsHeldOffOnlyWhileAVideoPlaysInSight() throws {
        let features = try FeatureRig([Fixtures.asset("demo.mp4")])
        features.turn()
        #expect(!features.screen.holdsOffScreenSaver, "paused")
        try features.apply("set pause no")
        features.turn()
        #expect(features.screen.holdsOffScreenSaver, "playing")
        features.screen.isMinimized = true
        features.turn()
        #expect(!features.screen.holdsOffScreenSaver, "minimized")
        features.screen.isMinimized = false
        features.turn()
        #expect(features.screen.holdsOffScreenSaver, "shown again")
        try features.apply("set pause yes")
        features.turn()
        #expect(!features.screen.holdsOffScreenSaver, "paused again")
        try features.apply("set pause no")
        try features.apply("loadfile \(Fixtures.asset("tone.wav"))")
        #expect(eventually {
            features.turn()
            return features.rig.players.first?.currentItem?.info != nil && !features.screen.holdsOffScreenSaver
        }, "sound alone: nothing to watch")
    }

    /// Every feature's turn with observers on properties that do not
    /// change reads no property (`PropertyChanges`); a change still reaches
    /// the observer and the title.
    @Test func aTurnOfEveryFeatureReadsNothingUnchanged() throws {
        let features = try FeatureRig([Fixtures.asset("demo.mp4")])
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ipc.sock").path
        features.core.socket = try ControlSocket(path: path, arrived: {})
        defer { features.core.socket = nil }
        let client = try ControlSocketTests.Client(path: path)
        let names = PropertyChangesTests.unchanging
        for (id, name) in names.enumerated() { client.sendLine(#"{"command":["observe_property",\#(id),"\#(name)"]}"#) }
        #expect(eventually { features.turn(); return features.core.socket?.observationCount == names.count })
        var first = 0
        while first < names.count, let message = client.readMessage() {
            if message["event"] == .string("property-change") { first += 1 }
        }
        #expect(first == names.count, "each observation's first value")
        // The player at rest (its first picture shown, nothing on its way):
        // from here on nothing changes.
        let player = try #require(features.rig.players.first)
        #expect(eventually { features.turn(); return player.isAtRest }, "the paused player never came to rest")

        let controller = features.rig.controller
        let before = controller.propertyReads
        for _ in 0..<20 { features.turn() }
        #expect(controller.propertyReads == before, "\(controller.propertyReads - before) getters ran in 20 turns")

        try features.apply("set mute yes")
        features.turn()
        var heard = false
        while !heard, let message = client.readMessage() {
            heard = message["event"] == .string("property-change") && message["name"] == .string("mute")
                && message["data"] == .bool(true)
        }
        #expect(heard, "the observer of mute heard it")
    }

    /// A feature's commands, keys and menu items come from its folder: the
    /// command table learns them from the registry, they parse to
    /// `Command.feature` and run in the feature's handler.
    @Test func aFeaturesCommandsKeysAndMenuItemsAreItsOwn() throws {
        let features = try FeatureRig([Fixtures.asset("demo.mp4")])
        let names = Set(FeatureRegistry.commands.keys)
        #expect(names.isSuperset(of: ["compare-align", "compare-step", "record", "camera", "compare-takes", "pip-start", "pip-restore"]))
        #expect(CommandSpec.all.allSatisfy { !names.contains($0.name) }, "a feature's command is not in the table's own list")
        guard case .array(let list) = CommandSpec.commandList else { Issue.record("command-list is no list"); return }
        let listed = Set(list.compactMap { $0["name"]?.string })
        #expect(listed.isSuperset(of: names), "command-list has every feature's command")

        // Read by the feature's spec, written back as input.conf writes it.
        let step = try Command(parsing: "compare-step b -2")
        #expect(step == .feature(.init(name: "compare-step", arguments: [.string("B"), .number(-2)])))
        #expect(step.text == "compare-step B -2")
        #expect(try Command(parsing: step.text) == step)
        #expect(throws: CommandError.invalidParameter) { try Command(parsing: "compare-step C") }
        #expect(throws: CommandError.invalidParameter) { try Command(parsing: "compare-export-frames /tmp 0") }
        #expect(throws: CommandError.invalidParameter) { try Command(parsing: "pip-start x") }

        // Run by the feature's handler: it answers as the feature would.
        #expect(throws: CommandError.propertyUnavailable, "no comparison to mark") { try features.apply("compare-mark") }
        #expect(throws: CommandError.commandFailed, "no display for a mini window") { try features.apply("pip-start") }
        #expect(throws: CommandError.propertyUnavailable, "no mini window to restore") { try features.apply("pip-restore") }

        // Their keys follow the table's and show in the help overlay.
        let keys = FeatureRegistry.keyBindings
        #expect(KeyBindings.command(forKey: "R", in: keys) == .record)
        #expect(KeyBindings.command(forKey: "Ctrl+p", in: keys) == .pipStart(nil))
        #expect(KeyBindings.command(forKey: "ESC", in: keys, section: .pip) == .pipRestore(nil))
        #expect(KeyBindings.helpLines(keys).contains { $0.help == "record the camera: start / stop (then the take plays)" })

        // Their menu items sit where they name: comparing's submenu after
        // Loop's, before the separator over Picture in Picture.
        let paths = FeatureRegistry.menuTable.map { $0.path.joined(separator: " > ") }
        let loop = try #require(paths.lastIndex { $0.hasPrefix("Loop") })
        let compare = try #require(paths.firstIndex { $0.hasPrefix("Compare") })
        let pip = try #require(paths.firstIndex(of: "Picture in Picture"))
        #expect(loop + 1 == compare && compare < pip)
        let videos = try #require(paths.firstIndex(of: "Videos…"))
        #expect(paths[videos + 1] == "Take video…")
        #expect(paths.contains("Record the camera / stop (R)"))
    }
}
