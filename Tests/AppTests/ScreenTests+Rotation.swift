// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import UI
import TestSupport

extension ScreenTests {
    /// A phone's upright recording (landscape pixels, a 90° display matrix)
    /// as a person sees it: with no --geometry the window takes its portrait
    /// aspect within the default 1280x720 (405x720), the picture fills it
    /// upright, the red corner marker top-right as ffmpeg's autorotate puts it.
    @Test func aPhoneVideoShowsUprightInAPortraitWindow() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try RunningApp([try VideoMedia.rotated(270), "--start", "1", "--pause", "--no-config"])
        defer { app.stop() }
        app.waitForWindow()
        var frame = Rect(x: 0, y: 0, width: 0, height: 0)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let id = try runTool("xdotool", ["search", "--onlyvisible", "--pid", "\(app.process.processIdentifier)"])
                .stdout.split(separator: "\n").first.map(String.init)
            if let id { frame = try geometry(of: id) }
            if frame.width == 405 { break }
            Thread.sleep(forTimeInterval: 0.2)  // polling the window's size above
        }
        #expect(frame.width == 405 && frame.height == 720, "window \(frame)")
        // Settled (the pointer moved off it, the control bar gone), grabbed where the window is.
        let path = dir.appendingPathComponent("phone.ppm").path
        let shot = try app.grabSettled(frame.width, frame.height, to: path) { w, h, p in
            try grab(w, h, at: (frame.x, frame.y), to: p)
        }
        // The picture covers the window: no black bars beside or above it.
        for (x, y) in [(3, 360), (401, 360), (202, 3), (202, 716)] {
            let p = shot.pixel(x, y)
            #expect(p.r + p.g + p.b > 60, "black at (\(x), \(y)): bars around an upright picture?")
        }
        let red = try #require(shot.centre(ofRed: true), "no red marker on screen")
        #expect(abs(red.x - 0.867) < 0.05 && abs(red.y - 0.1) < 0.05, "red marker at \(red)")
        let green = try #require(shot.centre(ofRed: false), "no green marker on screen")
        #expect(abs(green.x - 0.911) < 0.05 && abs(green.y - 0.5) < 0.05, "green marker at \(green)")
    }
}
