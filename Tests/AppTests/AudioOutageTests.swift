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

/// Sound that survives the desktop: a real PulseAudio with a null sink,
/// killed with SIGKILL while DeskPlayer plays and started again
/// (audio_outage.py does the server and records the sink's monitor), or
/// absent when DeskPlayer starts. The picture must go on at its pace and
/// the sound come back by itself.
@Suite(.serialized) struct AudioOutageTests {
    /// What audio_outage.py reports (see its docstring).
    struct Outage: Decodable {
        var first_sound_s: Double
        var killed_s: Double
        var server_back_s: Double
        var stream_back_s: Double?
        var sound_return_s: Double?
        var device_lost_s: Double?
        var device_back_s: Double?
        var sound_after_s: Double
        var last_sound_s: Double?
        var beeps_before: [Double]
        var beeps_after: [Double]
        var levels_before: [[Double]]?
        var levels_after: [[Double]]?
        var t0_monotonic: Double
        var rc: Int?
        var stderr: String

        /// The wall time (seconds from the start) at which the media's time
        /// 0 was heard, from the first beep recorded: the clips beep at
        /// `beepAt` past every whole second.
        func zero(beepAt: Double) -> Double? {
            guard let onset = beeps_before.first else { return nil }
            return onset - beepAt - (onset - beepAt - first_sound_s).rounded()
        }

