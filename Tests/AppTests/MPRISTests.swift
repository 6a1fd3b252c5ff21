// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import Playback
import TestSupport

/// A private D-Bus session bus for one test: Debian's dbus-daemon on a
/// socket in the test's folder. Stopped with SIGKILL: Foundation's Process
/// starts children with SIGTERM blocked.
final class PrivateSessionBus {
    let address: String
    private let daemon = Process()
    private var monitors: [Process] = []

    init(in folder: URL) throws {
        let socket = folder.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--nofork", "--address=\(address)"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: socket) {
            guard Date() < deadline else { throw MediaError("dbus-daemon did not start") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    deinit {
        for process in monitors + [daemon] where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for process in monitors + [daemon] { process.waitUntilExit() }
    }

    /// The bus goes away, as when a desktop session's bus dies.
    func stop() {
        if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }
        daemon.waitUntilExit()
    }

    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }

    /// A D-Bus client (playerctl, dbus-send) run to completion on this bus.
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess("/usr/bin/env", [tool] + arguments, environment: environment, timeout: 20)
    }

    /// dbus-monitor writing the signals that match `rule` to `file` as they come.
    func monitor(_ rule: String, to file: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        process.arguments = ["--address", address, rule]
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
        monitors.append(process)
    }
}

/// MPRIS 2 driven by the clients desktops use: playerctl (Debian's
/// package) and dbus-send/dbus-monitor, on a private session bus, against
/// the real player decoding real files. The control socket reads back what
/// the player did.
@Suite struct MPRISTests {
    /// A 30 s MP3 with ID3 tags and a PNG cover, and the cover's bytes.
    static func taggedSong(in folder: URL) throws -> (path: String, cover: Data) {
        let cover = folder.appendingPathComponent("cover.png"), song = folder.appendingPathComponent("song.mp3")
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=orange:s=64x64", "-frames:v", "1", cover.path])
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=30", "-i", cover.path,
                               "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-b:a", "64k", "-c:v", "copy",
                               "-disposition:v", "attached_pic", "-id3v2_version", "3",
                               "-metadata", "title=Test Tone", "-metadata", "artist=The Testers",
                               "-metadata", "album=Fixtures", song.path])
        return (song.path, try Data(contentsOf: cover))
    }

    @Test func playerctlDrivesTheFocusedPlayer() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (song, coverBytes) = try MPRISTests.taggedSong(in: dir)
        let bus = try PrivateSessionBus(in: dir)
        let socket = dir.appendingPathComponent("ipc.sock").path, errors = dir.appendingPathComponent("stderr.txt")
        let player = try ControlSocketTests().startPlayer([song, Fixtures.asset("demo.mp4"), "-v", "--no-config", "--no-resume"],
                                                          socket: socket, environment: bus.environment, stderr: errors)
        defer { if player.isRunning { player.terminate() } }
        let client = try ControlSocketTests.Client(path: socket)
        @discardableResult
        func playerctl(_ arguments: String...) throws -> String {
            try bus.run("playerctl", ["--player=deskplayer"] + arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let log = { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

        // Listed once the bus gave it its name; the focused tile is the player.
        #expect(try eventually { try bus.run("playerctl", ["--list-all"]).stdout.split(separator: "\n").contains("deskplayer") },
                "\(log())")
        let duration = try #require(client.waitFor("duration")?.number)
        #expect(try eventually { try playerctl("status") == "Playing" })

        // Metadata: the file's tags, its length, and its cover as a private file.
        // MPRIS announces the metadata once the item has loaded: wait for it, not for a time.
        #expect(try eventually { try playerctl("metadata", "title") == "Test Tone" })
        #expect(try playerctl("metadata", "artist") == "The Testers")
        #expect(try playerctl("metadata", "album") == "Fixtures")
        #expect(try playerctl("metadata", "mpris:length") == String(Int64((duration * 1e6).rounded())))
        let art = try playerctl("metadata", "mpris:artUrl")
        #expect(art.hasPrefix("file:///"), "artUrl \(art)")
        if let url = URL(string: art), url.isFileURL {
            #expect(try Data(contentsOf: url) == coverBytes)
            let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        #expect(try playerctl("metadata", "xesam:url") == URL(fileURLWithPath: song).absoluteString)

        // The player's signals, as a desktop panel listens to them.
        let signals = dir.appendingPathComponent("signals.txt")
        try bus.monitor("type='signal',path='/org/mpris/MediaPlayer2'", to: signals)
        let heard = { (try? String(contentsOf: signals, encoding: .utf8)) ?? "" }
        // dbus-monitor loses its own name once it has become a monitor: from then on it hears everything.
        #expect(eventually { heard().contains("member=NameLost") }, "the monitor is listening: \(heard())")

        // play-pause, through the controller: the socket sees the same player
        // paused, and PropertiesChanged says so.
        try playerctl("play-pause")
        #expect(try eventually { try playerctl("status") == "Paused" })
        #expect(client.get("pause") == .bool(true))
        #expect(eventually { heard().components(separatedBy: "member=PropertiesChanged").dropFirst()
                .contains { $0.contains("\"PlaybackStatus\"") && $0.contains("string \"Paused\"") } }, "\(heard())")
        try playerctl("play-pause")
        #expect(try eventually { try playerctl("status") == "Playing" })
        #expect(client.get("pause") == .bool(false))

        // Position: set (SetPosition with the track id), read, and Seeked announced.
        try playerctl("position", "12")
        // (The clock counts the audio the device has played: a few ms either side of the target.)
        let seconds = client.get("time-pos")?.number ?? -1
        #expect(seconds > 11.9 && seconds < 13, "time-pos \(seconds) after position 12")
        let read = Double(try playerctl("position")) ?? -1
        #expect(read > 11.9 && read < 14, "playerctl position \(read)")
        /// The positions (µs) of the Seeked signals dbus-monitor saw.
        func seeked() -> [Int64] {
            heard().components(separatedBy: "member=Seeked").dropFirst().compactMap { signal in
                signal.split(separator: "\n").first.flatMap { Int64($0.replacingOccurrences(of: "int64", with: "")
                    .trimmingCharacters(in: .whitespaces)) }
            }
        }
        #expect(eventually { seeked().contains { $0 > 11_900_000 && $0 < 13_000_000 } }, "Seeked: \(seeked())")
        let before = client.get("time-pos")?.number ?? -1
        try playerctl("position", "5-")  // Seek, relative
        let back = client.get("time-pos")?.number ?? -1
        #expect(back > before - 5.1 && back < before - 4, "time-pos \(before), then \(back) after 5 s back")

        // Volume, both ways.
        try playerctl("volume", "0.25")
        #expect(client.get("volume") == .number(25))
        #expect(try playerctl("volume") == "0.250000")

        // Loop status maps onto loop-file and loop-playlist.
        try playerctl("loop", "Track")
        #expect(client.get("loop-file") == .string("inf"))
        #expect(try playerctl("loop") == "Track")
        try playerctl("loop", "Playlist")
        #expect(client.get("loop-file") == .bool(false) && client.get("loop-playlist") == .string("inf"))
        try playerctl("loop", "None")
        #expect(client.get("loop-playlist") == .bool(false))
        #expect(try playerctl("loop") == "None")

        // Next and previous walk the queue.
        try playerctl("next")
        #expect(try eventually { try client.get("playlist-pos") == .number(1) && playerctl("metadata", "title") == "demo.mp4" })
        try playerctl("previous")
        #expect(try eventually { try client.get("playlist-pos") == .number(0) && playerctl("metadata", "title") == "Test Tone" })

        // Wrong argument types: the standard D-Bus error, and the player goes on.
        let destination = ["--print-reply", "--dest=org.mpris.MediaPlayer2.deskplayer", "/org/mpris/MediaPlayer2"]
        let wrong = try bus.run("dbus-send", destination + ["org.mpris.MediaPlayer2.Player.Seek", "string:soon"])
        #expect(wrong.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(wrong.stderr)")
        let wrongVolume = try bus.run("dbus-send", destination + ["org.freedesktop.DBus.Properties.Set",
                                                                  "string:org.mpris.MediaPlayer2.Player", "string:Volume",
                                                                  "variant:string:loud"])
        #expect(wrongVolume.stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(wrongVolume.stderr)")
        #expect(client.get("volume") == .number(25))

        // Rate is the speed (0.25 to 4); outside that, InvalidArgs and nothing changes.
        func setRate(_ value: String) throws -> ProcessResult {
            try bus.run("dbus-send", destination + ["org.freedesktop.DBus.Properties.Set", "string:org.mpris.MediaPlayer2.Player",
                                                    "string:Rate", "variant:double:\(value)"])
        }
        func getRate(_ name: String) throws -> String {
            try bus.run("dbus-send", destination + ["org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player",
                                                    "string:\(name)"]).stdout
        }
        _ = try setRate("1.5")
        #expect(client.get("speed") == .number(1.5))
        #expect(try getRate("Rate").contains("double 1.5"))
        #expect(try getRate("MinimumRate").contains("double 0.25") && getRate("MaximumRate").contains("double 4"))
        #expect(try setRate("10").stderr.contains("org.freedesktop.DBus.Error.InvalidArgs"))
        #expect(client.get("speed") == .number(1.5))
        _ = try setRate("1")

        // OpenUri with a file that is not there: one line, and playback goes on.
        let open = try bus.run("dbus-send", destination + ["org.mpris.MediaPlayer2.Player.OpenUri",
                                                           "string:file:///nonexistent/clip%20one.mp4"])
        #expect(open.stderr.contains("org.freedesktop.DBus.Error.Failed"), "\(open.stderr)")
        let lines = log().split(separator: "\n").filter { $0.contains("/nonexistent/clip one.mp4") }
        #expect(lines == ["deskplayer: /nonexistent/clip one.mp4: No such file or directory"], "\(log())")
        #expect(client.get("path") == .string(song))
        // OpenUri with a good one plays it in the focused tile.
        try bus.run("dbus-send", destination + ["org.mpris.MediaPlayer2.Player.OpenUri",
                                                "string:" + URL(fileURLWithPath: Fixtures.asset("demo.mp4")).absoluteString])
        #expect(eventually { client.get("path") == .string(Fixtures.asset("demo.mp4")) })

        // The bus goes away mid-play: MPRIS stops, playback does not.
        bus.stop()
        let playing = client.waitFor("time-pos")?.number ?? 99
        Thread.sleep(forTimeInterval: 1)  // measuring: the time goes on over 1 s without the bus
        let later = client.get("time-pos")?.number ?? -1
        #expect(later > playing + 0.5, "time-pos \(playing) then \(later)")
        #expect(player.isRunning)
        #expect(eventually { log().contains("deskplayer: MPRIS: the session bus went away") }, "\(log())")
    }

    /// A cover file beside the music is its artUrl, named as it is (not copied).
    @Test func aCoverBesideIsTheArtUrl() throws {
        let media = try #require(TaggedMedia.shared, "could not make the test media with ffmpeg")
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bus = try PrivateSessionBus(in: dir)
        let socket = dir.appendingPathComponent("ipc.sock").path
        let player = try ControlSocketTests().startPlayer([media.beside, "--pause", "--no-config", "--no-resume"],
                                                          socket: socket, environment: bus.environment)
        defer { if player.isRunning { player.terminate() } }
        let client = try ControlSocketTests.Client(path: socket)
        // Before the tags are read, media-title is the file's name, as in mpv.
        #expect(eventually { client.get("media-title") == .string("Beside Song") })
        let expected = URL(fileURLWithPath: media.besideCover).absoluteString
        var art = ""
        #expect(try eventually {
            art = try bus.run("playerctl", ["--player=deskplayer", "metadata", "mpris:artUrl"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return art == expected
        }, "artUrl \(art)")
    }

    /// MPRIS's Stop as the specification has it: PlaybackStatus says
    /// Stopped, the track stays at its start, and Play plays it from the
    /// beginning (mpv's stop emptied the playlist, and a media key's Play
    /// then did nothing).
    @Test func stopMeansStopped() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bus = try PrivateSessionBus(in: dir)
        let socket = dir.appendingPathComponent("ipc.sock").path
        let player = try ControlSocketTests().startPlayer([Fixtures.asset("demo.mp4"), "--no-config", "--no-resume"],
                                                          socket: socket, environment: bus.environment)
        defer { if player.isRunning { player.terminate() } }
        let client = try ControlSocketTests.Client(path: socket)
        func playerctl(_ arguments: String...) throws -> String {
            try bus.run("playerctl", ["--player=deskplayer"] + arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try eventually { try playerctl("status") == "Playing" })
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > 0.5 })
        _ = try playerctl("stop")
        #expect(try eventually { try playerctl("status") == "Stopped" })
        #expect(client.get("playlist-count") == .number(1) && client.get("path") == .string(Fixtures.asset("demo.mp4")),
                "the track stays")
        #expect(client.get("time-pos") == .number(0) && client.get("pause") == .bool(true), "at its start")
        #expect(player.isRunning)
        _ = try playerctl("play")
        #expect(try eventually { try playerctl("status") == "Playing" })
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > 0.2 }, "it plays from the beginning")
        // Stopped, then paused and played from a key or the socket: Paused and Playing again.
        _ = try playerctl("stop")
        #expect(try eventually { try playerctl("status") == "Stopped" })
        #expect(client.error([.string("set_property"), .string("pause"), .bool(false)]) == "success")
        #expect(try eventually { try playerctl("status") == "Playing" })
    }

    /// Without a session bus (SSH, CI) there is no MPRIS: one line under
    /// -v, nothing without it, and the player plays as ever.
    @Test func withoutASessionBusMPRISIsOffQuietly() throws {
        let environment = ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/nonexistent",
                           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"]
        for verbose in [true, false] {
            let result = try runProcess(Fixtures.binary, [Fixtures.asset("tone.wav"), "--no-config"] + (verbose ? ["-v"] : []),
                                        environment: environment, timeout: 30)
            #expect(result.status == 0)
            let lines = result.stderr.split(separator: "\n").filter { $0.contains("MPRIS") }
            #expect(lines == (verbose ? ["deskplayer: MPRIS: off: no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"] : []),
                    "\(result.stderr)")
        }
    }
}

