// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
@testable import UI
import TestSupport

/// What a person sees: the app in a real X window (Xvfb under `make test`),
/// screenshots grabbed from the X server, keys typed through XTEST. One
/// window at a time, at the screen's top-left corner.
@Suite(.serialized, .enabled(if: ProcessInfo.processInfo.environment["DISPLAY"] != nil,
                             "needs an X display: `make test` runs the suite under xvfb-run"))
struct ScreenTests {
    let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""

    /// A running app; terminated when the test is done with it.
    final class RunningApp {
        let process = Process()
        let errorLog = FileManager.default.temporaryDirectory.appendingPathComponent("deskplayer-\(UUID().uuidString).err")

        /// What the app wrote to stderr so far (for failure messages).
        var errors: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

        /// The app's control socket: the one its arguments name, or one of its
        /// own for a paused app (a socket implies --keep-open, which only a
        /// paused app can take without changing what the test sees).
        let socketPath: String?
        private var connection: ControlSocketTests.Client?

        /// `environment` adds to the app's environment over `audio` (nil removes a
        /// variable): a made-up home's `HOME` and `XDG_*`, a `LANGUAGE`.
        init(_ arguments: [String], audio: [String: String] = ["SDL_AUDIODRIVER": "dummy"],
             environment: [String: String?] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: Fixtures.binary)
            var arguments = arguments
            if let i = arguments.firstIndex(of: "--input-ipc-server"), arguments.indices.contains(i + 1) {
                socketPath = arguments[i + 1]
            } else if arguments.contains("--pause") {
                let path = errorLog.deletingPathExtension().path + ".sock"
                arguments += ["--input-ipc-server", path]
                socketPath = path
            } else {
                socketPath = nil
            }
            process.arguments = arguments
            var env = Fixtures.appEnvironment
            for (k, v) in audio { env[k] = v }
            for (k, v) in environment { env[k] = v }
            env.removeValue(forKey: "SDL_VIDEODRIVER")
            process.environment = env
            process.standardOutput = FileHandle.nullDevice
            try Data().write(to: errorLog)
            process.standardError = try FileHandle(forWritingTo: errorLog)
            try process.run()
        }
        /// Waits (up to 10 s) until the app's window is on screen, so keys
        /// typed next reach it even on a loaded machine.
        func waitForWindow() {
            _ = try? runTool("xdotool", ["search", "--sync", "--onlyvisible", "--pid", "\(process.processIdentifier)"],
                             timeout: 10)
        }

        /// A client of the control socket (connected at first use), nil without one.
        var control: ControlSocketTests.Client? {
            if connection == nil, let socketPath { connection = try? ControlSocketTests.Client(path: socketPath) }
            return connection
        }

