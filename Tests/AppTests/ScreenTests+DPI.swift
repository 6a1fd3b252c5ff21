// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
@testable import UI
import TestSupport

/// The UI scaled for the display's DPI, in an X server of its own (the
/// desktop's Xft.dpi set there with xrdb would scale every other test's window).
extension ScreenTests {
    /// A private Xvfb (`-noreset`: what xrdb sets stays when xrdb leaves); stopped at deinit.
    final class PrivateDisplay {
        let process = Process()
        let name: String

        init(width: Int, height: Int) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            process.arguments = ["-displayfd", "1", "-noreset", "-nolisten", "tcp", "-screen", "0", "\(width)x\(height)x24"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Xvfb writes its display number once it accepts clients.
            var text = ""
            while !text.contains("\n"), process.isRunning {
                let data = out.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw MediaError("Xvfb gave no display number: \(text)")
            }
            name = ":\(number)"
        }

        func run(_ tool: String, _ arguments: [String]) throws -> ProcessResult {
            try runProcess("/usr/bin/env", [tool] + arguments, environment: ["DISPLAY": name], timeout: 30)
        }

        /// The screen's top-left corner, the pointer left out.
        func grab(_ width: Int, _ height: Int, to path: String) throws -> PPMImage {
            let result = try run("ffmpeg", ["-v", "error", "-y", "-f", "x11grab", "-draw_mouse", "0", "-video_size",
                                            "\(width)x\(height)", "-i", name + "+0,0", "-frames:v", "1", path])
            guard result.status == 0 else { throw MediaError("x11grab: \(result.stderr)") }
            return try PPMImage(path: path)
        }

        deinit {
            // SIGKILL: Foundation's Process starts it with signals blocked, SIGTERM too.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// How many rows at the bottom of a paused 960x540 window the control
    /// bar darkens, in an X server whose Xft.dpi is `dpi` (nil: not set),
    /// and the `ui-scale` the app took.
    func controlBarHeight(xftDPI dpi: Int?, dir: URL) throws -> (scale: Double?, rows: Int) {
        let display = try PrivateDisplay(width: 1280, height: 720)
        if let dpi {
            let resources = dir.appendingPathComponent("Xresources")
            try Data("Xft.dpi: \(dpi)\n".utf8).write(to: resources)
            #expect(try display.run("xrdb", ["-nocpp", "-merge", resources.path]).status == 0)
        }
        let socket = dir.appendingPathComponent("ipc-\(dpi ?? 0).sock").path
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--pause", "--geometry", "960x540+0+0", "--no-config",
                                  "--no-resume", "--input-ipc-server", socket],
                                 audio: ["SDL_AUDIODRIVER": "dummy", "DISPLAY": display.name])
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") == .number(10), "\(app.errors)")
        let scale = client.get("ui-scale")?.number
        // Without the bar: the pointer off the window, everything drawn.
        _ = try display.run("xdotool", ["mousemove", "1279", "719"])
        #expect(eventually { client.get("window-settled") == .bool(true) }, "\(client.get("window-unsettled-by") ?? .null)")
        let plain = try display.grab(960, 540, to: dir.appendingPathComponent("plain.ppm").path)
        // The mouse over the picture shows the bar for two seconds.
        let presents = client.get("window-presents")?.number ?? 0
        _ = try display.run("xdotool", ["mousemove", "480", "150"])
        #expect(eventually(seconds: 2) { (client.get("window-presents")?.number ?? 0) > presents })
        let withBar = try display.grab(960, 540, to: dir.appendingPathComponent("bar.ppm").path)
        // Rows from the bottom up that the bar changed (its dark band over the picture).
        var rows = 0
        for y in stride(from: 539, through: 0, by: -1) {
            let start = y * 960 * 3, end = start + 960 * 3
            let changed = zip(plain.pixels[start..<end], withBar.pixels[start..<end]).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            guard Double(changed) / Double(960 * 3) > 20 else { break }
            rows += 1
        }
        app.stop()
        return (scale, rows)
    }

    /// An X server whose resource database says Xft.dpi: 192 (a 4K desktop
    /// at 200 %) gets the UI at twice the size: the control bar is twice as tall.
    @Test func xftDPI192DoublesTheControlBar() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let normal = try controlBarHeight(xftDPI: nil, dir: dir)
        let double = try controlBarHeight(xftDPI: 192, dir: dir)
        print("control bar: \(normal.rows) rows at ui-scale \(normal.scale ?? 0), \(double.rows) rows at Xft.dpi 192 (ui-scale \(double.scale ?? 0))")
        #expect(normal.scale == 1 && double.scale == 2)
        #expect(normal.rows == ControlBar.height, "\(normal.rows)")
        #expect(double.rows == 2 * ControlBar.height, "\(double.rows)")
    }
}
