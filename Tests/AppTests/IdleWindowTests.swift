// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
import TestSupport

/// The desktop app a person starts from the menu: the idle window, what it
/// plays, the pointer. (The screen saver and the title: FeatureTests.)
/// In ScreenTests (one window at a time at the screen's top-left corner).
extension ScreenTests {
    /// The desktop entry's own command line (what the menu runs), with
    /// `extra` options before its `--`, and `files` for its %F.
    static func desktopEntryCommand(_ extra: [String], files: [String] = []) throws -> [String] {
        let exec = try #require(try DesktopTests.desktopEntry()["Exec"]).split(separator: " ").map(String.init)
        return extra + exec.dropFirst().flatMap { $0 == "%F" ? files : [$0] }
    }

    /// The idle window offers the phone picker's three ways to a video as
    /// buttons under its lines: a file, the camera, the roll. Found on the
    /// screen (three grey boxes in a row) and clicked: "Take video…" with no
    /// camera says so and the window stays; "Videos…" opens the roll.
    @Test func theIdleWindowOffersAFileTheCameraAndTheRoll() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let socket = home.root.appendingPathComponent("ipc.sock").path
        let app = try RunningApp(["--idle", "--geometry", "640x360+0+0", "--no-config", "--no-resume", "--input-ipc-server", socket],
                                 environment: home.environment)
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.get("idle-active") == .bool(true))
        let shot = try grabSettled(app, 640, 360, to: home.root.appendingPathComponent("idle.ppm").path)
        func grey(_ x: Int, _ y: Int) -> Bool {
            let (r, g, b) = ScreenTests.rgb(shot, x, y)
            return (20...70).contains(r) && abs(r - g) < 6 && abs(r - b) < 6
        }
        // The buttons' top edge down the middle, below the lines; along it, the boxes.
        let top = try #require((180..<360).first { grey(320, $0) }, "no button under the idle window's lines")
        var boxes: [Range<Int>] = []
        var start: Int?
        for x in 0...640 {
            if x < 640, grey(x, top + 2) { start = start ?? x } else if let s = start { boxes.append(s..<x); start = nil }
        }
        try #require(boxes.count == 3, "\(boxes)")
        func click(_ box: Range<Int>) throws {
            try runTool("xdotool", ["mousemove", String((box.lowerBound + box.upperBound) / 2), String(top + 8), "click", "1"])
        }
        try click(boxes[1])
        #expect(eventually { app.errors.contains("camera: No camera found") }, "\(app.errors)")
        #expect(client.get("idle-active") == .bool(true))
        try click(boxes[2])
        #expect(eventually { client.get("library") == .bool(true) }, "the roll opens")
    }

    @Test func theIdleWindowWaitsThenPlaysWhatItIsGiven() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try RunningApp(try ScreenTests.desktopEntryCommand(["--geometry", "640x360+0+0", "--no-config",
                                                                       "--input-ipc-server", socket]))
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.get("idle-active") == .bool(true))

        // The idle window: its two lines and its buttons in the middle, black elsewhere, its own title.
        let shot = try grabSettled(app, 640, 360, to: dir.appendingPathComponent("idle.ppm").path)
        func brightPixels(rows: Range<Int>) -> Int {
            rows.reduce(0) { sum, y in sum + (0..<640).filter { x in shot.pixels[(y * 640 + x) * 3] > 180 }.count }
        }
        #expect(brightPixels(rows: 110..<270) > 800, "no text in the middle of the idle window")
        #expect(brightPixels(rows: 0..<110) == 0 && brightPixels(rows: 270..<360) == 0)
        #expect(try findWindow("^DeskPlayer$") != nil)

        // A file opened into it through the socket plays. (The title that
        // follows it and the screen saver held off while it plays:
        // FeatureTests, in-process.)
        #expect(client.error([.string("loadfile"), .string(Fixtures.asset("demo.mp4"))]) == "success")
        #expect(client.waitForEvent("file-loaded"))
        let start = client.waitFor("time-pos")?.number ?? 99
        #expect(eventually { (client.get("time-pos")?.number ?? -1) > start + 0.3 }, "not playing")

        // The pointer hides after a second at rest over the video, shows when it moves.
        // Timed from before xdotool: the move happens while it runs, and its
        // exit can be noticed a while later on a busy machine.
        let moved = Date()
        try runTool("xdotool", ["mousemove", "320", "150"])
        #expect(eventually { client.get("cursor-visible") == .bool(true) })
        #expect(eventually { client.get("cursor-visible") == .bool(false) }, "the pointer stays over the video")
        #expect(Date().timeIntervalSince(moved) >= 0.9, "hidden before a second at rest")
        try runTool("xdotool", ["mousemove", "330", "160"])
        #expect(eventually { client.get("cursor-visible") == .bool(true) })
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// Pseudo-GUI mode stays open when the queue ends (q quits it, exit 0);
    /// a terminal launch with the same file quits by itself at its end.
    @Test func pseudoGUIModeStaysOpenAfterTheLastFile() throws {
        let app = try RunningApp(try ScreenTests.desktopEntryCommand(["--geometry", "320x180+0+0", "--no-config",
                                                                       "--title", "${=eof-reached} at ${=time-pos} - DeskPlayer"],
                                                                      files: [Fixtures.asset("tone.wav")]))
        defer { app.stop() }
        app.waitForWindow()
        let terminal = try runProcess(Fixtures.binary, [Fixtures.asset("tone.wav"), "--no-config"],
                                      environment: ["SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "dummy"], timeout: 20)
        #expect(terminal.status == 0 && !terminal.timedOut, "the terminal launch quits at the end")
        // No socket (that would keep it open): the title says when the file has played
        // to its end (it is set as the loop goes to rest), then the window must stay.
        func shownTitle() -> String {
            (try? runTool("xdotool", ["search", "--name", " - DeskPlayer$", "getwindowname"]).stdout) ?? ""
        }
        #expect(eventually(seconds: 20) { shownTitle().hasPrefix("yes at ") },
                "the file never played to its end: '\(shownTitle())' \(app.errors)")
        Thread.sleep(forTimeInterval: 1)  // nothing must happen for 1 s: no quit follows the end
        #expect(app.process.isRunning, "pseudo-GUI mode quit at the end: \(app.errors)")
        #expect(try findWindow("DeskPlayer$") != nil)
        try runTool("xdotool", ["mousemove", "160", "90", "sleep", "0.2", "key", "q"])
        let deadline = Date().addingTimeInterval(5)
        while app.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!app.process.isRunning && app.process.terminationStatus == 0)
    }
}
