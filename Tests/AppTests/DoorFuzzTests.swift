// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Control
@testable import Media
import TestSupport

/// A hostile client at the control socket, as issue 38 found one: every
/// property and command the player lists, sent every extreme value a JSON
/// client can write. The player answers each request and its state stays
/// sane; a request that ends the process is named. (`make fuzz-socket` runs
/// `bench/socket_fuzz.py`, which goes on to random mutations for as long as
/// it is given.)
@Suite struct DoorFuzzTests {
    typealias Client = ControlSocketTests.Client

    /// Written as raw JSON, so numbers past Double (1e400), past Int64 and
    /// the integer limits reach the player exactly as a client sends them.
    static let extremes = ["1e13", "-1e13", "1e19", "-1e19", "1e300", "-1e300", "9223372036854775807",
                           "-9223372036854775808", "18446744073709551615", "2147483648", "-2147483649", "1e400",
                           "-1e400", "0", "-1", "0.5", "\"nan\"", "\"inf\"", "\"-inf\"", "\"1e400\"", "\"\"",
                           "\"" + String(repeating: "x", count: 70_000) + "\"", "[]", "[1,2]", "{}", "{\"a\":1}",
                           "null", "true", "false", "\"1e13\"", "\"99999999999:00:00\"", "\"${?pause==yes:${\""]

    /// Commands that end the player, its playlist or its only tile on purpose (pip-close
    /// closes the tile in Picture in Picture: the only one with --pip, or a composition put there).
    static let ending: Set<String> = ["quit", "quit-watch-later", "stop", "tile-close", "pip-close"]

    /// The player's own lists: every property, and every command but those that end it on purpose.
    static func doors(_ client: Client) throws -> (properties: [String], commands: [String]) {
        let properties = try #require(client.get("property-list").flatMap { value -> [String]? in
            guard case .array(let names) = value else { return nil }
            return names.compactMap(\.string)
        })
        let commands = try #require(client.get("command-list").flatMap { value -> [String]? in
            guard case .array(let entries) = value else { return nil }
            return entries.compactMap { $0["name"]?.string }
        }).filter { !ending.contains($0) }
        return (properties, commands)
    }

    /// Sends every request at once (the player reads them in one go) and
    /// reads a reply to each: its id, or id 0 for a line that is not JSON the
    /// player can read (`1e400`), as mpv answers one. When replies stop
    /// coming, the request after the last one answered is what broke it.
    static func send(_ requests: [String], to client: Client, first id: inout Int) -> String? {
        let start = id
        for request in requests {
            client.sendLine("{\"command\":\(request),\"request_id\":\(id)}")
            id += 1
        }
        var replies = 0, lastAnswered = start - 1
        while replies < requests.count, let message = client.readMessage() {
            guard message["event"] == nil else { continue }
            replies += 1
            if let n = message["request_id"]?.number, n >= Double(start), n < Double(id) { lastAnswered = max(lastAnswered, Int(n)) }
        }
        guard replies < requests.count else { return nil }
        return requests[min(lastAnswered + 1 - start, requests.count - 1)]
    }

    /// What must hold whatever was sent: the player answers, its time lies
    /// within the file and its volume within its range.
    static func insane(_ client: Client) -> String? {
        guard let volume = client.get("volume")?.number else { return "volume unreadable" }
        guard (0...100).contains(volume) else { return "volume \(volume)" }
        if let duration = client.get("duration")?.number, let time = client.get("time-pos")?.number,
           !(0...(duration + 0.5)).contains(time) {
            return "time-pos \(time) outside 0...\(duration)"
        }
        if let speed = client.get("speed")?.number, !(0.01...100).contains(speed) { return "speed \(speed)" }
        return nil
    }

    @Test func everyPropertyAndCommandSurvivesExtremeValues() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ipc.sock").path
        let log = dir.appendingPathComponent("stderr.txt")
        // Its own state folder: a fuzzed quit-watch-later writes nowhere else.
        let player = try ControlSocketTests().startPlayer([Fixtures.asset("demo.mp4"), "--pause"], socket: path,
                                                          environment: ["XDG_STATE_HOME": dir.path], stderr: log, directory: dir)
        defer { if player.isRunning { player.terminate() } }
        let client = try Client(path: path)
        #expect(client.waitFor("duration") != nil)
        let (properties, commands) = try Self.doors(client)
        #expect(properties.count > 50 && commands.count > 20, "\(properties.count) properties, \(commands.count) commands")

        var id = 1
        var sent = 0
        func check(_ batch: [String], _ what: String) -> Bool {
            sent += batch.count
            if let broken = Self.send(batch, to: client, first: &id) {
                Issue.record("the player stopped answering at \(broken.prefix(200)) (\(what))\n\((try? String(contentsOf: log, encoding: .utf8))?.suffix(1500) ?? "")")
                return false
            }
            if let problem = Self.insane(client) {
                Issue.record("after \(what): \(problem)")
            }
            return true
        }
        for name in properties {
            let quoted = "\"\(name)\""
            let batch = Self.extremes.flatMap { v in
                ["[\"set_property\",\(quoted),\(v)]", "[\"add\",\(quoted),\(v)]", "[\"multiply\",\(quoted),\(v)]",
                 "[\"cycle-values\",\(quoted),\(v),\(v)]"]
            }
            guard check(batch, "property \(name)") else { return }
        }
        for name in commands {
            let quoted = "\"\(name)\""
            let batch = Self.extremes.flatMap { v in ["[\(quoted),\(v)]", "[\(quoted),\(v),\(v)]", "[\(quoted),\(v),\(v),\(v)]"] }
            guard check(batch, "command \(name)") else { return }
        }
        print("door fuzzer: \(sent) requests to \(properties.count) properties and \(commands.count) commands, all answered")
        #expect(player.isRunning)
    }

    /// The four requests that each ended the process with a trap, as mpv
    /// answers them: a seek past the end goes to the end, before the start
    /// to the start, a track that does not exist is refused, and nothing stops.
    @Test func theRequestsThatTrappedAreAnsweredAsMpvAnswersThem() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ipc.sock").path
        let player = try ControlSocketTests().startPlayer([Fixtures.asset("demo.mp4"), "--pause"], socket: path)
        defer { if player.isRunning { player.terminate() } }
        let client = try Client(path: path)
        let duration = try #require(client.waitFor("duration")?.number)

        #expect(client.error([.string("seek"), .number(-1e13), .string("absolute")]) == "success")
        #expect(client.get("time-pos")?.number == 0)
        client.sendLine("{\"command\":[\"seek\",1e13,\"absolute\"],\"request_id\":901}")
        #expect(client.reply(to: .number(901)) != nil)
        let end = try #require(client.get("time-pos")?.number)
        #expect(end <= duration && end >= duration - 1, "a seek past the end lands at \(end) of \(duration)")
        client.sendLine("{\"command\":[\"set_property\",\"time-pos\",1e13],\"request_id\":902}")
        #expect(client.reply(to: .number(902)) != nil)
        client.sendLine("{\"command\":[\"set_property\",\"aid\",1e19],\"request_id\":903}")
        #expect(client.reply(to: .number(903))?["error"]?.string != "success")
        #expect(client.get("aid") == .number(1), "the audio track is unchanged")
        client.clearEvents()
        #expect(client.error([.string("loadfile"), .string(Fixtures.asset("demo.mp4")), .string("replace"),
                              .string("start=1e13")]) == "success")
        #expect(client.waitForEvent("file-loaded"))
        #expect(client.get("volume") == .number(100))
        #expect(player.isRunning)
    }
}

