// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import UI
import TestSupport

/// A camera's tile in the window, driven by the mouse (xdotool) and seen
/// in screenshots.
extension ScreenTests {
    /// A camera's bar has a red record button where a file's has previous
    /// and next: a click records (the dot turns into a square, stop), a
    /// second click stops, and the take plays in the tile.
    @Test func theBarsRedButtonRecordsTheCamera() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let takes = dir.appendingPathComponent("takes")
        let app = try RunningApp(["--camera", "lavfi:testsrc2=size=640x360:rate=30,realtime", "--no-microphone",
                                  "--record-to", takes.path, "--geometry", "960x540+0+0", "--no-config", "--no-resume",
                                  "--input-ipc-server", socket])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(eventually { client.get("seekable") == .bool(false) }, "the camera opens")

        let bar = ControlBar(in: Rect(x: 0, y: 0, width: 960, height: 540), camera: true)
        let button = try #require(bar.rect(of: .record))
        #expect(bar.rect(of: .next) == nil && bar.rect(of: .previous) == nil)
        /// The width of the red (230, 40, 40) ink on the button's middle row.
        func redWidth() throws -> Int {
            let shot = try grab(button.width, button.height, at: (button.x, button.y), to: dir.appendingPathComponent("button.ppm").path)
            let y = button.height / 2
            return (0..<shot.width).filter {
                let (r, g, b) = ScreenTests.rgb(shot, $0, y)
                return r > 180 && g < 90 && b < 90
            }.count
        }
        // The pointer on the button's bottom-right corner: the cursor, drawn down and right of it, leaves the face in sight.
        let corner = [String(button.x + button.width - 2), String(button.y + button.height - 2)]
        try runTool("xdotool", ["mousemove", "480", "200", "sleep", "0.2", "mousemove"] + corner)
        // The dot: 2 × 7 + 1 px across at 96 DPI.
        #expect(try eventually(seconds: 10) { try redWidth() >= 13 }, "a red dot on the camera's bar")

        client.clearEvents()
        try runTool("xdotool", ["click", "1"])
        #expect(client.waitForEvent("recording-started"))
        #expect(client.get("recording") == .bool(true))
        // Stop: a square 10 px across.
        #expect(try eventually(seconds: 10) { (8...11).contains(try redWidth()) }, "the button shows stop while recording")
        #expect(eventually(seconds: 15) { (client.get("recording-time")?.number ?? 0) >= 1 })

        try runTool("xdotool", ["mousemove"] + corner + ["click", "1"])
        #expect(client.waitForEvent("recording-stopped", seconds: 15))
        let take = try #require(client.events.last { $0["event"]?.string == "recording-stopped" }?["path"]?.string)
        #expect(eventually(seconds: 10) { client.get("path") == .string(take) }, "the take plays in the tile")
    }

    /// A file's bar has "Take video…" beside the playlist button: clicked
    /// with no camera here, one line says so and the file stays.
    @Test func aFilesBarOffersTakeVideo() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--pause", "--geometry", "960x540+0+0", "--no-config", "--no-resume",
                                  "--input-ipc-server", socket])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") == .number(10))
        let bar = ControlBar(in: Rect(x: 0, y: 0, width: 960, height: 540))
        let button = try #require(bar.rect(of: .camera))
        #expect(ControlBar(in: Rect(x: 0, y: 0, width: 960, height: 540), camera: true).rect(of: .camera) == nil,
                "a camera's own bar has none")
        try runTool("xdotool", ["mousemove", "480", "200", "sleep", "0.2", "mousemove", String(button.x + button.width - 2),
                                String(button.y + button.height - 2), "sleep", "0.3", "click", "1"])
        #expect(eventually { app.errors.contains("camera: No camera found") }, "\(app.errors)")
        #expect(client.get("filename") == .string("demo.mp4"))
    }
}