        func lines(containing text: String) -> Int {
            stderr.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("deskplayer: ") && $0.contains(text) }.count
        }
    }

    /// One frame of --frame-log: its time in the item and when it was put on screen.
    struct Presented {
        var pts: Double
        var at: Double  // seconds from the first frame
        /// How late the picture runs behind its own timeline; it stays put while the clock is continuous.
        var offset: Double { at - pts }
    }

    static let script = Fixtures.root.appendingPathComponent("Tests/TestSupport/audio_outage.py").path

    /// 25 fps video (`video`: a lavfi source; nil: audio only) and AAC
    /// audio at 128 kb/s: a quiet 440 Hz tone of amplitude `tone` throughout
    /// and a loud 1 kHz beep for 50 ms at `beepAt` past every whole second.
    /// (At FFmpeg's default 69 kb/s the encoder's pre-echo makes a few
    /// beeps start up to 35 ms early in the file itself.)
    static func makeClip(in dir: URL, name: String = "tone.mp4", seconds: Int = 30,
                         video: String? = "testsrc2=size=320x240:rate=25", tone: Double = 0.1,
                         beepAt: Double = 0) throws -> String {
        let path = dir.appendingPathComponent(name).path
        let beep = "gte(mod(t\\,1)\\,\(beepAt))*lt(mod(t\\,1)\\,\(beepAt + 0.05))"
        let audio = ["-f", "lavfi", "-i", "aevalsrc=\(tone)*sin(2*PI*440*t)+0.6*sin(2*PI*1000*t)*\(beep):s=48000"]
        let picture = video.map { ["-f", "lavfi", "-i", $0] } ?? []
        let videoCodec = video == nil ? [] : ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        let r = try runTool("ffmpeg", ["-v", "error", "-y"] + picture + audio + ["-t", "\(seconds)"] + videoCodec
                            + ["-c:a", "aac", "-b:a", "128k", "-shortest", path])
        guard r.status == 0 else { throw MediaError("ffmpeg: \(r.stderr)") }
        return path
    }

    /// The peak of the quiet tone in the recording from `from` to `to`
    /// (seconds from the start; the beeps left out): the median of its
    /// 10 ms peaks.
    static func toneLevel(_ levels: [[Double]], from: Double, to: Double) -> Double? {
        median(levels.filter { $0[0] >= from && $0[0] < to && $0[1] < 12000 }.map { $0[1] })
    }

    static func frames(_ url: URL) throws -> [Presented] {
        try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let f = line.split(separator: ",")
            guard f.count >= 2, let pts = Double(f[0]), let ms = Double(f[1]) else { return nil }
            return Presented(pts: pts, at: ms / 1000)
        }
    }

    static func median(_ values: [Double]) -> Double? {
        let s = values.sorted()
        return s.isEmpty ? nil : s[s.count / 2]
    }

    /// Runs the player under audio_outage.py. `onScreen`: in a real window
    /// on $DISPLAY (else SDL's dummy video). `meanwhile` runs while it
    /// plays, told whether the script still runs.
    static func outage(_ arguments: [String], player: [String], onScreen: Bool = false,
                       meanwhile: ((_ running: () -> Bool) throws -> Void)? = nil) throws -> Outage {
        let result = try runProcess("/usr/bin/env", ["python3", script, "--timeout", "45"] + arguments + ["--", Fixtures.binary] + player,
                                    environment: ["SDL_VIDEODRIVER": onScreen ? nil : "dummy"], timeout: 60, meanwhile: meanwhile)
        try #require(result.status == 0, "audio_outage.py: \(result.stderr)")
        return try JSONDecoder().decode(Outage.self, from: Data(result.stdout.utf8))
    }

    /// The scenario: the server is killed 4 s into the sound and
    /// back 2 s later.
    @Test func soundComesBackAfterThePulseAudioServerIsKilledAndRestarted() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir)
        let log = dir.appendingPathComponent("frames.csv")
        let stats = dir.appendingPathComponent("stats.json")
        let o = try Self.outage(["--kill-after-sound", "4", "--down-for", "2"],
                           player: ["--quit-after", "14", "--frame-log", log.path, "--stats-json", stats.path, clip])
        #expect(o.rc == 0, "\(o.stderr)")
        // One line for the loss, not one per retry, and the sound said back.
        // (A device that stalls again just after its return, as a busy
        // machine's can, is lost and back once more: a second pair of lines.)
        #expect(o.lines(containing: "audio device lost (removed)") == 1, "\(o.stderr)")
        #expect(o.lines(containing: "audio device back") >= 1, "\(o.stderr)")
        #expect(o.stderr.split(whereSeparator: \.isNewline).last?.contains("audio device back") == true, "\(o.stderr)")
        // DeskPlayer is back on the server within a retry (0.5 s) and some load...
        let stream = try #require(o.stream_back_s, "no stream on the restarted server: \(o.stderr)")
        #expect(stream < 1.0)
        // ...and the tone is heard again within two seconds of the server's
        // return (the check). The null sink is loaded with
        // norewinds=1, so it pulls a new stream at once as a sound card does
        // (audio_outage.py says why); about 0.2 s of this is DeskPlayer's
        // warm-up, the rest the retry's phase (0-0.5 s).
        let back = try #require(o.sound_return_s, "no sound after the server came back")
        #expect(back < 2.0)
        #expect(o.sound_after_s > 1.0)

        // The picture went on through the outage at its pace: no stall (the
        // old behaviour stalled 1.7 s), and it kept its place on its timeline.
        let frames = try Self.frames(log)
        try #require(frames.count > 100)
        let killedAt = o.killed_s - o.first_sound_s  // media time of the kill, about
        let through = frames.filter { $0.pts > killedAt - 1 }
        let gaps = zip(through.dropFirst(), through).map { $0.0.at - $0.1.at }
        #expect((gaps.max() ?? 0) < 0.25, "longest time between two pictures \(gaps.max() ?? 0) s")
        let before = Self.median(frames.filter { $0.pts > killedAt - 1.5 && $0.pts < killedAt - 0.3 }.map(\.offset))
        let outage = Self.median(frames.filter { $0.pts > killedAt + 0.5 && $0.pts < killedAt + 1.5 }.map(\.offset))
        let end = frames.last?.pts ?? 0
        let after = Self.median(frames.filter { $0.pts > end - 2 }.map(\.offset))
        let b = try #require(before), d = try #require(outage), a = try #require(after)
        // A clock that restarted, or stale samples played on return, would move
        // the timeline by about the outage (2 s). The stand-in keeps time to
        // the millisecond, but the clock a PulseAudio null sink drives (before
        // the kill, after the return) moves by some tens of ms with its bursts
        // of pulls on a busy machine (up to 90 ms seen), hence the bounds.
        #expect(abs(d - b) < 0.15, "offset before \(b), during the outage \(d)")
        #expect(abs(a - b) < 0.15, "offset before \(b), after \(a)")
        #expect(end > 10, "the last frame shown is at \(end) s")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect(report.players.first?.audioUnderruns == 0)
    }

    /// A server that hangs (SIGSTOP) instead of dying: SDL never hears of it,
    /// the callback just stops being called. The watchdog hands over to the
    /// stand-in; when the server goes on, the sound comes back in place.
    @Test func theWatchdogCarriesOnThroughAHungServer() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir)
        let log = dir.appendingPathComponent("frames.csv")
        let o = try Self.outage(["--freeze", "--kill-after-sound", "3", "--down-for", "2"],
                           player: ["--quit-after", "10", "--frame-log", log.path, clip])
        #expect(o.rc == 0, "\(o.stderr)")
        #expect(o.lines(containing: "audio device lost (no callback for") == 1, "\(o.stderr)")
        #expect(o.lines(containing: "audio device back") == 1, "\(o.stderr)")
        let back = try #require(o.sound_return_s, "no sound after the server went on")
        #expect(back < 2.0)
        let frames = try Self.frames(log)
        let frozeAt = o.killed_s - o.first_sound_s
        let through = frames.filter { $0.pts > frozeAt - 1 }
        let gaps = zip(through.dropFirst(), through).map { $0.0.at - $0.1.at }
        #expect((gaps.max() ?? 0) < 0.25, "longest time between two pictures \(gaps.max() ?? 0) s")
        let before = Self.median(frames.filter { $0.pts > frozeAt - 1.5 && $0.pts < frozeAt - 0.3 }.map(\.offset))
        let during = Self.median(frames.filter { $0.pts > frozeAt + 0.6 && $0.pts < frozeAt + 1.6 }.map(\.offset))
        let b = try #require(before), d = try #require(during)
        // The watchdog waits 0.3 s, within what the audio rings hold: the
        // stand-in reads through that gap and the timeline does not move.
        #expect(abs(d - b) < 0.05, "offset before \(b), during the hang \(d)")
    }

    /// No audio server when DeskPlayer starts: the video plays silently, with
    /// one line, and the sound starts when a server appears.
    @Test func videoPlaysWithoutAServerAndTheSoundStartsWhenOneAppears() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir)
        let log = dir.appendingPathComponent("frames.csv")
        let o = try Self.outage(["--absent-for", "3"], player: ["--quit-after", "8", "--frame-log", log.path, clip])
        #expect(o.rc == 0, "\(o.stderr)")
        #expect(o.lines(containing: "no audio output") == 1, "\(o.stderr)")
        let frames = try Self.frames(log)
        // Pictures from the start, at 25 fps, while there was no server.
        #expect(frames.filter { $0.at < 2.5 }.count >= 40, "\(frames.prefix(5))")
        #expect(o.stream_back_s.map { $0 < 1.0 } == true, "stream back after \(String(describing: o.stream_back_s)) s")
        let back = try #require(o.sound_return_s, "no sound once the server started: \(o.stderr)")
        #expect(back < 2.0)
    }

    /// mpv's names: --audio-device=help lists the server's devices, and
    /// `audio-device` switches while playing without moving the play head.
    @Test func devicesAreListedAndSwitchedByMpvsNames() throws {
        let runtime = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: runtime) }
        let env = ["XDG_RUNTIME_DIR": runtime.path, "SDL_AUDIODRIVER": "pulseaudio", "SDL_VIDEODRIVER": "dummy"]
        let started = try runProcess("/usr/bin/env", ["pulseaudio", "--daemonize=yes", "--exit-idle-time=-1", "-n",
                                                      "--load=module-null-sink sink_name=cap",
                                                      "--load=module-native-protocol-unix"], environment: env)
        try #require(started.status == 0, "pulseaudio: \(started.stderr)")
        // Foundation's Process starts children with SIGTERM blocked: SIGKILL it.
        defer {
            if let pid = try? String(contentsOfFile: runtime.appendingPathComponent("pulse/pid").path, encoding: .utf8),
               let n = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(n, SIGKILL) }
        }
        let help = try runProcess(Fixtures.binary, ["--audio-device=help"], environment: env)
        #expect(help.status == 0, "\(help.stderr)")
        #expect(help.stdout.contains("'auto' (Autoselect device)"), "\(help.stdout)")
        #expect(help.stdout.contains("'Null Output' (pulseaudio)"), "\(help.stdout)")

        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.makeClip(in: dir)
        let socketPath = dir.appendingPathComponent("ipc").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Fixtures.binary)
        process.arguments = ["--input-ipc-server", socketPath, "--audio-device", "auto", clip]
        process.environment = Fixtures.appEnvironment.merging(env) { $1 }
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let client = try ControlSocketTests.Client(path: socketPath)
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > 1 })
        #expect(client.get("audio-device") == .string("auto"))
        let list = client.get("audio-device-list")
        #expect(list?.text.contains("\"name\":\"Null Output\"") == true, "\(String(describing: list?.text))")
        let t0 = try #require(client.get("time-pos")?.number)
        let wall = Date()
        #expect(client.error([.string("set_property"), .string("audio-device"), .string("Null Output")]) == "success")
        #expect(client.get("audio-device") == .string("Null Output"))
        Thread.sleep(forTimeInterval: 3)  // measuring: 3 s of play head against the wall clock
        let t1 = try #require(client.get("time-pos")?.number)
        // The play head went on with the wall clock through the switch.
        let elapsed = Date().timeIntervalSince(wall)
        #expect(abs((t1 - t0) - elapsed) < 0.3, "played \(t1 - t0) s in \(elapsed) s")
        // And the player plays on the server again.
        let inputs = try runProcess("/usr/bin/env", ["pactl", "list", "short", "sink-inputs"], environment: env)
        #expect(!inputs.stdout.isEmpty, "no stream on the server after the switch")
    }
}
