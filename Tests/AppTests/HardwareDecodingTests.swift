// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
import TestSupport

/// `--hwdec` on this machine, which has no GPU: the default (auto-safe)
/// plays in software without a word; an explicit method says once why it
/// fell back and plays on; a device failing mid-stream (the injected
/// fault) falls back once, says so, and plays on. Driven over the control
/// socket, waiting for the state each check reads.
extension ControlSocketTests {
    /// This machine has no GPU (the checks of a fall back need none).
    static let noHardwareDevice = HardwareMethod.allCases.allSatisfy { $0.missingDevice() != nil }

    /// The lines about hardware decoding the player wrote to stderr.
    static func hardwareLines(_ url: URL) -> [String] {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { $0.contains("hardware decoding") }
    }

    /// Plays demo.mp4 with `arguments`; `body` runs with the client once the file has opened.
    func playWithHardwareDecoding(_ arguments: [String], environment: [String: String] = [:],
                                  _ body: (Client, URL) throws -> Void) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path, stderr = dir.appendingPathComponent("stderr.txt")
        let player = try startPlayer([Fixtures.asset("demo.mp4")] + arguments, socket: socket,
                                     environment: environment, stderr: stderr)
        defer { if player.isRunning { player.terminate() } }
        let client = try Client(path: socket)
        #expect(client.waitFor("duration") == .number(10))
        try body(client, stderr)
        #expect(client.error([.string("quit")]) == "success")
        #expect(waitForExit(player))
    }

    /// Waits until the play head passes `seconds`.
    func playsPast(_ seconds: Double, _ client: Client) -> Bool {
        eventually(seconds: 20) { (client.get("time-pos")?.number ?? 0) > seconds }
    }

    @Test(.enabled(if: noHardwareDevice)) func autoSafeDecodesInSoftwareSilently() throws {
        try playWithHardwareDecoding([]) { client, stderr in
            #expect(client.get("hwdec") == .string("auto-safe"))
            #expect(playsPast(1, client))
            #expect(client.get("hwdec-current") == .string("no"))
            #expect(client.get("hwdec-interop") == .string("no"))
            #expect(Self.hardwareLines(stderr).isEmpty, "\(Self.hardwareLines(stderr))")
            // Ctrl+h toggles it as in mpv: no, then auto-safe again.
            #expect(client.error([.string("keypress"), .string("Ctrl+h")]) == "success")
            #expect(client.get("hwdec") == .string("no"))
            #expect(client.error([.string("keypress"), .string("Ctrl+h")]) == "success")
            #expect(client.get("hwdec") == .string("auto-safe"))
            #expect(playsPast(2, client))
            #expect(Self.hardwareLines(stderr).isEmpty)
        }
    }

    @Test(.enabled(if: noHardwareDevice)) func anExplicitMethodSaysOnceWhyItFellBack() throws {
        try playWithHardwareDecoding(["--hwdec=vaapi"]) { client, stderr in
            #expect(client.get("hwdec") == .string("vaapi"))
            #expect(eventually(seconds: 10) { !Self.hardwareLines(stderr).isEmpty })
            #expect(playsPast(2, client))
            #expect(client.get("hwdec-current") == .string("no"))
            let lines = Self.hardwareLines(stderr)
            #expect(lines.count == 1, "\(lines)")
            #expect(lines.first?.contains("no VA-API device") == true && lines.first?.contains("software") == true)
        }
    }

    @Test func aDeviceFailingMidStreamFallsBackOnceAndPlaysOn() throws {
        let stats = Fixtures.temporaryDirectory().appendingPathComponent("stats.json")
        defer { try? FileManager.default.removeItem(at: stats.deletingLastPathComponent()) }
        try playWithHardwareDecoding(["--hwdec=vaapi", "--pause", "--stats-json", stats.path],
                                     environment: [HardwareFault.environmentName: "transfer-after:40"]) { client, stderr in
            #expect(eventually { client.get("hwdec-current") == .string("simulated") })
            #expect(Self.hardwareLines(stderr).isEmpty)
            #expect(client.error([.string("set_property"), .string("pause"), .bool(false)]) == "success")
            #expect(eventually(seconds: 20) { client.get("hwdec-current") == .string("no") })
            #expect(playsPast(3, client), "playback goes on after the fall back")
            let lines = Self.hardwareLines(stderr)
            #expect(lines.count == 1, "\(lines)")
            #expect(lines.first?.contains("injected fault") == true)
        }
        let report = String(decoding: (try? Data(contentsOf: stats)) ?? Data(), as: UTF8.self)
        #expect(report.contains("\"hwdecCurrent\" : \"no\""), "\(report)")
    }

    @Test func theOptionTakesMpvsNamesAndComparisonsDecodeInSoftware() throws {
        for name in ["no", "auto-safe", "auto", "vaapi", "vaapi-copy", "vdpau", "nvdec", "nvdec-copy", "cuda", "cuda-copy"] {
            #expect(try DeskPlayerCommand.parse(["a.mp4", "--hwdec", name]).hwdec?.name == name)
        }
        #expect(throws: (any Error).self) { try DeskPlayerCommand.parse(["a.mp4", "--hwdec", "d3d11va"]) }
        #expect(TileFactory(options: try DeskPlayerCommand.parse(["a.mp4"])).preferences.hardwareDecoding == .autoSafe)
        let compare = try DeskPlayerCommand.parse(["a.mp4", "b.mp4", "--compare", "wipe"])
        #expect(TileFactory(options: compare).preferences.hardwareDecoding == .no)
        let asked = try DeskPlayerCommand.parse(["a.mp4", "b.mp4", "--compare", "wipe", "--hwdec", "auto"])
        #expect(TileFactory(options: asked).preferences.hardwareDecoding.name == "auto")
    }
}
