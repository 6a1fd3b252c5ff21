// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Playback
@testable import UI
import TestSupport

/// The desktop parts without a window: the playlist panel's commands and
/// gestures, the UI scale's sources, and what is remembered between runs.
@Suite struct PlaylistPanelTests {
    static let files = CommandTests.files
    static let oneX = UIScale(factor: 1, source: "test")

    /// playlist-play-index plays an entry of the queue; playlist-panel
    /// toggles the panel through its property (F8 is bound to it); the
    /// panel's entries follow the queue whatever moved it.
    @Test func thePanelsCommandsGoThroughTheCommandPath() throws {
        let rig = try CommandTests.Rig([Self.files[2]])
        try rig.apply("loadfile \(Self.files[0]) append")
        try rig.apply("loadfile \(Self.files[1]) append")
        try rig.apply("playlist-play-index 2")
        #expect(try rig.controller.value(of: "path") == .string(Self.files[1]))
        #expect(try rig.controller.value(of: "playlist-pos") == .number(2))
        #expect(throws: CommandError.invalidParameter) { try rig.apply("playlist-play-index 9") }
        #expect(throws: CommandError.invalidParameter) { try rig.apply("playlist-play-index -1") }
        #expect(try Command(parsing: "playlist-play-index 1").text == "playlist-play-index 1")

        #expect(try rig.controller.value(of: "playlist-panel") == .bool(false))
        try rig.apply("playlist-panel")
        #expect(rig.screen.showsPlaylistPanel)
        #expect(try rig.controller.value(of: "playlist-panel") == .bool(true))
        try rig.controller.handleKey("F8")
        #expect(!rig.screen.showsPlaylistPanel, "F8 hides it again")
        try rig.apply("set playlist-panel yes")
        #expect(rig.screen.showsPlaylistPanel)
        #expect(try rig.controller.value(of: "ui-scale") == .number(1))

        // What the panel lists: the queue in order, the current entry marked.
        #expect(rig.tiles.focused?.player.currentItem?.waitUntilLoaded() == .readyToPlay)
        var entries = PlayerApp.panelEntries(of: rig.tiles.focused)
        #expect(entries.map(\.name) == [Self.files[2], Self.files[0], Self.files[1]])
        #expect(entries.map(\.isCurrent) == [false, false, true])
        #expect(entries[2].duration == 8, "an opened item's duration")
        try rig.apply("playlist-move 2 0")
        entries = PlayerApp.panelEntries(of: rig.tiles.focused)
        #expect(entries.map(\.name) == [Self.files[1], Self.files[2], Self.files[0]])
        #expect(entries.map(\.isCurrent) == [true, false, false])
        // The panel's and the bar's requests are the commands keys and the socket use.
        #expect(PlayerApp.command(for: PlaylistPanel.Action.move(from: 1, to: 3)) == .playlistMove(from: 1, to: 3))
        #expect(PlayerApp.command(for: PlaylistPanel.Action.append("/a.mp4")) == .loadfile("/a.mp4", .appendPlay))
        #expect(PlayerApp.command(for: BarButton.next) == .playlistNext(force: false))
        #expect(PlayerApp.command(for: BarButton.fullscreen) == .cycle(property: "fullscreen", down: false))
    }

