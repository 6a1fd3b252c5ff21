// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
import TestSupport

/// DeskPlayer driven by mpv clients written by others, each command's
/// effect read back over the socket; the same scripts run against mpv
/// (when it is installed) tell a client's own quirk from a gap of ours.
@Suite(.serialized) struct MpvClientTests {
    static let headless = ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"]
    static let fileA = Fixtures.asset("demo.mp4")
    static let fileB = Fixtures.asset("compare.mp4")

    static var mpv: String? {
        ["/usr/bin/mpv", "/usr/local/bin/mpv"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A player listening on `socket`, paused on [A, B].
    func startPlayer(_ binary: String, _ arguments: [String], socket: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments + ["--pause", "--no-config", "--input-ipc-server=\(socket)", Self.fileA, Self.fileB]
        var env = Fixtures.appEnvironment
        for (k, v) in Self.headless { env[k] = v }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The socat shell controller's 43 everyday commands, all as strings.
    func socatTally(_ binary: String, _ arguments: [String] = []) throws -> ProcessResult {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let player = try startPlayer(binary, arguments, socket: socket)
        // SIGKILL: Foundation starts children with SIGTERM blocked, and mpv
        // (idle, paused) would outlive the test.
        defer { if player.isRunning { kill(player.processIdentifier, SIGKILL); player.waitUntilExit() } }
        _ = eventually { FileManager.default.fileExists(atPath: socket) }
        let script = Fixtures.root.appendingPathComponent("Tests/TestSupport/mpv_socat_client.sh").path
        return try runProcess("/bin/sh", [script, socket, Self.fileA, Self.fileB], timeout: 120)
    }

    @Test func aSocatShellClientsEverydayCommandsAllWork() throws {
        let ours = try socatTally(Fixtures.binary)
        #expect(ours.status == 0 && ours.stdout.contains("tally: 43 of 43 work"), "\(ours.stdout)\(ours.stderr)")
        // mpv itself passes the same script: a failure above is ours, not the client's.
        // (Without mpv installed there is nothing to compare with; `make test-deps` installs it.)
        guard let mpv = Self.mpv else { return }
        let theirs = try socatTally(mpv, ["--vo=null", "--ao=null", "--idle"])
        #expect(theirs.status == 0 && theirs.stdout.contains("tally: 43 of 43 work"), "mpv: \(theirs.stdout)")
    }

    /// aio-mpv-jsonipc starts the player itself with the options such
    /// libraries pass (--idle --really-quiet --msg-level --force-window
    /// --no-audio-display) and its own socket path, sends seek flags as
    /// separate arguments, and waits for mpv's events.
    @Test func anAsyncioLibraryStartsDeskPlayerAndHearsMpvsEvents() throws {
        let script = Fixtures.root.appendingPathComponent("Tests/TestSupport/aio_mpv_client.py").path
        let ours = try runProcess("/usr/bin/env", ["python3", script, Fixtures.binary, Self.fileA, Self.fileB],
                                  environment: Self.headless, timeout: 120)
        #expect(ours.status == 0 && ours.stdout.contains("tally: 19 of 19 work"), "\(ours.stdout)\(ours.stderr)")
        guard let mpv = Self.mpv else { return }  // nothing to compare with (see above)
        let theirs = try runProcess("/usr/bin/env", ["python3", script, mpv, Self.fileA, Self.fileB, "--vo=null", "--ao=null"],
                                    timeout: 120)
        #expect(theirs.status == 0 && theirs.stdout.contains("tally: 19 of 19 work"), "mpv: \(theirs.stdout)")
    }

    /// python-mpv-jsonipc starting the player itself, with the options it
    /// always passes and keyword arguments made mpv options (`--keep-open=yes`,
    /// `--pause=yes`, `--quiet=yes`).
    @Test func pythonMpvJsonipcStartsDeskPlayerWithItsOwnOptions() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = Fixtures.root.appendingPathComponent("Tests/TestSupport/mpv_jsonipc_start.py").path
        let ours = try runProcess("/usr/bin/env", ["python3", script, Fixtures.binary, dir.appendingPathComponent("a.sock").path,
                                                   Self.fileA], environment: Self.headless, timeout: 60)
        #expect(ours.status == 0 && ours.stdout.contains("tally: 5 of 5 work"), "\(ours.stdout)\(ours.stderr)")
        guard let mpv = Self.mpv else { return }  // nothing to compare with (see above)
        let theirs = try runProcess("/usr/bin/env", ["python3", script, mpv, dir.appendingPathComponent("b.sock").path,
                                                     Self.fileA, "vo=null", "ao=null"], timeout: 60)
        #expect(theirs.status == 0 && theirs.stdout.contains("tally: 5 of 5 work"), "mpv: \(theirs.stdout)")
    }

    /// The options client libraries start mpv with are taken; an unknown one still is not.
    @Test func terminalOptionsAreAcceptedAndUnknownOnesAreNot() throws {
        let line = ["--idle", "--really-quiet", "--msg-level=ipc=v,all=no", "--term-osd-bar=no", "--no-terminal",
                    "--terminal=no", "--input-terminal=no", "--force-window=yes", "--no-audio-display", "--quiet", "x.mp4"]
        let parsed = try DeskPlayerCommand.parse(DeskPlayerCommand.bareIdle(line))
        #expect(parsed.idleMode == .yes && parsed.files == ["x.mp4"])
        let flags = try DeskPlayerCommand.parse(DeskPlayerCommand.bareIdle(["--keep-open=always", "--pause=yes", "--mute=no",
                                                                           "--no-sync", "x.mp4"]))
        #expect(flags.keepOpen && flags.pause && flags.mute == false && !flags.sync)
        #expect(throws: (any Error).self) { try DeskPlayerCommand.parse(DeskPlayerCommand.bareIdle(["--pause=maybe"])) }
        #expect(throws: (any Error).self) { try DeskPlayerCommand.parse(DeskPlayerCommand.bareIdle(["--really-bogus", "x.mp4"])) }
        let r = try runProcess(Fixtures.binary, ["--really-quiet", "--bogus", "x.mp4"], environment: Self.headless, timeout: 20)
        #expect(r.status == 2)
        #expect(r.stderr.split(separator: "\n").filter { $0.hasPrefix("deskplayer:") }.count == 1, "\(r.stderr)")
    }
}
