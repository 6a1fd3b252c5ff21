// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
import TestSupport

/// Issue 50, every door: a control-socket client holds a bounded share of
/// the player (connections, replies it has not read, observed properties),
/// and a client that reads late or writes as a shell does still gets every
/// reply whole.
@Suite struct ControlSocketBoundsTests {
    typealias Client = ControlSocketTests.Client

    /// The demo, paused, behind a control socket in a folder of its own
    /// (its stderr there too): ended and removed with this.
    final class PausedDemo {
        let dir = Fixtures.temporaryDirectory()
        let path: String, log: URL, player: Process, client: Client

        init() throws {
            path = dir.appendingPathComponent("ipc.sock").path
            log = dir.appendingPathComponent("stderr.txt")
            player = try ControlSocketTests().startPlayer([Fixtures.asset("demo.mp4"), "--pause"], socket: path, stderr: log)
            client = try Client(path: path)
        }

        deinit {
            if player.isRunning { player.terminate() }
            try? FileManager.default.removeItem(at: dir)
        }
    }

    @Test func aClientHoldsABoundedShare() throws {
        let demo = try PausedDemo()
        defer { withExtendedLifetime(demo) {} }
        let (_, path, log, player, client) = (demo.dir, demo.path, demo.log, demo.player, demo.client)
        #expect(client.waitFor("duration") != nil)

        // Megabytes of replies to a client that reads only once it has sent
        // every request: each arrives whole, none is lost.
        let late = try Client(path: path)
        let one = try #require(client.get("command-list")).text.utf8.count
        let count = min(2000, max(100, (4 << 20) / one))
        for id in 1...count {
            late.sendLine(#"{"command":["get_property","command-list"],"request_id":\#(id)}"#)
        }
        var whole = 0
        for id in 1...count {
            guard let reply = late.reply(to: .number(Double(id))) else { break }
            if reply["error"] == .string("success"), case .array? = reply["data"] { whole += 1 }
        }
        #expect(whole == count, "\(whole) of \(count) replies arrived whole")

        // Observed properties: at most 1000 per client, the next is refused.
        let watcher = try Client(path: path)
        for id in 1...1001 {
            watcher.sendLine(#"{"command":["observe_property",\#(id),"volume"],"request_id":\#(id)}"#)
        }
        var observing = 0
        for id in 1...1000 {
            guard watcher.reply(to: .number(Double(id)))?["error"] == .string("success") else { break }
            observing += 1
        }
        #expect(observing == 1000)
        #expect(watcher.reply(to: .number(1001))?["error"] == .string("too many observed properties"))

        // Connections: past 64 a client gets one line and the end of the stream.
        var crowd: [Client] = []
        for _ in 0..<100 { crowd.append(try Client(path: path)) }
        var refused = 0
        for member in crowd {
            member.sendLine(#"{"command":["client_name"],"request_id":1}"#)
            guard let line = member.readMessage() else { continue }
            if line["error"] == .string("too many clients") {
                refused += 1
                #expect(member.readMessage() == nil, "closed after its line")
            }
        }
        // client, late and watcher are connected too.
        #expect(refused == 100 + 3 - 64)
        crowd.removeAll()
        #expect(client.error([.string("quit")]) == "success")
        #expect(ControlSocketTests().waitForExit(player))
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(said.components(separatedBy: "more are refused").count == 2, "said once: \(said)")
    }

    /// Out of descriptors, `accept` fails while the listener stays readable:
    /// the socket thread rests between tries instead of spinning, says so
    /// once, and takes the waiting clients when descriptors are back.
    @Test func acceptFailingDoesNotSpin() throws {
        let demo = try PausedDemo()
        defer { withExtendedLifetime(demo) {} }
        let (_, path, log, player, client) = (demo.dir, demo.path, demo.log, demo.player, demo.client)
        #expect(client.waitFor("duration") != nil)
        let pid = player.processIdentifier
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
        let limit = try runProcess("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=\(open + 1):"], timeout: 10)
        #expect(limit.status == 0, "\(limit.stderr)")
        // The kernel queues these; the player can take one at most.
        var waiting: [Client] = []
        for _ in 0..<4 { waiting.append(try Client(path: path)) }
        func said() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        #expect(eventually { said().contains("cannot accept clients (Too many open files)") }, "\(said())")
        // A rate, not a state: the process's CPU time over one second of rest.
        func cpuSeconds() throws -> Double {
            let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            let fields = stat[(stat.lastIndex(of: ")") ?? stat.startIndex)...].split(separator: " ")
            let ticks = (Double(fields[12]) ?? 0) + (Double(fields[13]) ?? 0)  // utime, stime
            return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
        let before = try cpuSeconds()
        Thread.sleep(forTimeInterval: 1)  // measuring a rate over a second
        let used = try cpuSeconds() - before
        #expect(used < 0.25, "\(used) s of CPU in 1 s while accept fails")
        // The clients already there are answered meanwhile.
        #expect(client.get("pause") == .bool(true))
        let restored = try runProcess("/usr/bin/prlimit", ["--pid", "\(pid)", "--nofile=1024:"], timeout: 10)
        #expect(restored.status == 0, "\(restored.stderr)")
        for (i, member) in waiting.enumerated() { #expect(member.get("pause") == .bool(true), "waiting client \(i)") }
        #expect(said().components(separatedBy: "cannot accept clients").count == 2, "said once: \(said())")
        #expect(client.error([.string("quit")]) == "success")
        #expect(ControlSocketTests().waitForExit(player))
    }

    /// A shell's client (socat) writes CRLF lines and raw control characters
    /// inside strings, as mpv reads them.
    @Test func crlfLinesAndRawControlCharactersInStrings() throws {
        let demo = try PausedDemo()
        defer { withExtendedLifetime(demo) {} }
        let (_, path, _, player, client) = (demo.dir, demo.path, demo.log, demo.player, demo.client)
        #expect(client.waitFor("duration") != nil)
        let lines = #"{"command":["show-text","12:00\t/ 0:10\r"],"request_id":1}\r\n"#
            + #"{"command":["get_property","pause"],"request_id":2}\r\n"#
            + #"\r\n{"command":["get_property",\t"pause"],"request_id":3}\r\n"#
        let raw = try runProcess("/bin/sh", ["-c", "printf '\(lines)' | socat -t 2 - UNIX-CONNECT:\(path)"], timeout: 20)
        let replies = raw.stdout.split(separator: "\n").compactMap { JSONValue.parse(String($0)) }.filter { $0["request_id"] != nil }
        #expect(replies.map { $0["request_id"] } == [.number(1), .number(2), .number(3)], "\(raw.stdout)")
        #expect(replies.allSatisfy { $0["error"] == .string("success") }, "\(raw.stdout)")
        #expect(replies.last?["data"] == .bool(true))
        #expect(client.error([.string("quit")]) == "success")
        #expect(ControlSocketTests().waitForExit(player))
    }

    /// What a client observed goes with it: clients that come, observe and
    /// go leave nothing to evaluate every turn.
    @Test func observationsGoWithTheirClient() throws {
        let rig = try CommandTests.Rig([Fixtures.asset("demo.mp4")])
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ipc.sock").path
        let socket = try ControlSocket(path: path, arrived: {})
        func serve() {
            socket.serve(rig.controller)
            socket.announce(rig.controller)
        }
        let stays = try Client(path: path)
        stays.sendLine(#"{"command":["observe_property",1,"pause"],"request_id":1}"#)
        #expect(eventually { serve(); return socket.observationCount == 1 })
        for round in 0..<20 {
            let visitor = try Client(path: path)
            for id in 1...50 { visitor.sendLine(#"{"command":["observe_property",\#(id),"volume"],"request_id":\#(id)}"#) }
            #expect(eventually { serve(); return socket.observationCount == 51 }, "round \(round): \(socket.observationCount)")
            _ = visitor  // closed here, as the round ends
        }
        #expect(eventually { serve(); return socket.observationCount == 1 }, "\(socket.observationCount) observed")
        // The one that stays still hears its property change.
        try rig.apply("cycle pause")
        serve()
        var heard = false
        while !heard, let message = stays.readMessage() {
            heard = message["event"] == .string("property-change") && message["data"] == .bool(false)
        }
        #expect(heard)
    }
}
