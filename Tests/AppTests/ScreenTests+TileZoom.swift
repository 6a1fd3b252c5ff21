// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
import TestSupport

/// Zoom and pan outside a comparison: a sync group's tiles share one
/// (the same video point in the same place in each tile), a tile outside
/// any group zooms alone.
extension ScreenTests {
    /// Two tiles side by side in a 1280x360 window (640x360 each): the
    /// 1280x720 reference and a 640x360 rendition of it.
    func tileApp(_ synced: Bool, socket: String) throws -> RunningApp {
        try RunningApp([try CompareMedia.path("ref.mp4"), try CompareMedia.path("small25.mp4")]
                       + (synced ? ["--sync"] : ["--layout", "grid"])
                       + ["--start", "2", "--pause", "--geometry", "1280x360+0+0", "--no-config", "--input-ipc-server", socket])
    }

    /// The window once the wheel's OSD line and the tile's controls have
    /// gone (the pointer outside it).
    func grabTiles(_ app: RunningApp, in dir: URL) throws -> PPMImage {
        try runTool("xdotool", ["mousemove", "1919", "1079"])
        return try grabSteady(app, 1280, 360, in: dir)
    }

    /// Four wheel notches over (400, 260) of the first synced tile zoom
    /// both to 2x around that point: the first shows the 1280x720 video's
    /// pixels 1:1 from (400, 260) on (ffmpeg's decode, cropped there), the
    /// second the same region of its 640x360 video, each pixel a 2x2
    /// square (ffmpeg's decode enlarged by nearest neighbour, cropped the
    /// same). A drag on the second then pans both.
    @Test func theWheelZoomsEverySyncedTileToTheSameVideoPoint() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try tileApp(true, socket: socket)
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        _ = try grabTiles(app, in: dir)
        try runTool("xdotool", ["mousemove", "400", "260", "click", "4", "click", "4", "click", "4", "click", "4"])
        #expect(eventually(seconds: 3) { client.get("video-zoom") == .number(1) }, "four notches: \(String(describing: client.get("video-zoom")))")
        // The second tile's own value, through the same property.
        #expect(client.error([.string("tile-focus"), .string("next")]) == "success")
        #expect(client.get("video-zoom") == .number(1), "the synced tile zoomed too")
        #expect(abs((client.get("video-pan-y")?.number ?? 0) + 1.0 / 9) < 1e-9, "(260 - 180) / 720 - 80 / 360")
        #expect(abs((client.get("video-pan-x")?.number ?? 0) + 0.0625) < 1e-9,
                "the point under the pointer stays: pan (400 - 320) / 1280 - 80 / 640 = -0.0625")
        let shot = try grabTiles(app, in: dir)
        let full = try CompareMedia.frame(try CompareMedia.path("ref.mp4"), at: 2, 1280, 720, in: dir)
        let smallOut = dir.appendingPathComponent("small.ppm").path
        let r = try runTool("ffmpeg", ["-v", "error", "-y", "-ss", "2", "-i", try CompareMedia.path("small25.mp4"), "-frames:v", "1",
                                       "-vf", "scale=1280:720:flags=neighbor", smallOut])
        #expect(r.status == 0, "\(r.stderr)")
        let small = try PPMImage(path: smallOut)
        // Inside the focus outline (3 px) with a margin.
        let (w, h) = (620, 340)
        let first = full.crop(410, 270, w, h).psnr(shot.crop(10, 10, w, h))
        let second = small.crop(410, 270, w, h).psnr(shot.crop(650, 10, w, h))
        #expect(first > 35, "the first tile: the video's pixels 1:1 from (400, 260): \(first) dB")
        #expect(second > 35, "the second tile: the same region, pixels as 2x2 squares: \(second) dB")
        // Against the unzoomed picture, the same comparison fails: the check has teeth.
        let fitted = try CompareMedia.frame(try CompareMedia.path("ref.mp4"), at: 2, 640, 360, in: dir)
        #expect(fitted.crop(10, 10, w, h).psnr(shot.crop(10, 10, w, h)) < 25)

        // A drag of 128 px on the second tile pans both by 128 / 1280.
        try runTool("xdotool", ["mousemove", "900", "200", "mousedown", "1", "mousemove", "964", "200", "mousemove", "1028", "200",
                                "mouseup", "1"])
        #expect(eventually(seconds: 3) { abs((client.get("video-pan-x")?.number ?? 0) - 0.0375) < 0.002 },
                "the dragged tile: \(String(describing: client.get("video-pan-x")))")
        #expect(client.error([.string("tile-focus"), .string("next")]) == "success")
        #expect(abs((client.get("video-pan-x")?.number ?? 0) - 0.0375) < 0.002, "the other synced tile panned with it")
        // The keys reach both too: `r` fits again.
        try runTool("xdotool", ["key", "r"])
        #expect(eventually(seconds: 3) { client.get("video-zoom") == .number(0) })
        #expect(client.error([.string("tile-focus"), .string("next")]) == "success")
        #expect(client.get("video-zoom") == .number(0) && client.get("video-pan-x") == .number(0))
    }

    /// Without --sync each tile zooms alone: the wheel over the second
    /// zooms it and leaves the first (focused) fitted, pixel for pixel.
    @Test func anUnsyncedTileZoomsAlone() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try tileApp(false, socket: socket)
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        let before = try grabTiles(app, in: dir)
        try runTool("xdotool", ["mousemove", "960", "180", "click", "4", "click", "4", "click", "4", "click", "4"])
        #expect(eventually(seconds: 3) {
            _ = client.error([.string("tile-focus"), .string("1")])
            return client.get("video-zoom") == .number(1)
        }, "the tile under the wheel: \(String(describing: client.get("video-zoom")))")
        #expect(client.error([.string("tile-focus"), .string("0")]) == "success")
        #expect(client.get("video-zoom") == .number(0), "the other tile kept its fit")
        let after = try grabTiles(app, in: dir)
        #expect(before.crop(10, 10, 620, 340).pixels == after.crop(10, 10, 620, 340).pixels, "the first tile unchanged")
        #expect(before.crop(650, 10, 620, 340).psnr(after.crop(650, 10, 620, 340)) < 25, "the second zoomed")
    }
}
