// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import UI
import TestSupport

/// Picture in Picture under a real window manager (openbox, from Debian's
/// packages), on a private virtual X server so the other window tests keep
/// their bare one: the WM, not the app, decides stacking, so this is where
/// "always on top" is proven.
@Suite(.serialized)
struct WindowManagerTests {
    /// Xvfb plus openbox on a free display number; both stop with the value.
    final class ManagedDisplay {
        let name: String
        private let server = Process()
        private let manager = Process()

        init() throws {
            // A display number of its own, well away from xvfb-run's (99 up)
            // and from :0, the display of any client not told one. -noreset:
            // Xvfb resets when its last client leaves, and openbox connecting
            // just as an xprop poll left could find it resetting and quit.
            var number = 71
            while FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") { number += 1 }
            name = ":\(number)"
            server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            server.arguments = [name, "-noreset", "-screen", "0", "1280x720x24", "-nolisten", "tcp"]
            server.standardOutput = FileHandle.nullDevice
            server.standardError = FileHandle.nullDevice
            try server.run()
            let socket = "/tmp/.X11-unix/X\(number)"
            // Generous: the whole suite runs beside, on 2 shared cores.
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            manager.executableURL = URL(fileURLWithPath: "/usr/bin/openbox")
            manager.arguments = ["--sm-disable"]
            var env = Fixtures.appEnvironment
            env["DISPLAY"] = name
            manager.environment = env
            manager.standardOutput = FileHandle.nullDevice
            manager.standardError = FileHandle.nullDevice
            try manager.run()
            // The WM is up once it has announced itself on the root window.
            var said = ""
            while Date() < deadline {
                let check = try x(["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"])
                if check.stdout.contains("window id") { return }
                said = (check.stdout + check.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
                Thread.sleep(forTimeInterval: 0.05)
            }
            throw MediaError("openbox did not start on \(name) (xprop: \(said))"
                             + (manager.isRunning ? "" : " (it exited with status \(manager.terminationStatus))"))
        }

        // Foundation starts children with SIGTERM blocked: SIGKILL both, and
        // take away the server's lock and socket, which a killed server leaves.
        deinit {
            for p in [manager, server] where p.isRunning { kill(p.processIdentifier, SIGKILL) }
            for p in [manager, server] { p.waitUntilExit() }
            let number = name.dropFirst()
            try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
        }

        /// Runs an X tool on this display.
        @discardableResult
        func x(_ command: [String]) throws -> ProcessResult {
            try runProcess("/usr/bin/env", ["DISPLAY=\(name)"] + command, timeout: 20)
        }

        func window(_ pattern: String) throws -> String? {
            try x(["xdotool", "search", "--name", pattern]).stdout.split(separator: "\n").first.map(String.init)
        }

        /// The first window whose name matches, once there is one (up to `seconds`).
        func awaitWindow(_ pattern: String, seconds: Double = 10) throws -> String? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let found = try window(pattern) { return found }
                Thread.sleep(forTimeInterval: 0.1)  // polling for the window
            }
            return try window(pattern)
        }

        func state(_ window: String) throws -> String {
            try x(["xprop", "-id", window, "_NET_WM_STATE"]).stdout
        }

