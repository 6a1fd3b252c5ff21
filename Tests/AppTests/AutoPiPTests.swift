// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
import TestSupport

/// `--pip-auto` under a real window manager (openbox): the WM minimizes
/// and restores the main window, as a person's click on its title bar would.
extension WindowManagerTests {
    @Test func minimizingMovesThePlayerIntoPiPAndRestoringBringsItBack() throws {
        let display = try ManagedDisplay()
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("out.raw"), stats = dir.appendingPathComponent("stats.json")
        let app = try ScreenTests.RunningApp([Fixtures.asset("demo.mp4"), "--pip-auto", "--geometry", "640x360",
                                              "--no-config", "--stats-json", stats.path],
                                             audio: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": raw.path,
                                                     "DISPLAY": display.name])
        defer { app.stop() }
        let mainWindow = try #require(try display.awaitWindow(" - DeskPlayer$"), "no main window: \(app.errors)")
        // Playing a while before it is minimized (a PiP must not open by itself meanwhile).
        Thread.sleep(forTimeInterval: 1.5)  // nothing must happen for 1.5 s: no PiP opens by itself
        #expect(try display.window(" - PiP$") == nil, "no PiP before minimizing")

        try display.x(["xdotool", "windowminimize", "--sync", mainWindow])
        _ = try eventually { try display.window("^demo.mp4 - PiP$") != nil }
        #expect(try display.state(mainWindow).contains("_NET_WM_STATE_HIDDEN"), "the main window is minimized")
        let pip = try #require(try display.window("^demo.mp4 - PiP$"), "minimizing started no PiP: \(app.errors)")
        #expect(try display.x(["xwininfo", "-id", pip]).stdout.contains("IsViewable"), "PiP is on screen")

        try display.x(["xdotool", "windowactivate", "--sync", mainWindow])
        #expect(try eventually { try display.window(" - PiP$") == nil }, "restoring the main window closed PiP")
        #expect(try !display.state(mainWindow).contains("_NET_WM_STATE_HIDDEN"))

        // The 10 s file plays to its end and the app quits as usual; every
        // sample reached the device, with no gap across either move.
        let end = Date().addingTimeInterval(20)
        while app.process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.1) }  // polling for the exit
        #expect(!app.process.isRunning && app.process.terminationStatus == 0,
                "status \(app.process.terminationStatus) (\(app.process.terminationReason == .uncaughtSignal ? "signal" : "exit")): \(app.errors)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect(report.players.first?.audioUnderruns == 0)
        let left = try CapturedAudio.leftChannel(raw)
        let first = try #require(left.firstIndex { $0 != 0 }), last = try #require(left.lastIndex { $0 != 0 })
        #expect(abs((last - first + 1) - 480_000) <= 2)
        #expect(CapturedAudio.longestSilence(left[first...last]) < 3)
    }
}
