// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
import TestSupport

/// The control socket driven by a real client, as an mpv script would drive
/// mpv: requests and replies over the Unix socket, events in between.
@Suite struct ControlSocketTests {
    /// A minimal mpv IPC client: one JSON message per line.
    final class Client {
        private let fd: Int32
        private var buffer: [UInt8] = []
        private(set) var events: [JSONValue] = []
        private var nextID = 1

        init(path: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: path.utf8)
                raw[path.utf8.count] = 0
            }
            let deadline = Date().addingTimeInterval(10)
            while true {
                let ok = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
                if ok == 0 { break }
                guard Date() < deadline else { close(fd); throw MediaError("cannot connect to \(path)") }
                Thread.sleep(forTimeInterval: 0.05)
            }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        /// Forgets the events received so far (to wait for a new one).
        func clearEvents() { events.removeAll() }

        func sendLine(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// The next message; nil on timeout or when the player closed the socket.
        func readMessage() -> JSONValue? {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return JSONValue.parse(line)
                }
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return nil }
                buffer.append(contentsOf: chunk[0..<n])
            }
        }

        /// Sends a command and returns its reply; events met meanwhile are kept.
        func command(_ parts: [JSONValue]) -> JSONValue? {
            let id = nextID
            nextID += 1
            sendLine(JSONValue.object([("command", .array(parts)), ("request_id", .number(Double(id)))]).text)
            return reply(to: .number(Double(id)))
        }

        func reply(to id: JSONValue) -> JSONValue? {
            while let message = readMessage() {
                if message["event"] != nil { events.append(message); continue }
                if message["request_id"] == id { return message }
            }
            return nil
        }

        /// A property once it is available (the file opens in the background), up to 10 s.
        func waitFor(_ property: String) -> JSONValue? {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if let value = get(property) { return value }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return nil
        }

        /// `data` of a successful reply, nil otherwise.
        func get(_ property: String) -> JSONValue? {
            guard let r = command([.string("get_property"), .string(property)]), r["error"]?.string == "success" else { return nil }
            return r["data"]
        }

        func error(_ parts: [JSONValue]) -> String? { command(parts)?["error"]?.string }

        /// Waits for an event by name (already received, or arriving within `seconds`).
        func waitForEvent(_ name: String, seconds: Double = 10) -> Bool {
            if events.contains(where: { $0["event"]?.string == name }) { return true }
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, let message = readMessage() {
                if message["event"] != nil { events.append(message) }
                if message["event"]?.string == name { return true }
            }
            return false
        }
    }

    static let headless = ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"]

    /// `directory`: where it runs (what a relative path in a request, `compare-save x`, writes into).
    func startPlayer(_ arguments: [String], socket: String, environment: [String: String] = [:],
                     stderr: URL? = nil, directory: URL? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixtures.binary)
        if let directory { process.currentDirectoryURL = directory }
        process.arguments = arguments + ["--input-ipc-server", socket]
        var env = Fixtures.appEnvironment
        for (k, v) in Self.headless.merging(environment, uniquingKeysWith: { $1 }) { env[k] = v }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        if let stderr {
            _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: stderr)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    func waitForExit(_ process: Process, seconds: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate(); return false }
        return true
    }

    @Test func everyDocumentedCommandAnswers() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ipc.sock").path
        let player = try startPlayer([Fixtures.asset("demo.mp4"), "--pause"], socket: path)
        defer { if player.isRunning { player.terminate() } }
        let client = try Client(path: path)

        // Only its owner may drive the player.
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")

        #expect(client.get("pause") == .bool(true))
        #expect(client.waitFor("duration") == .number(10))
        #expect(client.get("volume") == .number(100))
        #expect(client.get("mute") == .bool(false))
        #expect(client.get("loop-file") == .bool(false))
        #expect(client.get("pip") == .bool(false))
        #expect(client.get("playlist") == JSONValue.parse("[{\"filename\":\"\(Fixtures.asset("demo.mp4"))\",\"current\":true,\"playing\":true}]"))
        #expect(client.get("tiles")?.text.contains("\"focused\":true") == true)

        // Setting, then reading back.
        #expect(client.error([.string("set_property"), .string("volume"), .number(40)]) == "success")
        #expect(client.get("volume") == .number(40))
        #expect(client.error([.string("set_property"), .string("mute"), .bool(true)]) == "success")
        #expect(client.get("mute") == .bool(true))
        #expect(client.error([.string("set_property"), .string("loop-file"), .string("inf")]) == "success")
        #expect(client.get("loop-file") == .string("inf"))

        // Seeking while paused lands where asked.
        #expect(client.error([.string("seek"), .number(4), .string("absolute")]) == "success")
        #expect(client.get("time-pos") == .number(4))
        #expect(client.error([.string("seek"), .number(2)]) == "success")
        #expect(client.get("time-pos") == .number(6))

        // Play and pause are announced as events.
        #expect(client.error([.string("set_property"), .string("pause"), .bool(false)]) == "success")
        #expect(client.waitForEvent("unpause"))
        #expect(client.error([.string("cycle"), .string("pause")]) == "success")
        #expect(client.waitForEvent("pause"))

        // Bad requests get an error and the connection stays usable.
        client.sendLine("{this is not json")
        #expect(client.reply(to: .number(0))?["error"]?.string == "invalid parameter")
        #expect(client.error([.string("no-such-command")]) == "invalid parameter")
        #expect(client.error([.string("get_property"), .string("no-such-property")]) == "property not found")
        #expect(client.error([.string("set_property"), .string("volume"), .string("loud")]) == "invalid parameter")
        #expect(client.get("pause") == .bool(true), "still answering after bad requests")

        // loadfile replaces what plays; append queues behind it.
        client.clearEvents()
        #expect(client.error([.string("loadfile"), .string(Fixtures.asset("compare.mp4"))]) == "success")
        #expect(client.waitForEvent("file-loaded"))
        #expect(client.get("path") == .string(Fixtures.asset("compare.mp4")))
        #expect(client.error([.string("loadfile"), .string(Fixtures.asset("demo.mp4")), .string("append")]) == "success")
        #expect(client.get("playlist-count") == .number(2))
        #expect(client.error([.string("playlist-next")]) == "success")
        #expect(client.get("path") == .string(Fixtures.asset("demo.mp4")))

        // A file that cannot play is reported as an end-file event with its error.
        // (The file it replaces ends first, with reason stop, as in mpv.)
        client.clearEvents()
        #expect(client.error([.string("loadfile"), .string(dir.appendingPathComponent("missing.mp4").path)]) == "success")
        #expect(eventually {
            _ = client.get("pause")  // reads the events that came meanwhile
            return client.events.contains { $0["reason"]?.string == "error" && $0["file_error"]?.string?.contains("No such file") == true }
        })
        let ends = client.events.filter { $0["event"]?.string == "end-file" }.compactMap { $0["reason"]?.string }
        #expect(ends == ["stop", "error"], "\(client.events)")

        #expect(client.error([.string("quit")]) == "success")
        #expect(waitForExit(player), "the player quits")
        #expect(!FileManager.default.fileExists(atPath: path), "the socket file is removed at exit")
    }

    /// Clients written by others: python-mpv-jsonipc (from PyPI, installed by
    /// `make test-deps`) attaches as it does to mpv, and socat speaks the raw
    /// protocol.
    @Test func mpvClientLibrariesAndSocatDriveIt() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ipc.sock").path
        let player = try startPlayer([Fixtures.asset("demo.mp4"), "--pause"], socket: path)
        defer { if player.isRunning { player.terminate() } }
        let client = try Client(path: path)
        #expect(client.waitFor("duration") == .number(10))

        let script = Fixtures.root.appendingPathComponent("Tests/TestSupport/mpv_client.py").path
        let r = try runTool("python3", [script, path, Fixtures.asset("demo.mp4"), Fixtures.asset("compare.mp4")], timeout: 90)
        #expect(r.status == 0 && r.stdout.contains("all checks passed"), "\(r.stdout)\(r.stderr)")

        // The raw protocol from a shell: one line in, the reply line out.
        let line = #"{"command": ["get_property", "volume"], "request_id": 7}"#
        let raw = try runProcess("/bin/sh", ["-c", "printf '%s\\n' '\(line)' | socat -t 2 - UNIX-CONNECT:\(path)"], timeout: 20)
        let reply = raw.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }.first { $0["request_id"] != nil }
        #expect(reply?["request_id"] == .number(7) && reply?["error"] == .string("success"), "\(raw.stdout)")
        #expect(reply?["data"] == .number(40), "the volume the library left")
        #expect(client.error([.string("quit")]) == "success")
        #expect(waitForExit(player))
    }

    @Test func tilesAndPictureInPictureAreDrivenBySocket() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ipc.sock").path
        let player = try startPlayer([Fixtures.asset("demo.mp4"), Fixtures.asset("compare.mp4"), "--layout", "grid",
                                      "--loop", "inf"], socket: path)
        defer { if player.isRunning { player.terminate() } }
        let client = try Client(path: path)

        #expect(client.error([.string("tile-focus"), .number(1)]) == "success")
        #expect(client.get("path") == .string(Fixtures.asset("compare.mp4")), "properties follow the focused tile")
        #expect(client.error([.string("tile-focus"), .number(7)]) == "invalid parameter")
        #expect(client.error([.string("tile-focus"), .string("next")]) == "success")
        #expect(client.get("path") == .string(Fixtures.asset("demo.mp4")))

        #expect(client.error([.string("set_property"), .string("speed"), .number(1.5)]) == "success")
        #expect(client.error([.string("pip-start")]) == "success")
        #expect(client.waitForEvent("pip-started"))
        #expect(client.get("pip") == .bool(true))
        #expect(client.get("speed") == .number(1.5), "the player keeps its speed in Picture in Picture")
        #expect(client.get("tiles")?.text.contains("\"pip\":true") == true)
        #expect(client.error([.string("pip-restore")]) == "success")
        #expect(client.waitForEvent("pip-stopped"))
        #expect(client.get("pip") == .bool(false))
        #expect(client.get("speed") == .number(1.5))
        #expect(client.error([.string("pip-restore")]) == "property unavailable", "no mini window is open")

        // A second client gets its own replies; both get events.
        let second = try Client(path: path)
        #expect(second.get("tiles").map { if case .array(let a) = $0 { a.count } else { 0 } } == 2)
        #expect(client.error([.string("quit")]) == "success")
        #expect(waitForExit(player))
    }

    /// deskplayer.conf gives option defaults (a bad line is named and
    /// skipped, the command line wins); --no-config ignores it.
    @Test func configFileDefaultsApplyUnlessNoConfig() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("deskplayer")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "volume=50\nmute\nloudness=11\n".write(to: config.appendingPathComponent("deskplayer.conf"),
                                                     atomically: true, encoding: .utf8)
        let env = ["XDG_CONFIG_HOME": dir.path]
        for (extra, volume, mute) in [([String](), 50.0, true), (["--volume", "70"], 70, true), (["--no-config"], 100, false)] {
            let path = dir.appendingPathComponent("ipc.sock").path, log = dir.appendingPathComponent("stderr.txt")
            let player = try startPlayer([Fixtures.asset("demo.mp4"), "--pause"] + extra, socket: path, environment: env,
                                         stderr: log)
            defer { if player.isRunning { player.terminate() } }
            let client = try Client(path: path)
            #expect(client.get("volume") == .number(volume), "\(extra)")
            #expect(client.get("mute") == .bool(mute), "\(extra)")
            #expect(client.error([.string("quit")]) == "success")
            #expect(waitForExit(player))
            let errors = try String(contentsOf: log, encoding: .utf8)
            #expect(errors.contains("deskplayer.conf:3: ") == !extra.contains("--no-config"), "\(errors)")
        }
    }

    /// Shift+Q's "quit-watch-later" remembers the position; the next start
    /// resumes there once; --no-resume starts from the beginning.
    @Test func quitWatchLaterResumesOnce() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_STATE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path]
        let path = dir.appendingPathComponent("ipc.sock").path
        let store = dir.appendingPathComponent("deskplayer/resume.json")
        func run(_ extra: [String], _ body: (Client) -> Void) throws {
            let player = try startPlayer([Fixtures.asset("demo.mp4"), "--pause"] + extra, socket: path, environment: env)
            defer { if player.isRunning { player.terminate() } }
            let client = try Client(path: path)
            body(client)
            #expect(waitForExit(player))
        }
        try run([]) { client in
            #expect(client.error([.string("seek"), .number(4), .string("absolute")]) == "success")
            #expect(client.error([.string("quit-watch-later")]) == "success")
        }
        let saved = try JSONDecoder().decode([String: Double].self, from: Data(contentsOf: store))
        #expect(saved == [Fixtures.asset("demo.mp4"): 4])
        try run([]) { client in
            #expect(client.get("time-pos") == .number(4), "resumed")
            #expect(client.error([.string("quit")]) == "success")
        }
        let after = try JSONDecoder().decode([String: Double].self, from: Data(contentsOf: store))
        #expect(after.isEmpty, "resumed once: the entry is gone")
        try run([]) { client in
            #expect(client.error([.string("seek"), .number(3), .string("absolute")]) == "success")
            #expect(client.error([.string("quit-watch-later")]) == "success")
        }
        try run(["--no-resume"]) { client in
            #expect(client.get("time-pos") == .number(0), "--no-resume starts at the beginning")
            #expect(client.error([.string("quit")]) == "success")
        }
    }

    /// A resume file written by hand (or by an attacker) with a position no
    /// file reaches started a trap at every later start; now such an entry
    /// is dropped and the file plays from its start. Two players quitting
    /// together each keep their entry (the file is updated under a lock).
    @Test func aHostileResumeFileIsReadSafelyAndTwoQuitsKeepBothEntries() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_STATE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path]
        let store = dir.appendingPathComponent("deskplayer/resume.json")
        try FileManager.default.createDirectory(at: store.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"\(Fixtures.asset("demo.mp4"))\": 1e300, \"\(Fixtures.asset("tone.wav"))\": 1e13}".utf8).write(to: store)
        let path = dir.appendingPathComponent("ipc.sock").path
        let player = try startPlayer([Fixtures.asset("demo.mp4"), "--pause"], socket: path, environment: env)
        defer { if player.isRunning { player.terminate() } }
        let client = try Client(path: path)
        #expect(client.waitFor("duration") == .number(10))
        #expect(client.get("time-pos") == .number(0), "an impossible position is not sought to")
        #expect(client.error([.string("quit")]) == "success")
        #expect(waitForExit(player))

        // Two players quit-watch-later at the same moment: both entries are kept.
        try FileManager.default.removeItem(at: store)
        let files = [Fixtures.asset("demo.mp4"), Fixtures.asset("compare.mp4")]
        var clients: [Client] = []
        var players: [Process] = []
        for (i, file) in files.enumerated() {
            let socket = dir.appendingPathComponent("ipc\(i).sock").path
            players.append(try startPlayer([file, "--pause", "--no-resume"], socket: socket, environment: env))
            clients.append(try Client(path: socket))
        }
        defer { for p in players where p.isRunning { p.terminate() } }
        for client in clients {
            #expect(client.waitFor("duration") != nil)
            #expect(client.error([.string("seek"), .number(2), .string("absolute")]) == "success")
        }
        for client in clients { client.sendLine("{\"command\": [\"quit-watch-later\"]}") }
        for p in players { #expect(waitForExit(p)) }
        let saved = try JSONDecoder().decode([String: Double].self, from: Data(contentsOf: store))
        #expect(saved.keys.sorted() == files.sorted(), "\(saved)")
    }

    /// The resume file is replaced whole: killed (SIGKILL) at random moments
    /// while it writes the file over and over, the player leaves a file that
    /// reads back, never a torn one.
    @Test func theResumeFileSurvivesAKillDuringWrites() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["XDG_STATE_HOME": dir.path, "XDG_CONFIG_HOME": dir.path]
        let store = dir.appendingPathComponent("deskplayer/resume.json")
        var generator = SystemRandomNumberGenerator()
        var written = 0
        for round in 0..<8 {
            let path = dir.appendingPathComponent("ipc\(round).sock").path
            // --no-resume: a start that resumes rewrites the file without the entry it used.
            let player = try startPlayer([Fixtures.asset("demo.mp4"), "--loop", "inf", "--no-resume"], socket: path,
                                         environment: env)
            let client = try Client(path: path)
            #expect(client.get("pause") == .bool(false))
            // A burst of writes, then a kill somewhere in the middle of them.
            for _ in 0..<400 { client.sendLine("{\"command\": [\"write-watch-later-config\"]}") }
            Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.12, using: &generator))  // pacing: the kill lands at a random point of the burst
            kill(player.processIdentifier, SIGKILL)
            player.waitUntilExit()
            guard let data = try? Data(contentsOf: store) else { continue }
            written += 1
            let positions = try? JSONDecoder().decode([String: Double].self, from: data)
            #expect(positions != nil, "round \(round): a torn file: \(String(decoding: data, as: UTF8.self))")
            #expect(positions?.keys.sorted() == [Fixtures.asset("demo.mp4")])
            #expect(positions?.values.allSatisfy { $0 >= 0 && $0 <= 10 } == true)
        }
        #expect(written > 0, "the player wrote the file before it was killed")
    }

    /// screenshot-to-file is work for the file worker, not the main thread:
    /// a burst of 40 sent at once gets the first ones written and the rest
    /// refused at once (one line on stderr each), and a request sent after
    /// the burst is answered while pictures are still being written.
    @Test func aBurstOfScreenshotsIsBoundedAndLeavesTheMainThreadFree() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ipc.sock").path
        let log = dir.appendingPathComponent("stderr.txt")
        let player = try startPlayer([Fixtures.asset("demo.mp4"), "--pause"], socket: path, stderr: log)
        defer { if player.isRunning { player.terminate() } }
        let client = try Client(path: path)
        #expect(client.waitFor("duration") == .number(10))

        let burst = 40
        let shots = (0..<burst).map { dir.appendingPathComponent("shot-\($0).png") }
        var lines = shots.enumerated().map { i, url in
            JSONValue.object([("command", .array([.string("screenshot-to-file"), .string(url.path)])),
                              ("request_id", .number(Double(1000 + i)))]).text
        }
        lines.append(JSONValue.object([("command", .array([.string("get_property"), .string("pause")])),
                                       ("request_id", .number(2000))]).text)
        client.sendLine(lines.joined(separator: "\n"))
        var order: [(id: Int, error: String)] = []
        while order.count < burst + 1, let message = client.readMessage() {
            guard let id = message["request_id"]?.number, let error = message["error"]?.string else { continue }
            order.append((Int(id), error))
        }
        #expect(order.count == burst + 1, "every request answered: \(order)")
        let written = order.filter { $0.id < 2000 && $0.error == "success" }.map(\.id)
        let refused = order.filter { $0.id < 2000 && $0.error == "error running command" }.map(\.id)
        #expect(written.count >= FileWorker.limit && written.count + refused.count == burst, "\(order)")
        #expect(!refused.isEmpty, "a burst past the queue is refused, not queued whole")
        let property = try #require(order.firstIndex { $0.id == 2000 })
        let lastWritten = try #require(order.lastIndex { written.contains($0.id) })
        #expect(property < lastWritten, "the main thread answered while pictures were still being written: \(order)")
        for id in written {
            let size = try runTool("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0",
                                               shots[id - 1000].path]).stdout
            #expect(size.trimmingCharacters(in: .whitespacesAndNewlines) == "1280,720", "shot \(id - 1000)")
        }
        for id in refused { #expect(!FileManager.default.fileExists(atPath: shots[id - 1000].path)) }
        let errors = try String(contentsOf: log, encoding: .utf8)
        #expect(errors.components(separatedBy: "screenshot: \(FileWorker.limit) file jobs are waiting already; refused").count - 1 == refused.count,
                "\(errors)")
    }

    /// screenshot-to-file: the video frame on screen at the file's own size
    /// (the same picture ffmpeg decodes there), or the window as shown.
    @Test func screenshotsAreTheFrameAtItsOwnSize() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ipc.sock").path
        let player = try startPlayer([Fixtures.asset("demo.mp4"), "--pause", "--geometry", "640x360"], socket: path)
        defer { if player.isRunning { player.terminate() } }
        let client = try Client(path: path)
        #expect(client.waitFor("duration") == .number(10))
        #expect(client.error([.string("seek"), .number(2), .string("absolute")]) == "success")
        #expect(eventually { client.get("seeking") == .bool(false) && client.get("window-settled") == .bool(true) },
                "the frame at 2 s on screen: \(client.get("window-unsettled-by") ?? .null)")
        let shot = dir.appendingPathComponent("video.png"), window = dir.appendingPathComponent("window.png")
        #expect(client.error([.string("screenshot-to-file"), .string(shot.path)]) == "success")
        #expect(client.error([.string("screenshot-to-file"), .string(window.path), .string("window")]) == "success")
        // A folder that cannot be made (a file is in the way): an error, and the player goes on.
        #expect(client.error([.string("screenshot-to-file"), .string(shot.path + "/x.png")]) == "error running command")

        func size(_ url: URL) throws -> String {
            try runTool("ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", url.path])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try size(shot) == "1280,720", "the file's own size, not the window's")
        #expect(try size(window) == "640,360")
        let ppm = dir.appendingPathComponent("shot.ppm").path, ref = dir.appendingPathComponent("ref.ppm").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-i", shot.path, ppm])
        try runTool("ffmpeg", ["-v", "error", "-y", "-ss", "2", "-i", Fixtures.asset("demo.mp4"), "-frames:v", "1", ref])
        let psnr = try PPMImage(path: ref).psnr(try PPMImage(path: ppm))
        #expect(psnr > 40, "PSNR \(psnr) dB against ffmpeg's frame at 2 s")
        #expect(client.error([.string("quit")]) == "success")
        #expect(waitForExit(player))
    }

    @Test func aSocketThatCannotBeCreatedIsOneLineAndExitCode1() throws {
        let r = try runProcess(Fixtures.binary, [Fixtures.asset("demo.mp4"), "--input-ipc-server", "/nonexistent/dir/ipc.sock"],
                               environment: Self.headless, timeout: 20)
        #expect(r.status == 1)
        let lines = r.stderr.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("deskplayer: ") }
        #expect(lines.count == 1 && lines.first?.contains("/nonexistent/dir/ipc.sock") == true, "\(r.stderr)")
    }
}
