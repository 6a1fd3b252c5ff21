// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
import TestSupport

extension ScreenTests {
    /// Tiles whose picture changed are drawn and pushed to the screen on
    /// their own (SDL's software renderer): what the X server shows after
    /// many such partial presents is exactly what the window's frame buffer
    /// holds, tile by tile, and the partial path was the one taken.
    @Test func partialPresentsLeaveTheScreenAsAFullRedrawWould() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path, stats = dir.appendingPathComponent("stats.json")
        let (demo, compare) = (Fixtures.asset("demo.mp4"), Fixtures.asset("compare.mp4"))
        let app = try RunningApp([demo, compare, compare, demo, "--layout", "grid", "--sync", "--loop", "inf",
                                  "--geometry", "640x360+0+0", "--no-config", "--input-ipc-server", socket,
                                  "--stats-json", stats.path])
        defer { app.stop() }
        app.waitForWindow()
        try runTool("xdotool", ["mousemove", "1919", "1079"])  // no tile shows its PiP button or bar
        let client = try ControlSocketTests.Client(path: socket)
        // Frames of all four tiles for 2 s of play, each presented alone.
        #expect(eventually(seconds: 30) { (client.get("time-pos")?.number ?? 0) >= 2 })
        // Paused from the socket (no OSD line): once the window has settled nothing is drawn,
        // and the grab counts only if no present came while it was taken.
        #expect(client.error([.string("set_property"), .string("pause"), .bool(true)]) == "success")
        let screen = try grabSettled(app, 640, 360, to: dir.appendingPathComponent("screen.ppm").path)
        let presents = client.get("window-presents")
        let png = dir.appendingPathComponent("window.png").path
        #expect(client.error([.string("screenshot-to-file"), .string(png), .string("window")]) == "success")
        #expect(client.get("window-presents") == presents, "a present came between the grab and the screenshot")
        let framebuffer = dir.appendingPathComponent("window.ppm").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-i", png, framebuffer])
        let drawn = try PPMImage(path: framebuffer)
        #expect(screen.meanLevel > 20, "the screen is dark: nothing presented?")
        // Tile by tile, the screen is the frame buffer (x11grab and the PNG are both lossless).
        for (x0, x1) in [(0, 320), (320, 640)] {
            let psnr = drawn.columns(x0, x1).psnr(screen.columns(x0, x1))
            #expect(psnr > 60, "columns \(x0)..<\(x1): PSNR \(psnr) dB between the screen and the frame buffer")
        }
        _ = client.command([.string("quit")])
        let deadline = Date().addingTimeInterval(5)
        while app.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        // Four 30 and 25 fps tiles for over 2 s: about 240 tile presents on an idle machine (99 under
        // ThreadSanitizer), and whole-window ones only at the start.
        #expect(report.tilePresents > 40 && report.tilePresents >= 10 * report.fullPresents,
                "presents: \(report.fullPresents) whole-window, \(report.tilePresents) of tiles alone")
    }
}