        /// The managed windows, bottom to top, as the WM stacks them.
        func stacking() throws -> [Int] {
            let line = try x(["xprop", "-root", "_NET_CLIENT_LIST_STACKING"]).stdout
            return line.split(separator: "#").last.map { $0.split(separator: ",").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2), radix: 16)
            } } ?? []
        }

        func geometry(_ window: String) throws -> Rect {
            let text = try x(["xdotool", "getwindowgeometry", "--shell", window]).stdout
            func value(_ key: String) -> Int {
                text.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) } ?? 0
            }
            return Rect(x: value("X"), y: value("Y"), width: value("WIDTH"), height: value("HEIGHT"))
        }
    }

    @Test func pipStaysOnTopOfAFullscreenMainWindowAndRestores() throws {
        let display = try ManagedDisplay()
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try ScreenTests.RunningApp([Fixtures.asset("demo.mp4"), "--loop", "inf", "--geometry", "640x360",
                                              "--input-ipc-server", dir.appendingPathComponent("ipc.sock").path],
                                             audio: ["SDL_AUDIODRIVER": "dummy", "DISPLAY": display.name])
        defer { app.stop() }
        let mainWindow = try #require(try display.awaitWindow(" - DeskPlayer$"), "no main window: \(app.errors)")
        let client = try #require(app.control)
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > 0.3 }, "it plays")
        try display.x(["xdotool", "windowactivate", "--sync", mainWindow])
        try display.x(["xdotool", "key", "ctrl+p"])
        let pip = try #require(try display.awaitWindow(" - PiP$"), "no PiP window: \(app.errors)")
        _ = try eventually { try display.state(pip).contains("_NET_WM_STATE_ABOVE") }
        #expect(try display.state(pip).contains("_NET_WM_STATE_ABOVE"), "the WM keeps PiP above")
        let size = try display.geometry(pip)
        #expect(abs(Double(size.width) / Double(max(size.height, 1)) - 16.0 / 9) < 0.02, "PiP is \(size)")
        #expect(size.x + size.width <= 1280 && size.y + size.height <= 720, "inside the screen: \(size)")

        // Fullscreen on the main window: PiP stays stacked above it.
        try display.x(["xdotool", "windowactivate", "--sync", mainWindow])
        try display.x(["xdotool", "key", "f"])
        #expect(try eventually { try display.state(mainWindow).contains("_NET_WM_STATE_FULLSCREEN") }, "the main window went fullscreen")
        let order = try display.stacking()
        let mainIndex = order.firstIndex(of: Int(mainWindow) ?? -1), pipIndex = order.firstIndex(of: Int(pip) ?? -1)
        #expect((pipIndex ?? -1) > (mainIndex ?? Int.max), "stacking bottom to top: \(order)")

        // Drag the mini window by its middle: the WM moves it.
        let before = try display.geometry(pip)
        try display.x(["xdotool", "mousemove", String(before.x + before.width / 2), String(before.y + before.height / 3),
                       "mousedown", "1", "sleep", "0.2", "mousemove_relative", "--", "-40", "-30", "sleep", "0.1",
                       "mousemove_relative", "--", "-160", "-90", "sleep", "0.2", "mouseup", "1"])
        var after = before
        _ = try eventually {
            after = try display.geometry(pip)
            return after.x < before.x - 100 && after.y < before.y - 60
        }
        #expect(after.x < before.x - 100 && after.y < before.y - 60, "dragged from \(before) to \(after)")

        // Out of fullscreen, minimizing the main window leaves the mini window
        // on screen (it is not a transient any more).
        try display.x(["xdotool", "windowactivate", "--sync", mainWindow])
        try display.x(["xdotool", "key", "f"])
        #expect(try eventually { try !display.state(mainWindow).contains("_NET_WM_STATE_FULLSCREEN") }, "out of fullscreen")
        try display.x(["xdotool", "windowminimize", "--sync", mainWindow])
        #expect(try eventually { try display.state(mainWindow).contains("_NET_WM_STATE_HIDDEN") }, "the main window is minimized")
        #expect(try display.x(["xwininfo", "-id", pip]).stdout.contains("IsViewable"), "PiP stays on screen")

        // Esc in the mini window restores: one window is left, raised, playing.
        try display.x(["xdotool", "windowactivate", "--sync", pip])
        try display.x(["xdotool", "key", "Escape"])
        #expect(try eventually { try display.window(" - PiP$") == nil }, "the PiP window closed")
        #expect(try display.window(" - DeskPlayer$") != nil && app.process.isRunning, "\(app.errors)")
        #expect(try eventually { try !display.state(mainWindow).contains("_NET_WM_STATE_HIDDEN") },
                "restore raised the main window")
    }

    /// Minimized, the video goes on unseen (its pictures are not made, the
    /// time and sound go on); shown again, the picture is the one of now,
    /// also after a pause and a seek made while it was away.
    @Test func aMinimizedWindowPlaysOnAndShowsThePictureOfNowWhenRestored() throws {
        let display = try ManagedDisplay()
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let clip = try CompareMedia.path("ref.mp4")
        let app = try ScreenTests.RunningApp([clip, "--loop", "inf", "--geometry", "640x360", "--no-config",
                                              "--input-ipc-server", socket],
                                             audio: ["SDL_AUDIODRIVER": "dummy", "DISPLAY": display.name])
        defer { app.stop() }
        let mainWindow = try #require(try display.awaitWindow(" - DeskPlayer$"), "no main window: \(app.errors)")
        let client = try ControlSocketTests.Client(path: socket)
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > 0.5 }, "it plays")
        try display.x(["xdotool", "windowminimize", "--sync", mainWindow])
        #expect(try display.state(mainWindow).contains("_NET_WM_STATE_HIDDEN"), "the main window is minimized")
        let before = client.get("time-pos")?.number ?? -1
        Thread.sleep(forTimeInterval: 1.5)  // measuring: 1.5 s of play while minimized
        let after = client.get("time-pos")?.number ?? -1
        #expect(after - before > 1.0 || after < before, "the time goes on while minimized: \(before) -> \(after)")
        let unseen = client.get("frames-unseen")?.number ?? 0
        // 1.5 s of 30 fps: the frames no other refers to are not even decoded
        // while unseen (x264's B-frames here), the others come due unconverted.
        #expect(unseen >= 10, "frames came due unseen: \(unseen)")

        // Paused and moved while unseen: the restored window shows that frame.
        #expect(client.error([.string("set_property"), .string("pause"), .bool(true)]) == "success")
        #expect(client.error([.string("seek"), .number(3), .string("absolute+exact")]) == "success")
        #expect(eventually { client.get("seeking") == .bool(false) && abs((client.get("time-pos")?.number ?? 0) - 3) < 0.02 },
                "the seek to 3 s is done: \(client.get("time-pos") ?? .null)")
        try display.x(["xdotool", "windowactivate", "--sync", mainWindow])
        #expect(try !display.state(mainWindow).contains("_NET_WM_STATE_HIDDEN"), "restored")
        let expected = try CompareMedia.frame(clip, at: 3, 640, 360, in: dir)
        // Below the OSD line (the seek's time), above the bar. The WM
        // animates the restore: the window's place is read on each try.
        var psnr = 0.0
        _ = try eventually(seconds: 5) {
            let info = try display.x(["xwininfo", "-id", mainWindow]).stdout
            func value(_ key: String) -> Int {
                info.split(separator: "\n").first { $0.contains(key) }.flatMap { $0.split(separator: ":").last }
                    .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
            }
            let x = value("Absolute upper-left X"), y = value("Absolute upper-left Y")
            guard x >= 0, y >= 0, x + 640 <= 1280, y + 360 <= 720 else { return false }
            let shot = dir.appendingPathComponent("restored.ppm").path
            let grab = try display.x(["ffmpeg", "-v", "error", "-y", "-f", "x11grab", "-video_size", "640x360",
                                      "-i", "\(display.name)+\(x),\(y)", "-frames:v", "1", shot])
            guard grab.status == 0 else { throw MediaError("x11grab at \(x),\(y): \(grab.stderr)") }
            psnr = expected.crop(0, 60, 640, 240).psnr(try PPMImage(path: shot).crop(0, 60, 640, 240))
            return psnr > 35
        }
        #expect(psnr > 35, "the restored window shows the frame at 3 s: \(psnr) dB")

        // Playing on, seen: every frame is made again.
        #expect(client.error([.string("set_property"), .string("pause"), .bool(false)]) == "success")
        let seenFrom = client.get("frames-unseen")?.number ?? -1
        Thread.sleep(forTimeInterval: 1)  // nothing must happen for 1 s: no frame unseen while shown
        #expect(client.get("frames-unseen")?.number == seenFrom, "no frame goes by unseen while the window shows")

        // A window over it whole (another app, full screen): unseen again;
        // uncovered, it shows the picture of now.
        let cover = try ScreenTests.RunningApp(["--idle", "--no-config", "--geometry", "1280x720+0+0"],
                                               audio: ["SDL_AUDIODRIVER": "dummy", "DISPLAY": display.name])
        defer { cover.stop() }
        #expect(eventually(seconds: 5) { (client.get("frames-unseen")?.number ?? 0) > seenFrom + 10 },
                "frames go by unseen under a window that covers it: \(String(describing: client.get("frames-unseen")))")
        cover.stop()
        let uncovered = client.get("frames-unseen")?.number ?? -1
        Thread.sleep(forTimeInterval: 1)  // measuring: 1 s of play after uncovering (at most the queue unseen)
        // What was queued while covered still comes due unconverted: at most
        // the frame queue's five and the one being decoded.
        #expect((client.get("frames-unseen")?.number ?? -1) <= uncovered + 6, "uncovered, the frames are made again")
        #expect(app.process.isRunning, "\(app.errors)")
    }
}