    /// A click on a row plays it; a drag past half a row moves it (before
    /// the row it is let go over); a drag back to where it was does
    /// nothing; the row's ✕, the close button and Delete say so.
    @Test func thePanelsGesturesBecomeActions() {
        let panel = PlaylistPanel()
        panel.entries = (0..<5).map { PlaylistPanel.Entry(name: "/f\($0).mp4", title: nil, duration: 10, isCurrent: $0 == 0) }
        let bounds = Rect(x: 0, y: 0, width: 1280, height: 720)
        let g = panel.geometry(bounds, scale: Self.oneX)
        #expect(g.panel.x == 1280 - 380 && g.panel.width == 380)
        let x = g.panel.x + 100
        func y(_ row: Int, _ offset: Int = 0) -> Int { g.firstRowY + row * g.rowHeight + g.rowHeight / 2 + offset }

        #expect(panel.press(x: x, y: y(2), in: bounds, scale: Self.oneX) == nil)
        #expect(panel.release(x: x, y: y(2, 3), in: bounds, scale: Self.oneX) == .play(2), "a click plays")

        _ = panel.press(x: x, y: y(0), in: bounds, scale: Self.oneX)
        panel.motion(x: x, y: y(1), in: bounds, scale: Self.oneX)
        panel.motion(x: x, y: y(3, 20), in: bounds, scale: Self.oneX)
        #expect(panel.release(x: x, y: y(3, 20), in: bounds, scale: Self.oneX) == .move(from: 0, to: 4), "below row 3's middle: before 4")

        _ = panel.press(x: x, y: y(3), in: bounds, scale: Self.oneX)
        panel.motion(x: x, y: y(0, -20), in: bounds, scale: Self.oneX)
        #expect(panel.release(x: x, y: y(0, -20), in: bounds, scale: Self.oneX) == .move(from: 3, to: 0))

        _ = panel.press(x: x, y: y(1), in: bounds, scale: Self.oneX)
        panel.motion(x: x, y: y(1, 20), in: bounds, scale: Self.oneX)
        #expect(panel.release(x: x, y: y(1, 20), in: bounds, scale: Self.oneX) == nil, "back where it was")

        let remove = panel.removeButton(4, g, scale: Self.oneX)
        #expect(panel.press(x: remove.x + 5, y: remove.y + 5, in: bounds, scale: Self.oneX) == .remove(4))
        #expect(panel.press(x: g.close.x + 5, y: g.close.y + 5, in: bounds, scale: Self.oneX) == .close)
        panel.motion(x: x, y: y(3), in: bounds, scale: Self.oneX)
        #expect(panel.deleteKey() == .remove(3), "Delete: the row under the pointer")
        panel.pointerLeft()
        #expect(panel.deleteKey() == .remove(1), "else the row last clicked")
        #expect(panel.press(x: g.panel.x - 10, y: y(0), in: bounds, scale: Self.oneX) == nil)
        // Twice the scale: twice the width, and the rows twice as tall.
        let double = panel.geometry(Rect(x: 0, y: 0, width: 3840, height: 2160), scale: UIScale(factor: 2, source: "test"))
        #expect(double.panel.width == 760 && double.rowHeight == 2 * g.rowHeight)
    }

    /// The UI scale: Xft.dpi read from the resource database's text, a DPI
    /// turned into quarter steps (never below 1), --ui-scale's bounds.
    @Test func theScaleComesFromXftDPIInQuarterSteps() throws {
        #expect(UIScale.xftDPI(in: "Xft.antialias:\t1\nXft.dpi:\t192\nXft.hinting:\t1\n") == 192)
        #expect(UIScale.xftDPI(in: "Xft.dpi: 144") == 144)
        #expect(UIScale.xftDPI(in: "Xcursor.size: 48\n") == nil)
        #expect(UIScale.xftDPI(in: "Xft.dpi:\tlots\n") == nil)
        #expect(UIScale.xftDPI(in: "Xft.dpi:\t1e9\n") == nil)
        #expect(UIScale.factor(dpi: 96) == 1 && UIScale.factor(dpi: 192) == 2 && UIScale.factor(dpi: 144) == 1.5)
        #expect(UIScale.factor(dpi: 100) == 1 && UIScale.factor(dpi: 72) == 1 && UIScale.factor(dpi: 163) == 1.75)
        #expect(UIScale.factor(dpi: 1000) == 4 && UIScale.factor(dpi: .nan) == 1)
        #expect(UIScale(factor: 2, source: "test")(40) == 80 && UIScale(factor: 1.5, source: "test")(28) == 42)
        #expect(try DeskPlayerCommand.parse(["--ui-scale", "2", "x.mp4"]).uiScale == 2)
        #expect(throws: (any Error).self) { try DeskPlayerCommand.parse(["--ui-scale", "9", "x.mp4"]) }
    }

    /// The state file: missing is nothing; a file that is not ours to
    /// trust (not JSON, too large, not a regular file) is nothing and one
    /// line; values outside their ranges are left out; a save reads back.
    @Test func theRememberedStateIsReadWithBounds() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("deskplayer/remembered.json")
        #expect(RememberedState.load(from: url) == (RememberedState(), nil))