/// The door fuzzer in every mode (issue 50): the comparison's properties were
/// never set to an extreme while comparing, because the fuzzer ran with one
/// file. Each mode starts its own player and gets every property and
/// command with a seeded random share of the extremes (a few thousand
/// requests), its state checked after each batch: the player answers, its
/// time, volume and speed stay sane, and the mode's own properties stay in
/// their ranges. One mode at a time: each is a player of its own on 2 cores.
@Suite(.serialized) struct ModeDoorFuzzTests {
    typealias Client = ControlSocketTests.Client

    enum Mode: String, CaseIterable, Sendable {
        case tiles, syncGroup = "sync group", comparison = "comparison of three renditions", composition,
             pictureInPicture = "picture in picture", idle = "idle window", live = "live stream"
    }

    static let alwaysSent = ["1e19", "-1e300", "9223372036854775807", "\"nan\""]

    /// A third rendition for the comparison: another encoder, size and bit rate, 4 s.
    static func thirdRendition() throws -> String {
        try VideoMedia.clip("rendition-mpeg4.mp4", ["-i", Fixtures.asset("demo.mp4"), "-t", "4", "-vf", "scale=320:180",
                                                    "-c:v", "mpeg4", "-q:v", "12", "-c:a", "aac", "-b:a", "64k"])
    }