/// MPRIS as a hostile program on the session bus would call it: every
/// method and writable property with the extremes D-Bus can carry (int64's
/// limits, doubles past any range, wrong types, a 70 kB string). Each is
/// answered (a reply or a D-Bus error), and the player still answers its
/// socket with its time inside the file. `Seek` with int64's maximum ended
/// the process before.
@Suite struct MPRISDoorTests {
    @Test func everyMethodAndPropertySurvivesExtremeValues() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bus = try PrivateSessionBus(in: dir)
        let socket = dir.appendingPathComponent("ipc.sock").path
        let player = try ControlSocketTests().startPlayer([Fixtures.asset("demo.mp4"), "--pause", "--no-config", "--no-resume"],
                                                          socket: socket, environment: bus.environment)
        defer { if player.isRunning { player.terminate() } }
        let client = try ControlSocketTests.Client(path: socket)
        let duration = try #require(client.waitFor("duration")?.number)
        #expect(try eventually { try bus.run("playerctl", ["--list-all"]).stdout.contains("deskplayer") })

        let destination = "org.mpris.MediaPlayer2.deskplayer", path = "/org/mpris/MediaPlayer2"
        let playerInterface = "org.mpris.MediaPlayer2.Player"
        let integers = ["int64:9223372036854775807", "int64:-9223372036854775808", "int64:0", "int64:-1",
                        "int32:2147483647", "string:1e13", "double:1e308"]
        let doubles = ["double:1e308", "double:-1e308", "double:4.9e-324", "double:0", "double:-1", "double:1e13",
                       "int64:9223372036854775807", "string:nan", "boolean:true"]
        let long = "string:" + String(repeating: "x", count: 70_000)
        var calls: [[String]] = []
        for value in integers {
            calls.append(["\(playerInterface).Seek", value])
            calls.append(["\(playerInterface).SetPosition", "objpath:/org/mpris/MediaPlayer2/deskplayer/track/1", value])
            calls.append(["\(playerInterface).SetPosition", "objpath:/x", value])
        }
        for property in ["Rate", "Volume"] {
            for value in doubles {
                calls.append(["org.freedesktop.DBus.Properties.Set", "string:\(playerInterface)", "string:\(property)",
                              "variant:\(value)"])
            }
        }
        for (property, value) in [("LoopStatus", "string:Forever"), ("LoopStatus", long), ("Shuffle", "string:yes"),
                                  ("Fullscreen", "int64:1"), ("NoSuchProperty", "double:1")] {
            let interface = property == "Fullscreen" ? "org.mpris.MediaPlayer2" : playerInterface
            calls.append(["org.freedesktop.DBus.Properties.Set", "string:\(interface)", "string:\(property)", "variant:\(value)"])
        }
        for uri in [long, "string:file:///nonexistent", "string:", "string:ftp://x", "string:file://" + String(repeating: "%", count: 5000)] {
            calls.append(["\(playerInterface).OpenUri", uri])
        }
        calls.append(["\(playerInterface).Seek"])
        calls.append(["\(playerInterface).Seek", "string:far"])
        calls.append(["org.freedesktop.DBus.Properties.Get", "string:\(playerInterface)", long])
        calls.append(["org.freedesktop.DBus.Properties.GetAll", long])
        for call in calls {
            let r = try bus.run("dbus-send", ["--session", "--print-reply", "--reply-timeout=10000", "--dest=\(destination)", path] + call)
            #expect(!r.timedOut && (r.status == 0 || r.stderr.hasPrefix("Error org.")),
                    "\(call.joined(separator: " ").prefix(200)): \(r.stderr.prefix(300))")
            guard player.isRunning, let time = client.get("time-pos")?.number else {
                Issue.record("the player stopped answering after \(call.joined(separator: " ").prefix(200))")
                return
            }
            #expect((0...duration).contains(time), "time-pos \(time) after \(call.joined(separator: " ").prefix(200))")
            if let volume = client.get("volume")?.number { #expect((0...100).contains(volume)) }
        }
        print("MPRIS door fuzzer: \(calls.count) calls, all answered")
    }
}
