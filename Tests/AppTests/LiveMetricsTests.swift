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

/// `--compare-metrics` while two files play compared: the values measured
/// on the side equal the scan's (FFmpeg's), and the `compare-metrics`
/// property turns them on and off through the socket. (A click on the
/// strip is in ScreenTests+Metrics, with the other tests of the screen.)
@Suite(.serialized) struct LiveMetricsTests {
    typealias Client = ControlSocketTests.Client

    /// Starts the app on the pair with a control socket; `headless` uses SDL's dummy video.
    static func start(_ arguments: [String], socket: String, headless: Bool, stderr: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixtures.binary)
        process.arguments = ["--no-config", "--no-resume"] + arguments + ["--input-ipc-server", socket]
        var env = Fixtures.appEnvironment
        env["SDL_AUDIODRIVER"] = "dummy"
        if headless { env["SDL_VIDEODRIVER"] = "dummy" } else { env.removeValue(forKey: "SDL_VIDEODRIVER") }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        return process
    }

    static func stop(_ process: Process) {
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Frames measured so far, as the property says.
    static func measured(_ client: Client) -> Int {
        Int(client.get("compare-metrics-measured")?["frames"]?.number ?? -1)
    }

    @Test func theCSVWrittenWhilePlayingEqualsTheScans() throws {
        let reference = try MetricsScanTests.reference()
        let other = try MetricsScanTests.Rendition.smallerSize.make(from: reference)
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = folder.appendingPathComponent("live.csv").path, scanned = folder.appendingPathComponent("scan.csv").path
        let socket = folder.appendingPathComponent("ipc.sock").path
        let log = folder.appendingPathComponent("err.txt")
        let process = try Self.start(["--compare", "wipe", "--compare-metrics", "ssim", "--compare-metrics-out", live, "--pause",
                                      reference, other], socket: socket, headless: true, stderr: log)
        defer { Self.stop(process) }
        let client = try Client(path: socket)
        // The CSV has every column: both metrics are measured.
        #expect(client.waitFor("compare-metrics")?.string == "psnr,ssim")
        #expect(eventually(seconds: 60) { Self.measured(client) == 75 }, "measured \(Self.measured(client))")
        #expect(client.get("compare-metrics-measured")?["of"]?.number == 75)
        _ = client.command([.string("quit")])
        Self.stop(process)
        #expect(process.terminationStatus == 0)
        let errors = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(errors.components(separatedBy: "is scaled to 320x180").count - 1 == 1, "\(errors)")
        let scan = try MetricsScanTests.scan(reference, other, csv: scanned)
        #expect(scan.status == 0)
        let ours = try String(contentsOfFile: live, encoding: .utf8), theirs = try String(contentsOfFile: scanned, encoding: .utf8)
        #expect(ours.split(separator: "\n").count == 76)
        #expect(ours == theirs)
    }

    @Test func thePropertyTurnsTheMetricsOnAndOff() throws {
        let reference = try MetricsScanTests.reference()
        let other = try MetricsScanTests.Rendition.otherEncoder.make(from: reference)
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("ipc.sock").path
        let process = try Self.start(["--compare", "wipe", "--pause", reference, other], socket: socket, headless: true,
                                     stderr: folder.appendingPathComponent("err.txt"))
        defer { Self.stop(process) }
        let client = try Client(path: socket)
        #expect(client.waitFor("compare-metrics")?.string == "no")
        #expect(client.get("compare-metrics-measured") == nil)
        #expect(client.error([.string("set_property"), .string("compare-metrics"), .string("psnr")]) == "success")
        #expect(client.get("compare-metrics")?.string == "psnr")
        #expect(eventually(seconds: 60) { Self.measured(client) == 75 })
        #expect(client.error([.string("set_property"), .string("compare-metrics"), .string("vmaf")]) == "invalid parameter")
        #expect(client.error([.string("set_property"), .string("compare-metrics"), .string("no")]) == "success")
        #expect(client.get("compare-metrics")?.string == "no")
        #expect(client.get("compare-metrics-measured") == nil)
        #expect(client.error([.string("cycle"), .string("compare-metrics")]) == "success")
        #expect(client.get("compare-metrics")?.string == "psnr,ssim")
        _ = client.command([.string("quit")])
    }
}
