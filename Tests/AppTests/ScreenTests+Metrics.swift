// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Output
@testable import Playback
@testable import UI
import TestSupport

/// Issue 27 on screen: a click on the metrics strip seeks the compared
/// pair there, and the scope panel follows the picture while paused. In
/// ScreenTests' serialized suite: one window on the X screen at a time.
extension ScreenTests {
    @Test
    func aClickOnTheStripSeeksThere() throws {
        let reference = try MetricsScanTests.reference()
        let other = try MetricsScanTests.Rendition.otherEncoder.make(from: reference)
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("ipc.sock").path
        let process = try LiveMetricsTests.start(["--compare", "wipe", "--compare-metrics", "psnr,ssim", "--pause", "--geometry", "640x360+0+0",
                                      reference, other], socket: socket, headless: false, stderr: folder.appendingPathComponent("err.txt"))
        defer { LiveMetricsTests.stop(process) }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("time-pos")?.number == 0)
        _ = try? runTool("xdotool", ["search", "--sync", "--onlyvisible", "--pid", "\(process.processIdentifier)"], timeout: 10)
        // The strip spans x 8…632 at the bottom (y 308…352) of a 640x360 window: three quarters along is 2.25 s.
        let strip = MetricsGraph.strip(in: Rect(x: 0, y: 0, width: 640, height: 360))
        let x = strip.x + strip.width * 3 / 4, y = strip.y + strip.height / 2
        // On a loaded machine the first click may come before the window takes
        // input: click again (each seeks to the same place) until it did.
        var seeked = false
        for _ in 0..<5 where !seeked {
            try runTool("xdotool", ["mousemove", "\(x)", "\(y)", "click", "1"])
            seeked = eventually(seconds: 3) { abs((client.get("time-pos")?.number ?? 0) - 2.25) < 0.1 }
        }
        #expect(seeked, "time-pos \(client.get("time-pos") ?? .null)")
        _ = client.command([.string("quit")])
    }

    @Test
    func thePanelFollowsThePictureWhilePaused() throws {
        let clip = try MetricsScanTests.reference()  // a moving pattern: each time has its own scope
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("ipc.sock").path
        let process = try LiveMetricsTests.start(["--pause", "--scope", "vectorscope", "--geometry", "640x360+0+0", clip],
                                                 socket: socket, headless: false, stderr: folder.appendingPathComponent("err.txt"))
        defer { LiveMetricsTests.stop(process) }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("time-pos") != nil)
        _ = try? runTool("xdotool", ["search", "--sync", "--onlyvisible", "--pid", "\(process.processIdentifier)"], timeout: 10)
        // The panel: the vectorscope (256x256) at a third of the window's width, at the top right.
        let side = 640 / 3
        func panel(_ name: String) throws -> PPMImage {
            let path = folder.appendingPathComponent(name + ".ppm").path
            let r = try runTool("ffmpeg", ["-v", "error", "-y", "-f", "x11grab", "-video_size", "\(side)x\(side)", "-i",
                                           "\(display)+\(640 - side - 12),\(40)",
                                           "-frames:v", "1", path])
            guard r.status == 0 else { throw MediaError("x11grab: \(r.stderr)") }
            return try PPMImage(path: path)
        }
        // The panel has drawn the scope of the frame on screen (`scope-time`
        // at the playhead, within a frame), and the window has nothing more
        // to draw: the grab counts when no present came while it was taken.
        func settled(_ name: String, scopeOfNow: Bool = true) throws -> PPMImage {
            try runTool("xdotool", ["mousemove", "1919", "1079"])  // no control bar over the panel
            if scopeOfNow {
                let now = client.get("time-pos")?.number ?? -1
                #expect(eventually { abs((client.get("scope-time")?.number ?? -9) - now) < 0.1 },
                        "the scope of \(now) s: \(client.get("scope-time") ?? .null)")
            }
            var shot: PPMImage?
            _ = try eventually {
                guard client.get("window-settled") == .bool(true), let presents = client.get("window-presents") else { return false }
                let image = try panel(name)
                guard client.get("window-presents") == presents else { return false }
                shot = image
                return true
            }
            return try shot ?? panel(name)
        }
        let first = try settled("first")
        #expect(client.error([.string("seek"), .number(1.5), .string("absolute")]) == "success")
        #expect(eventually { abs((client.get("time-pos")?.number ?? 0) - 1.5) < 0.05 })
        let second = try settled("second")
        // Another picture, another vectorscope; the scope is drawn (mostly dark, with traces).
        #expect(first.psnr(second) < 40, "the panel did not change: \(first.psnr(second)) dB")
        #expect(first.meanLevel < 120 && first.meanLevel > 1)
        // Without the scope the same place shows the video: the panel was what changed.
        #expect(client.error([.string("set_property"), .string("scope"), .string("none")]) == "success")
        let video = try settled("video", scopeOfNow: false)
        #expect(video.psnr(second) < 25, "no panel there: \(video.psnr(second)) dB")
        _ = client.command([.string("quit")])
    }
}