        let state = RememberedState(volume: 35, mute: true, window: .init(width: 800, height: 450, x: 10, y: 20))
        try state.save(to: url)
        #expect(RememberedState.load(from: url).state == state)
        #expect(RememberedState.defaultURL(["XDG_STATE_HOME": "/tmp/s"]).path == "/tmp/s/deskplayer/remembered.json")
        #expect(RememberedState.defaultURL(["HOME": "/home/u"]).path == "/home/u/.local/state/deskplayer/remembered.json")

        try Data(#"{"volume": 1e300, "mute": false, "extra": [1], "window": {"width": 99999999, "height": 10, "x": 0, "y": 0}}"#.utf8).write(to: url)
        #expect(RememberedState.load(from: url) == (RememberedState(volume: nil, mute: false, window: nil), nil))

        for (bytes, says) in [(Data("volume=40".utf8), "not a DeskPlayer state file"),
                              (Data(count: 8 << 20), "larger than 64 KiB")] {
            try bytes.write(to: url)
            let (read, problem) = RememberedState.load(from: url)
            #expect(read == RememberedState() && problem?.contains(says) == true, "\(problem ?? "no problem")")
            #expect(problem?.contains("\n") == false, "one line")
        }
        try FileManager.default.removeItem(at: url)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/dev/zero")
        #expect(RememberedState.load(from: url).problem?.contains("not a regular file") == true)
        try FileManager.default.removeItem(at: url)
        #expect(mkfifo(url.path, 0o600) == 0)
        #expect(RememberedState.load(from: url).problem?.contains("not a regular file") == true, "a FIFO is never opened")
    }

    /// Between runs of the app (headless, XDG_STATE_HOME a folder of the
    /// test's): the volume, mute and window size come back; the command
    /// line wins over them; --no-remember neither reads nor writes; a
    /// hostile file is ignored with one line.
    @Test func volumeMuteAndTheWindowAreRememberedBetweenRuns() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_STATE_HOME": dir.path]
        let file = dir.appendingPathComponent("deskplayer/remembered.json")
        func run(_ arguments: [String], _ body: (ControlSocketTests.Client) -> Void = { _ in }) throws -> String {
            let socket = dir.appendingPathComponent("ipc.sock").path, errors = dir.appendingPathComponent("err.txt")
            let player = try ControlSocketTests().startPlayer([Fixtures.asset("demo.mp4"), "--pause", "--no-config"] + arguments,
                                                              socket: socket, environment: env, stderr: errors)
            defer { if player.isRunning { player.terminate() } }
            let client = try ControlSocketTests.Client(path: socket)
            #expect(client.waitFor("duration") == .number(10))
            body(client)
            #expect(client.error([.string("quit")]) == "success")
            #expect(ControlSocketTests().waitForExit(player))
            return (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        }
        _ = try run(["--volume", "40", "--mute", "--geometry", "800x450"])
        let saved = RememberedState.load(from: file).state
        #expect(saved.volume == 40 && saved.mute == true && saved.window?.width == 800 && saved.window?.height == 450, "\(saved)")

        _ = try run([]) { client in
            #expect(client.get("volume") == .number(40) && client.get("mute") == .bool(true), "remembered")
            #expect(client.error([.string("set_property"), .string("volume"), .number(65)]) == "success")
        }
        #expect(RememberedState.load(from: file).state.volume == 65, "what the run ended with")
        _ = try run(["--volume", "70", "--no-mute"]) { client in
            #expect(client.get("volume") == .number(70) && client.get("mute") == .bool(false), "the command line wins")
        }
        let before = try Data(contentsOf: file)
        _ = try run(["--no-remember"]) { client in
            #expect(client.get("volume") == .number(100) && client.get("mute") == .bool(false))
            _ = client.error([.string("set_property"), .string("volume"), .number(5)])
        }
        #expect(try Data(contentsOf: file) == before, "--no-remember writes nothing")

        try Data(repeating: UInt8(ascii: "{"), count: 1 << 20).write(to: file)
        let errors = try run([]) { client in #expect(client.get("volume") == .number(100)) }
        let lines = errors.split(separator: "\n").filter { $0.contains("remembered.json") }
        #expect(lines.count == 1 && lines[0].contains("larger than 64 KiB"), "\(errors)")
        #expect(RememberedState.load(from: file).state.volume == 100, "written anew at the end")
    }
}