    /// A live HLS stream (no EXT-X-ENDLIST) of 1 s segments, in `folder`.
    static func liveStream(in folder: URL) throws {
        let r = try runTool("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", Fixtures.asset("demo.mp4"), "-t", "3",
                                       "-vf", "scale=320:180", "-c:v", "libx264", "-preset", "ultrafast", "-g", "25",
                                       "-c:a", "aac", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0",
                                       "-hls_flags", "omit_endlist", folder.appendingPathComponent("live.m3u8").path])
        guard r.status == 0 else { throw MediaError("ffmpeg could not make the live stream: \(r.stderr)") }
    }

    /// Properties whose values must stay within a range in a mode.
    static func bounds(_ mode: Mode) -> [(String, ClosedRange<Double>)] {
        switch mode {
        case .comparison:
            [("compare-side", 0...1), ("compare-audio", 0...1), ("compare-rendition", 1...2), ("compare-wipe", 0...1),
             ("compare-diff-gain", 0...1000)]
        default: []
        }
    }

    /// SplitMix64: a seeded choice, so a failing run can be repeated (DESKPLAYER_FUZZ_SEED).
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: Mode.allCases)
    func everyDoorHoldsIn(_ mode: Mode) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ipc.sock").path
        let log = dir.appendingPathComponent("stderr.txt")
        let demo = Fixtures.asset("demo.mp4"), other = Fixtures.asset("compare.mp4")
        var server: HLSServer?
        let arguments: [String]
        switch mode {
        case .tiles: arguments = ["--layout", "grid", demo, other, "--pause"]
        case .syncGroup: arguments = ["--layout", "grid", "--sync", demo, other, "--pause"]
        case .comparison: arguments = ["--compare", "wipe", demo, other, try Self.thirdRendition(), "--pause"]
        case .composition: arguments = ["--crossfade", "1", Fixtures.asset("tone.mp3"), Fixtures.asset("tone.flac"), "--pause"]
        case .pictureInPicture: arguments = ["--pip", demo, "--pause"]
        case .idle: arguments = ["--idle"]
        case .live:
            let folder = dir.appendingPathComponent("hls")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.liveStream(in: folder)
            server = try HLSServer(serving: folder)
            arguments = [server?.url("live.m3u8") ?? "", "--pause"]
        }
        defer { withExtendedLifetime(server) {} }
        // Run in its folder: a fuzzed `compare-save 1e19` or screenshot writes there, not into the checkout.
        let player = try ControlSocketTests().startPlayer(arguments, socket: path, environment: ["XDG_STATE_HOME": dir.path],
                                                          stderr: log, directory: dir)
        defer { if player.isRunning { player.terminate() } }
        let client = try Client(path: path)
        // Up: a file's duration known, or the idle window idle.
        #expect(client.waitFor(mode == .idle ? "idle-active" : (mode == .live ? "width" : "duration")) != nil, "\(mode) never came up")
        let (properties, commands) = try DoorFuzzTests.doors(client)

        let seed = ProcessInfo.processInfo.environment["DESKPLAYER_FUZZ_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        var rng = Seeded(state: seed)
        var id = 1, sent = 0
        func check(_ batch: [String], _ what: String) -> Bool {
            sent += batch.count
            if let broken = DoorFuzzTests.send(batch, to: client, first: &id) {
                let tail = String((try? String(contentsOf: log, encoding: .utf8))?.suffix(1500) ?? "")
                Issue.record("\(mode), seed \(seed): the player stopped answering at \(broken.prefix(200)) (\(what))\n\(tail)")
                return false
            }
            // The idle window has no tile, so no volume or time: it must still say it is idle.
            // Any mode ends there once a fuzzed command closes its last player (pip-close,
            // a playlist emptied): then the idle window's check applies.
            if mode == .idle || client.get("idle-active") == .bool(true) {
                if client.get("idle-active") == nil { Issue.record("\(mode), seed \(seed), after \(what): idle-active unreadable") }
            } else if let problem = DoorFuzzTests.insane(client) {
                Issue.record("\(mode), seed \(seed), after \(what): \(problem)")
            }
            for (name, range) in Self.bounds(mode) {
                if let value = client.get(name)?.number, !range.contains(value) {
                    Issue.record("\(mode), seed \(seed), after \(what): \(name) is \(value), outside \(range)")
                }
            }
            return true
        }
        for name in properties {
            let quoted = "\"\(name)\""
            // The values that overflowed an Int before (compare-side's add), always; three more at random.
            let values = Self.alwaysSent + Array(DoorFuzzTests.extremes.filter { !Self.alwaysSent.contains($0) }.shuffled(using: &rng).prefix(3))
            let batch = values.flatMap { v in
                ["[\"set_property\",\(quoted),\(v)]", "[\"add\",\(quoted),\(v)]", "[\"multiply\",\(quoted),\(v)]",
                 "[\"cycle\",\(quoted),\(v)]", "[\"cycle-values\",\(quoted),\(v),\(v)]"]
            }
            guard check(batch, "property \(name)") else { return }
        }
        for name in commands {
            let quoted = "\"\(name)\""
            let batch = DoorFuzzTests.extremes.shuffled(using: &rng).prefix(5).flatMap { v in
                ["[\(quoted),\(v)]", "[\(quoted),\(v),\(v)]", "[\(quoted),\(v),\(v),\(v)]"]
            }
            guard check(batch, "command \(name)") else { return }
        }
        print("door fuzzer, \(mode) (seed \(seed)): \(sent) requests to \(properties.count) properties and \(commands.count) commands, all answered")
        #expect(sent > 2000)
        #expect(player.isRunning)
    }
}