        /// Waits until the window says it has nothing more to draw
        /// (`window-settled`: pictures made for their layouts, players at
        /// rest, no OSD line or control bar left to go) and grabs it; a grab
        /// counts only when no present came while it was taken.
        func grabSettled(_ width: Int, _ height: Int, to path: String, grab: (Int, Int, String) throws -> PPMImage) throws -> PPMImage {
            guard let client = control else { throw MediaError("no control socket to wait on: \(errors)") }
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                // The pointer off the window (a tile under it shows its controls), on every
                // pass: until the app connects, Xvfb resets when xdotool leaves and puts it back.
                try runTool("xdotool", ["mousemove", "1919", "1079"])
                if client.get("window-settled") == .bool(true), let presents = client.get("window-presents") {
                    let image = try grab(width, height, path)
                    if client.get("window-presents") == presents && client.get("window-settled") == .bool(true) {
                        return image
                    }
                }
                Thread.sleep(forTimeInterval: 0.05)  // polling the state above, not waiting for it to pass
            }
            throw MediaError("the window never settled (\(client.get("window-unsettled-by")?.string ?? "?")): \(errors)")
        }

        func stop() {
            if process.isRunning { process.terminate() }
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        deinit {
            stop()
            try? FileManager.default.removeItem(at: errorLog)
        }
    }

    /// An X window's position and size, as xdotool reports them.
    func geometry(of window: String) throws -> Rect {
        let text = try runTool("xdotool", ["getwindowgeometry", "--shell", window]).stdout
        func value(_ key: String) -> Int {
            text.split(separator: "\n").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) } ?? 0
        }
        return Rect(x: value("X"), y: value("Y"), width: value("WIDTH"), height: value("HEIGHT"))
    }

    /// The first window whose name matches, if any.
    func findWindow(_ pattern: String) throws -> String? {
        try runTool("xdotool", ["search", "--name", pattern]).stdout.split(separator: "\n").first.map(String.init)
    }

    /// Grabs `width`x`height` of the screen from `origin` with ffmpeg's
    /// x11grab; its error is said when it writes no picture.
    func grab(_ width: Int, _ height: Int, at origin: (x: Int, y: Int) = (0, 0), to path: String) throws -> PPMImage {
        let result = try runTool("ffmpeg", ["-v", "error", "-y", "-f", "x11grab", "-video_size", "\(width)x\(height)",
                                            "-i", "\(display)+\(origin.x),\(origin.y)", "-frames:v", "1", path])
        guard result.status == 0 else {
            throw MediaError("x11grab of \(width)x\(height): \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return try PPMImage(path: path)
    }

    /// The window once settled (`RunningApp.grabSettled`).
    func grabSettled(_ app: RunningApp, _ width: Int, _ height: Int, to path: String) throws -> PPMImage {
        try app.grabSettled(width, height, to: path) { w, h, p in try grab(w, h, to: p) }
    }

    func reference(_ filter: String, to path: String) throws -> PPMImage {
        try runTool("ffmpeg", ["-v", "error", "-y", "-ss", "2", "-i", Fixtures.asset("demo.mp4"), "-frames:v", "1",
                               "-vf", filter, path])
        return try PPMImage(path: path)
    }

    /// Paused, the window made larger: the frame on screen is made again at
    /// the new size from the decoded picture its view holds, nothing decoded
    /// again. It is ffmpeg's decode of that frame at that size (the small
    /// picture stretched would be some 8 dB further), and the presenter
    /// showed no frame more (a redraw by seeking shows a second). From
    /// 640x360, half the video's size, the frame was decoded fast (no loop
    /// filter) and is decoded again: the same picture, a frame more shown.
    @Test(arguments: [(960, 540, 1), (640, 360, 2)])
    func aPausedPictureIsMadeAgainAtANewSizeWithoutDecoding(_ width: Int, _ height: Int, _ presented: Int) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stats = dir.appendingPathComponent("stats.json")
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--start", "2", "--pause", "--geometry",
                                  "\(width)x\(height)+0+0", "--stats-json", stats.path])
        defer { app.stop() }
        _ = try grabSettled(app, width, height, to: dir.appendingPathComponent("small.ppm").path)
        let window = try #require(try findWindow("DeskPlayer$"), "no window")
        try runTool("xdotool", ["windowsize", "--sync", window, "1280", "720"])
        let shot = try grabSettled(app, 1280, 720, to: dir.appendingPathComponent("large.ppm").path)
        let ref = try reference("null", to: dir.appendingPathComponent("ref.ppm").path)
        let psnr = ref.psnr(shot)
        print("paused at \(width)x\(height), made again at 1280x720: PSNR \(String(format: "%.1f", psnr)) dB")
        #expect(psnr > 60, "the picture at the new size: PSNR \(psnr) dB\n\(app.errors)")
        app.stop()
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect(report.players.first?.framesPresented == presented, "\(String(describing: report.players.first))")
    }

    /// The frame at 2 s, paused, in each content mode; compared with ffmpeg's
    /// decode of the same frame placed the same way.
    @Test(arguments: [
        ("fit", 1280, 720, "null"),
        ("fit", 960, 720, displayScale(960, 540) + ",pad=960:720:0:90:black"),
        ("fill", 960, 720, "crop=960:720:160:0"),
        ("stretch", 960, 720, displayScale(960, 720)),
    ])
    func contentModesShowTheRightFrameInTheRightPlace(_ mode: String, _ width: Int, _ height: Int,
                                                     _ filter: String) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--start", "2", "--pause", "--content-mode", mode,
                                  "--geometry", "\(width)x\(height)+0+0"])
        defer { app.stop() }
        let shot = try grabSettled(app, width, height, to: dir.appendingPathComponent("shot.ppm").path)
        let ref = try reference(filter, to: dir.appendingPathComponent("ref.ppm").path)
        let psnr = ref.psnr(shot)
        print("screenshot \(mode) \(width)x\(height): PSNR \(String(format: "%.1f", psnr)) dB")
        #expect(psnr > 35, "\(mode) \(width)x\(height): PSNR \(psnr) dB")
    }

    @Test func anErrorIsDrawnInTheWindow() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try RunningApp(["/nonexistent/clip.mp4", "--geometry", "640x360+0+0", "--keep-open",
                                  "--input-ipc-server", dir.appendingPathComponent("ipc.sock").path])
        defer { app.stop() }
        // The message is drawn in the error colour (255, 120, 110) on the dark area.
        func reddish(_ shot: PPMImage) -> Int {
            stride(from: 0, to: shot.pixels.count, by: 3).filter {
                shot.pixels[$0] > 200 && shot.pixels[$0 + 1] < 160 && shot.pixels[$0 + 2] < 160
            }.count
        }
        // Once the failure is reported and drawn, the window settles (a loaded
        // run once spent the 10 s a poll of the screen allowed before it did).
        app.waitForWindow()
        let shot = try grabSettled(app, 640, 360, to: dir.appendingPathComponent("error.ppm").path)
        #expect(reddish(shot) > 200, "no error text visible: \(app.errors)")
        #expect(shot.meanLevel < 60, "the background should stay dark")
    }

    /// Keys typed as a person types them: pause freezes the picture, `.`
    /// steps exactly one frame, `q` quits.
    @Test func keyboardPausesStepsAndQuits() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--geometry", "640x360+0+0", "--input-ipc-server", socket])
        defer { app.stop() }
        app.waitForWindow()
        let client = try #require(app.control)
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > 0.5 }, "it plays")
        try runTool("xdotool", ["mousemove", "320", "180"])
        try runTool("xdotool", ["key", "space"])
        #expect(eventually { client.get("pause") == .bool(true) }, "space pauses")
        let paused = try grabSettled(app, 640, 360, to: dir.appendingPathComponent("a.ppm").path)
        let pausedAt = client.get("time-pos")
        // Time passing is what this checks: paused, nothing moves meanwhile.
        Thread.sleep(forTimeInterval: 0.7)  // nothing must happen for 0.7 s: paused
        let later = try grab(640, 360, to: dir.appendingPathComponent("b.ppm").path)
        #expect(paused.pixels == later.pixels, "the picture moved while paused")
        #expect(client.get("time-pos") == pausedAt, "the time moved while paused")
        try runTool("xdotool", ["key", "period"])
        #expect(eventually { client.get("time-pos") != pausedAt }, "period steps a frame")
        let stepped = try grabSettled(app, 640, 360, to: dir.appendingPathComponent("c.ppm").path)
        #expect(stepped.pixels != later.pixels, "frame step did not change the picture")
        try runTool("xdotool", ["key", "q"])
        let deadline = Date().addingTimeInterval(5)
        while app.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!app.process.isRunning, "q did not quit")
        #expect(app.process.terminationStatus == 0)
    }

    /// Clicking a tile focuses it and keys act on it alone: Space pauses the
    /// right tile while the left one plays on.
    @Test func clickFocusesATileAndKeysActOnIt() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try RunningApp([Fixtures.asset("demo.mp4"), Fixtures.asset("demo.mp4"), "--layout", "side-by-side",
                                  "--geometry", "640x180+0+0", "--input-ipc-server", socket])
        defer { app.stop() }
        app.waitForWindow()
        let client = try #require(app.control)
        func paused() -> [Bool] {
            guard case .array(let tiles)? = client.get("tiles") else { return [] }
            return tiles.map { $0["pause"] == .bool(true) }
        }
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > 0.3 }, "it plays")
        try runTool("xdotool", ["mousemove", "480", "90", "click", "1"])
        try runTool("xdotool", ["key", "space"])
        // The pointer off the window: over video it hides after a second at
        // rest, which would change the grabs between them.
        try runTool("xdotool", ["mousemove", "1919", "1079"])
        #expect(eventually { paused() == [false, true] }, "the right tile pauses: \(paused())")
        _ = eventually { client.get("window-unsettled-by") == .string("tile 1: player playing") }
        let a = try grab(640, 180, to: dir.appendingPathComponent("a.ppm").path)
        // Time passing is what this checks: one tile moves, the other does not.
        Thread.sleep(forTimeInterval: 0.5)  // measuring: 0.5 s in which one tile moves and the other must not
        let b = try grab(640, 180, to: dir.appendingPathComponent("b.ppm").path)
        func half(_ image: PPMImage, right: Bool) -> [UInt8] {
            var out: [UInt8] = []
            // Inside the tile, clear of the 2 px focus outline.
            for y in 10..<170 {
                let x0 = right ? 330 : 10
                out += image.pixels[(y * 640 + x0) * 3..<(y * 640 + x0 + 300) * 3]
            }
            return out
        }
        #expect(half(a, right: true) == half(b, right: true), "the focused (right) tile should be paused")
        #expect(half(a, right: false) != half(b, right: false), "the left tile should still play")
    }

    /// Ctrl+P moves the player into an always-on-top mini window with the
    /// video's aspect; Esc in it restores it to the main window. Audio and
    /// frames go on through both moves: no gap, no frame lost.
    @Test func pictureInPictureStartsAndRestoresWithoutAGap() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let raw = dir.appendingPathComponent("out.raw"), stats = dir.appendingPathComponent("stats.json")
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--geometry", "640x360+0+0", "--stats-json", stats.path],
                                 audio: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": raw.path])
        defer { app.stop() }
        app.waitForWindow()
        Thread.sleep(forTimeInterval: 1.5)  // pacing: 1.5 s of sound and frames before the move (no socket: it must quit at its end)
        try runTool("xdotool", ["mousemove", "320", "180", "key", "ctrl+p"])
        _ = try eventually { try findWindow(" - PiP$") != nil }
        let pipWindow = try #require(try findWindow(" - PiP$"), "no PiP window")
        let state = try runTool("xprop", ["-id", pipWindow, "_NET_WM_STATE"]).stdout
        #expect(state.contains("_NET_WM_STATE_ABOVE"), "\(state)")
        let g = try geometry(of: pipWindow)
        #expect(g.width > 0 && abs(Double(g.width) / Double(max(g.height, 1)) - 16.0 / 9) < 0.02, "PiP is \(g)")
        // Focus the mini window and press Esc: back into the main window.
        try runTool("xdotool", ["mousemove", String(g.x + g.width / 2), String(g.y + g.height / 3), "click", "1",
                                "key", "Escape"])
        #expect(try eventually { try findWindow(" - PiP$") == nil }, "PiP window still open")
        let deadline = Date().addingTimeInterval(20)
        while app.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }  // polling for the exit
        #expect(!app.process.isRunning && app.process.terminationStatus == 0,
                "status \(app.process.terminationStatus) (\(app.process.terminationReason == .uncaughtSignal ? "signal" : "exit")): \(app.errors)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect(report.players.first?.framesPresented == 300)
        #expect(report.players.first?.audioUnderruns == 0)
        let left = try CapturedAudio.leftChannel(raw)
        let first = try #require(left.firstIndex { $0 != 0 }), last = try #require(left.lastIndex { $0 != 0 })
        #expect(abs((last - first + 1) - 480_000) <= 2)
        #expect(CapturedAudio.longestSilence(left[first...last]) < 3)
    }

    /// Restore into another tile replaces what plays there (that player
    /// stops); the ✕ button closes the PiP player.
    @Test func restoreReplacesTheFocusedTileAndCloseStopsThePlayer() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stats = dir.appendingPathComponent("stats.json")
        let app = try RunningApp([Fixtures.asset("demo.mp4"), Fixtures.asset("compare.mp4"), "--layout", "side-by-side",
                                  "--geometry", "640x180+0+0", "--stats-json", stats.path])
        defer { app.stop() }
        app.waitForWindow()
        Thread.sleep(forTimeInterval: 1.5)  // pacing: both play a while before the moves (no socket: it must quit at its end)
        // The left tile (demo) goes to PiP; then the right tile gets focus.
        try runTool("xdotool", ["mousemove", "160", "90", "click", "1", "key", "ctrl+p"])
        _ = try eventually { try findWindow(" - PiP$") != nil }
        try runTool("xdotool", ["mousemove", "480", "90", "click", "1"])
        let pip = try geometry(of: try #require(try findWindow(" - PiP$"), "no PiP window"))
        try runTool("xdotool", ["mousemove", String(pip.x + 40), String(pip.y + 40), "click", "1", "key", "Escape"])
        #expect(try eventually { try findWindow(" - PiP$") == nil }, "restored")
        // One tile is left, the restored demo, over the whole window.
        let shot = try grab(640, 180, to: dir.appendingPathComponent("restored.ppm").path)
        #expect(shot.meanLevel > 20, "the restored player should fill the window")
        // Now PiP again and close it with its ✕ button: the player stops, the
        // app has nothing left to play and quits by itself. (Xvfb has no window
        // manager to give the main window the keyboard back: do it as one would.)
        let main = try #require(try findWindow("DeskPlayer$"))
        try runTool("xdotool", ["windowfocus", "--sync", main])
        try runTool("xdotool", ["mousemove", "320", "90", "key", "ctrl+p"])
        _ = try eventually { try findWindow(" - PiP$") != nil }
        let second = try geometry(of: try #require(try findWindow(" - PiP$"), "no second PiP window"))
        let close = try #require(PiPWindow.buttons(in: Rect(x: 0, y: 0, width: second.width, height: second.height))
            .first { $0.0 == .close }?.1)
        try runTool("xdotool", ["mousemove", String(second.x + close.x + close.width / 2),
                                String(second.y + close.y + close.height / 2)])
        Thread.sleep(forTimeInterval: 0.3)  // pacing: the pointer rests on ✕ before the click, as a hand does
        try runTool("xdotool", ["click", "1"])
        let deadline = Date().addingTimeInterval(5)
        while app.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!app.process.isRunning, "closing the last player should end the app")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        // compare.mp4 was replaced by the restore (stopped early), demo closed from PiP.
        let compare = try #require(report.players.first { $0.item.hasSuffix("compare.mp4") })
        #expect(compare.framesPresented < 150, "the replaced player should have stopped at the restore")
        #expect(report.players.contains { $0.item.hasSuffix("demo.mp4") && $0.framesPresented < 250 })
    }

    /// Closing tiles frees what they held: four looping tiles closed down to
    /// one use no more memory (RSS within 5 %) than one tile from the start.
    @Test func closingTilesGivesTheirMemoryBack() throws {
        func residentKB(_ process: Process) -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        func settledRSS(tiles: Int, closing: Int) throws -> Int {
            let socket = FileManager.default.temporaryDirectory.appendingPathComponent("deskplayer-\(UUID().uuidString).sock").path
            defer { try? FileManager.default.removeItem(atPath: socket) }
            let app = try RunningApp(Array(repeating: Fixtures.asset("demo.mp4"), count: tiles)
                                     + ["--layout", "grid", "--loop", "inf", "--geometry", "1280x720+0+0",
                                        "--input-ipc-server", socket])
            defer { app.stop() }
            app.waitForWindow()
            let client = try #require(app.control)
            func tileCount() -> Int {
                guard case .array(let t)? = client.get("tiles") else { return -1 }
                return t.count
            }
            #expect(eventually { tileCount() == tiles && (client.get("time-pos")?.number ?? 0) > 0.5 }, "the tiles play")
            let window = try #require(try findWindow("DeskPlayer$"))
            for closed in stride(from: 1, through: closing, by: 1) {
                try runTool("xdotool", ["windowfocus", "--sync", window])
                try runTool("xdotool", ["key", "--window", window, "ctrl+w"])
                #expect(eventually { tileCount() == tiles - closed }, "ctrl+w closes a tile: \(tileCount()) left")
            }
            Thread.sleep(forTimeInterval: 3)  // measuring: the memory after 3 s of play on the tile left
            #expect(app.process.isRunning, "the last tile should play on: \(app.errors)")
            return residentKB(app.process)
        }
        let one = try settledRSS(tiles: 1, closing: 0)
        let closedDown = try settledRSS(tiles: 4, closing: 3)
        #expect(one > 0 && closedDown > 0)
        #expect(Double(closedDown) <= Double(one) * 1.05,
                "4 tiles closed down to 1: \(closedDown) kB; 1 tile from the start: \(one) kB")
    }

    /// A composition keeps playing while its window is hidden: every sample
    /// of the export reaches the device, none missing, none repeated.
    @Test func aCompositionPlaysOnWhileTheWindowIsHidden() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sources = [Fixtures.asset("tone.wav"), Fixtures.asset("tone.flac"), Fixtures.asset("tone.mp3")]
        let exported = dir.appendingPathComponent("mix.wav"), raw = dir.appendingPathComponent("played.raw")
        let export = try runProcess(Fixtures.binary, ["--crossfade", "0.5", "--export-audio", exported.path] + sources)
        #expect(export.status == 0, "\(export.stderr)")
        let app = try RunningApp(["--crossfade", "0.5", "--geometry", "640x240+0+0"] + sources,
                                 audio: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": raw.path])
        defer { app.stop() }
        app.waitForWindow()
        let window = try #require(try findWindow("DeskPlayer$"))
        Thread.sleep(forTimeInterval: 1)  // pacing: a second of the composition heard with the window shown
        try runTool("xdotool", ["windowunmap", "--sync", window])
        let deadline = Date().addingTimeInterval(15)
        while app.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!app.process.isRunning, "the composition should play to its end and quit: \(app.errors)")
        let mix = try Data(contentsOf: exported).dropFirst(58)  // the float WAV header DeskPlayer writes
        let expected = mix.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let capture = try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let start = stride(from: 0, to: max(0, capture.count - expected.count), by: 2).first {
            capture[$0..<($0 + 64)].elementsEqual(expected[0..<64])
        }
        let at = try #require(start, "the composition's samples never start in the capture")
        #expect(capture[at..<min(capture.count, at + expected.count)].elementsEqual(expected),
                "every sample was heard, the window hidden for most of them")
    }

    /// The button a tile shows under the mouse starts Picture in Picture for
    /// that tile; `--max-pip` limits how many mini windows open.
    @Test func aTileButtonStartsPiPUpToTheLimit() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("deskplayer-\(UUID().uuidString).sock").path
        defer { try? FileManager.default.removeItem(atPath: socket) }
        let app = try RunningApp([Fixtures.asset("demo.mp4"), Fixtures.asset("compare.mp4"), "--layout", "side-by-side",
                                  "--geometry", "640x180+0+0", "--max-pip", "1", "--input-ipc-server", socket])
        defer { app.stop() }
        app.waitForWindow()
        // Both tiles play (their buttons show under the pointer once they have a picture).
        let client = try #require(app.control)
        func playing() -> Bool {
            guard case .array(let tiles)? = client.get("tiles"), tiles.count == 2 else { return false }
            return tiles.allSatisfy { $0["filename"] != .null && $0["pause"] == .bool(false) }
        }
        #expect(eventually { playing() && (client.get("time-pos")?.number ?? 0) > 0.3 }, "both tiles play")
        let right = MainWindow.pipButton(in: Rect(x: 320, y: 0, width: 320, height: 180))
        try runTool("xdotool", ["mousemove", "480", "90", "sleep", "0.2", "mousemove", String(right.x + right.width / 2),
                                String(right.y + right.height / 2), "sleep", "0.3", "click", "1"])
        #expect(try eventually { try findWindow("^compare.mp4 - PiP$") != nil }, "the right tile's player should be in PiP")
        #expect(try findWindow("^demo.mp4 - PiP$") == nil)
        // The left tile's button: over the limit of one, so no second window.
        let left = MainWindow.pipButton(in: Rect(x: 0, y: 0, width: 320, height: 180))
        try runTool("xdotool", ["mousemove", "160", "90", "sleep", "0.2", "mousemove", String(left.x + left.width / 2),
                                String(left.y + left.height / 2), "sleep", "0.3", "click", "1"])
        // Nothing is to happen: a second lets a window that should not open show itself.
        Thread.sleep(forTimeInterval: 1)  // nothing must happen for 1 s: no second PiP window
        #expect(try findWindow("^demo.mp4 - PiP$") == nil, "--max-pip 1 allows one mini window")
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// A person at the window and a script on the socket at once: keys and a
    /// click on the seek bar, a file "dropped" through `loadfile`, and the
    /// state read back through the socket.
    @Test func keysTheSeekBarAndTheSocketDriveOnePlayer() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--pause", "--geometry", "640x360+0+0", "--no-config",
                                  "--input-ipc-server", socket, "--screenshot-dir", dir.path])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") == .number(10))

        // Keys: mute, volume down twice.
        try runTool("xdotool", ["mousemove", "320", "100", "sleep", "0.2", "key", "m", "key", "9", "key", "9"])
        #expect(eventually { client.get("mute") == .bool(true) && client.get("volume") == .number(96) },
                "mute \(client.get("mute") ?? .null), volume \(client.get("volume") ?? .null)")

        // The seek bar shows under the mouse; a click at 70 % of it seeks there.
        let bar = ControlBar(in: Rect(x: 0, y: 0, width: 640, height: 360))
        let x = bar.seekTrack.x + bar.seekTrack.width * 7 / 10, y = bar.seekTrack.y + bar.seekTrack.height / 2
        try runTool("xdotool", ["mousemove", String(x), String(y - 30), "sleep", "0.2", "mousemove", String(x), String(y),
                                "sleep", "0.3", "click", "1"])
        let expected = ControlBar.fraction(x: x, along: bar.seekTrack) * 10
        #expect(eventually { abs((client.get("time-pos")?.number ?? -1) - expected) < 0.001 },
                "clicked at \(expected) s, now at \(client.get("time-pos") ?? .null) s")

        // The play button plays; the socket sees it.
        let play = bar.playButton
        try runTool("xdotool", ["mousemove", String(play.x + play.width / 2), String(play.y + play.height / 2), "sleep", "0.2",
                                "click", "1"])
        #expect(eventually { client.get("pause") == .bool(false) }, "the play button plays")
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > expected }, "it plays on from there")

        // s saves the frame at the file's own size, S the window.
        try runTool("xdotool", ["key", "s", "key", "S"])
        let deadline = Date().addingTimeInterval(10)
        var shots: [String] = []
        while shots.count < 2 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)  // polling the folder for the screenshots
            shots = (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.filter { $0.hasSuffix(".png") } ?? []
        }
        #expect(shots.contains { $0.hasPrefix("deskplayer-demo-") } && shots.contains { $0.hasPrefix("deskplayer-window-") },
                "\(shots)")

        // A file arrives through the socket, as a drop would bring it.
        client.clearEvents()
        #expect(client.error([.string("loadfile"), .string(Fixtures.asset("compare.mp4"))]) == "success")
        #expect(client.waitForEvent("file-loaded"))
        #expect(client.get("path") == .string(Fixtures.asset("compare.mp4")))
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// Ctrl+O without a desktop dialog opens the built-in browser in the
    /// playing file's folder; Down and Enter play the next file there. Ctrl+R
    /// lists the files played, newest first.
    @Test func theBuiltInBrowserAndRecentFilesOpenMedia() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        // No zenity or kdialog on this PATH: the built-in browser it is.
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--pause", "--geometry", "960x540+0+0", "--no-config",
                                  "--input-ipc-server", socket],
                                 audio: ["SDL_AUDIODRIVER": "dummy", "PATH": dir.path, "XDG_STATE_HOME": dir.path])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") == .number(10))
        try runTool("xdotool", ["mousemove", "480", "270", "sleep", "0.2", "key", "ctrl+o", "sleep", "0.4"])
        _ = try grab(960, 540, to: dir.appendingPathComponent("browser.ppm").path)
        // assets/: "../", then compare.mp4, demo.mp4, ...
        try runTool("xdotool", ["key", "Down", "sleep", "0.2", "key", "Return"])
        client.clearEvents()
        #expect(client.waitForEvent("file-loaded"))
        #expect(client.get("path") == .string(Fixtures.asset("compare.mp4")))

        try runTool("xdotool", ["key", "ctrl+r", "sleep", "0.4", "key", "Down", "sleep", "0.2", "key", "Return"])
        client.clearEvents()
        #expect(client.waitForEvent("file-loaded"))
        #expect(client.get("path") == .string(Fixtures.asset("demo.mp4")), "the second most recent: the first file")
        #expect(app.process.isRunning, "\(app.errors)")
    }
}
