// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import UI
import TestSupport

/// The playlist panel and the control bar's buttons driven by the mouse
/// alone (xdotool), as a person coming from VLC or Celluloid would: the
/// effect read back over the control socket and seen in a screenshot.
extension ScreenTests {
    static let oneX = UIScale(factor: 1, source: "test")

    /// A pixel of a grab, as (r, g, b).
    static func rgb(_ image: PPMImage, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * image.width + x) * 3
        return (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
    }

    /// Whether a pixel is the panel's mark of the current entry (120, 190, 255).
    static func isCurrentMark(_ p: (Int, Int, Int)) -> Bool { abs(p.0 - 120) < 20 && abs(p.1 - 190) < 20 && p.2 > 230 }

    /// The entries' names in the `playlist` property.
    static func playlistNames(_ client: ControlSocketTests.Client) -> [String] {
        guard case .array(let entries)? = client.get("playlist") else { return [] }
        return entries.compactMap { $0["filename"]?.string }
    }

    /// Paused on the first of three files: the control bar's playlist
    /// button opens the panel (the current entry marked); dragging the
    /// second entry above the first reorders the playlist (the one playing
    /// stays current, now second); a click on the entry that was second
    /// plays it.
    @Test func thePlaylistPanelOpensReordersAndPlaysByMouse() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let demo = Fixtures.asset("demo.mp4"), other = Fixtures.asset("compare.mp4"), tone = Fixtures.asset("tone.mp3")
        let app = try RunningApp([demo, other, tone, "--pause", "--geometry", "960x540+0+0", "--no-config", "--no-resume",
                                  "--input-ipc-server", socket])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") == .number(10))
        #expect(client.get("playlist-panel") == .bool(false))

        // The bar shows under the mouse; its playlist button opens the panel.
        let window = Rect(x: 0, y: 0, width: 960, height: 540)
        let button = try #require(ControlBar(in: window).rect(of: .playlist))
        try runTool("xdotool", ["mousemove", "480", "200", "sleep", "0.2", "mousemove", String(button.x + button.width / 2),
                                String(button.y + button.height / 2), "sleep", "0.3", "click", "1"])
        #expect(eventually { client.get("playlist-panel") == .bool(true) }, "the button opens the panel: \(app.errors)")
        let g = PlaylistPanel().geometry(window, scale: Self.oneX)
        func rowMiddle(_ i: Int) -> Int { g.firstRowY + i * g.rowHeight + g.rowHeight / 2 }
        func markedRows(_ shot: PPMImage) -> [Int] {
            (0..<3).filter { Self.isCurrentMark(Self.rgb(shot, g.panel.x + 1, rowMiddle($0))) }
        }
        var shot = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("panel.ppm").path)
        #expect(markedRows(shot) == [0], "the first entry is marked as the current one")
        // The panel takes the window's right side: its dark background there, the tile's picture left of it.
        let empty = Self.rgb(shot, g.panel.x + g.panel.width / 2, g.panel.y + g.panel.height - 20)
        #expect(empty.0 < 40 && empty.1 < 40 && empty.2 < 40, "the panel's background: \(empty)")

        // Drag the second entry above the first.
        let x = String(g.panel.x + g.panel.width / 2)
        try runTool("xdotool", ["mousemove", x, String(rowMiddle(1)), "sleep", "0.2", "mousedown", "1", "sleep", "0.2",
                                "mousemove", x, String(rowMiddle(1) - 20), "sleep", "0.1", "mousemove", x, String(g.firstRowY + 8),
                                "sleep", "0.2", "mouseup", "1"])
        #expect(eventually { Self.playlistNames(client) == [other, demo, tone] }, "\(Self.playlistNames(client))")
        #expect(client.get("playlist-pos") == .number(1), "the file playing stays current, second now")
        shot = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("moved.ppm").path)
        #expect(markedRows(shot) == [1], "the current entry's mark moved with it")

        // A click on the entry that was second plays it.
        client.clearEvents()
        try runTool("xdotool", ["mousemove", x, String(rowMiddle(0)), "sleep", "0.2", "click", "1"])
        #expect(client.waitForEvent("file-loaded"))
        #expect(eventually { client.get("path") == .string(other) && client.get("playlist-pos") == .number(0) },
                "\(String(describing: client.get("path")))")
        shot = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("played.ppm").path)
        #expect(markedRows(shot) == [0], "the clicked entry is marked")
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// The control bar's next and previous buttons move along the playlist
    /// (the picture changes with them), and a button the pointer rests on
    /// names itself in a tooltip above it.
    @Test func nextAndPreviousButtonsAndTheirTooltips() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let demo = Fixtures.asset("demo.mp4"), other = Fixtures.asset("compare.mp4")
        let app = try RunningApp([demo, other, "--pause", "--geometry", "960x540+0+0", "--no-config", "--no-resume",
                                  "--input-ipc-server", socket])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") == .number(10))
        let first = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("first.ppm").path)

        let bar = ControlBar(in: Rect(x: 0, y: 0, width: 960, height: 540))
        let next = try #require(bar.rect(of: .next)), previous = try #require(bar.rect(of: .previous))
        // Above the button, where its tooltip goes: the dark box over the picture once the pointer rests.
        let above = (x: max(next.x - 20, 0), y: bar.bar.y - 30, width: 120, height: 24)
        func darkPixels() throws -> Int {
            let shot = try grab(above.width, above.height, at: (above.x, above.y), to: dir.appendingPathComponent("tip.ppm").path)
            return stride(from: 0, to: shot.pixels.count, by: 3).filter {
                shot.pixels[$0] < 70 && shot.pixels[$0 + 1] < 70 && shot.pixels[$0 + 2] < 70
            }.count
        }
        let before = try darkPixels()
        try runTool("xdotool", ["mousemove", "480", "200", "sleep", "0.2", "mousemove", String(next.x + next.width / 2),
                                String(next.y + next.height / 2)])
        #expect(try eventually(seconds: 5) { try darkPixels() > before + 600 }, "no tooltip above the next button (\(before) dark before)")

        client.clearEvents()
        try runTool("xdotool", ["click", "1"])
        #expect(client.waitForEvent("file-loaded"))
        #expect(client.get("path") == .string(other) && client.get("playlist-pos") == .number(1))
        let second = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("second.ppm").path)
        #expect(first.psnr(second) < 25, "the next file's picture shows")

        client.clearEvents()
        try runTool("xdotool", ["mousemove", "480", "200", "sleep", "0.2", "mousemove", String(previous.x + previous.width / 2),
                                String(previous.y + previous.height / 2), "sleep", "0.3", "click", "1"])
        #expect(client.waitForEvent("file-loaded"))
        #expect(client.get("path") == .string(demo) && client.get("playlist-pos") == .number(0))
        let back = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("back.ppm").path)
        #expect(first.psnr(back) > 40, "the first file's picture again")
    }
}
