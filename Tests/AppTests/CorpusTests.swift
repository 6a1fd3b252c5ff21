// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
@testable import Playback
import TestSupport

/// Files broken in known ways, made here from the demo: each plays headless
/// for a few seconds with no crash and no hang (the run has a watchdog), and
/// one that cannot play gets one clear line; a good tile beside them plays on.
@Suite struct CorpusTests {
    static let corpus: [String] = {
        let dir = Fixtures.temporaryDirectory().appendingPathComponent("corpus")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
        func ffmpeg(_ args: [String]) { _ = try? runTool("ffmpeg", ["-v", "error", "-y"] + args) }
        func data(_ name: String) -> Data { (try? Data(contentsOf: URL(fileURLWithPath: path(name)))) ?? Data() }
        func write(_ d: Data, _ name: String) { try? d.write(to: URL(fileURLWithPath: path(name))) }
        var names: [String] = []

        // Truncated at many points (index at the front, so the start can play).
        ffmpeg(["-i", Fixtures.asset("demo.mp4"), "-t", "3", "-c", "copy", "-movflags", "+faststart", path("whole.mp4")])
        let whole = data("whole.mp4")
        for percent in [1, 5, 10, 30, 50, 70, 90, 99] {
            write(whole.prefix(whole.count * percent / 100), "cut\(percent).mp4")
            names.append("cut\(percent).mp4")
        }
        // Header bytes flipped.
        for (i, offset) in [4, 12, 40, 200, 600].enumerated() {
            var d = whole
            for k in offset..<min(offset + 16, d.count) { d[k] ^= 0xA5 }
            write(d, "flipped\(i).mp4")
            names.append("flipped\(i).mp4")
        }
        // An empty file, and containers with streams but no packets.
        write(Data(), "empty.mkv")
        ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x64:rate=10", "-f", "lavfi", "-i", "sine", "-t", "0", "nostreams.mkv"].map {
            $0 == "nostreams.mkv" ? path($0) : $0 })
        names += ["empty.mkv", "nostreams.mkv"]
        // Absurd dimensions (a raw video header claiming 100000x100000) and sample rate.
        write(Data("YUV4MPEG2 W100000 H100000 F25:1 Ip A1:1 C420jpeg\nFRAME\n".utf8) + Data(count: 4096), "huge.y4m")
        ffmpeg(["-f", "lavfi", "-i", "sine=sample_rate=44100:duration=1", path("tone.wav")])
        var wav = data("tone.wav")
        if wav.count > 44 {
            var rate = wav
            rate.replaceSubrange(24..<28, with: [0xFF, 0xFF, 0xFF, 0x7F])  // 2147483647 Hz
            write(rate, "absurdrate.wav")
            // A huge duration claim: the sizes say 4 GB, the data is 1 s.
            wav.replaceSubrange(4..<8, with: [0xF0, 0xFF, 0xFF, 0xFF])
            if let range = wav.range(of: Data("data".utf8)) {
                wav.replaceSubrange(range.upperBound..<(range.upperBound + 4), with: [0xE0, 0xFF, 0xFF, 0xFF])
            }
            write(wav, "hugeduration.wav")
        }
        names += ["huge.y4m", "absurdrate.wav", "hugeduration.wav"]
        // Timestamps jumping back (one TS after another) and wrapping (33-bit PTS).
        ffmpeg(["-i", Fixtures.asset("demo.mp4"), "-t", "2", "-c", "copy", "-f", "mpegts", path("a.ts")])
        write(data("a.ts") + data("a.ts"), "backwards.ts")
        ffmpeg(["-i", Fixtures.asset("demo.mp4"), "-t", "3", "-c", "copy", "-output_ts_offset", "95442.5", "-f", "mpegts",
                path("wrap.ts")])
        names += ["backwards.ts", "wrap.ts"]
        // A playlist that lists itself.
        try? "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nself.m3u8\n#EXT-X-ENDLIST\n"
            .write(toFile: path("self.m3u8"), atomically: true, encoding: .utf8)
        names.append("self.m3u8")
        return names.map(path) + found
    }()

    /// Inputs `make fuzz` found, kept byte for byte in corpus/ (see its README).
    static let found: [String] = {
        let dir = Fixtures.root.appendingPathComponent("Tests/AppTests/corpus")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0 != "README.md" }.sorted().map { dir.appendingPathComponent($0).path }
    }()

    static let headless = ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"]

    @Test(arguments: CorpusTests.corpus)
    func aBrokenFileEndsCleanly(_ file: String) throws {
        let r = try runProcess(Fixtures.binary, [file, "--quit-after", "3"], environment: Self.headless, timeout: 25)
        #expect(!r.timedOut, "hung: \(file)")
        #expect(r.status == 0 || r.status == 1, "status \(r.status) for \(file): \(r.stderr)")
        let lines = r.stderr.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("deskplayer: ") }
        #expect(lines.count <= 1, "at most one line, not one per packet: \(lines.prefix(3))")
        if r.status == 1 {
            #expect(lines.count == 1 && lines.first?.contains((file as NSString).lastPathComponent) == true,
                    "one clear line naming the file: \(r.stderr)")
        }
    }

    /// FFmpeg opens it (an MPEG-TS header) but cannot read its stream
    /// information: MediaInput closed the input and then its deinit closed it
    /// again, a double free that crashed the player (found by `make fuzz`).
    @Test func anInputThatOpensButCannotBeProbedIsRefusedOnce() throws {
        let file = try #require(CorpusTests.found.first { $0.hasSuffix("probe-fails.ts") })
        #expect(throws: MediaError.self) { try MediaInput(location: MediaLocation(file), interrupt: InterruptFlag()) }
        let item = PlayerItem(file)
        item.load()
        guard case .failed(let error) = item.waitUntilLoaded() else {
            Issue.record("opened: \(item.status)")
            return
        }
        #expect(error.message.contains("stream information"), "\(error)")
    }

    @Test func aGoodTilePlaysBesideTheBrokenOnes() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stats = dir.appendingPathComponent("stats.json")
        let files = [Fixtures.asset("demo.mp4")] + CorpusTests.corpus.filter { $0.hasSuffix(".mp4") || $0.hasSuffix(".ts") }
        let r = try runProcess(Fixtures.binary, files + ["--layout", "grid", "--quit-after", "3", "--stats-json", stats.path],
                               environment: Self.headless, timeout: 40)
        #expect(!r.timedOut)
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        let demo = report.players.first { $0.item == Fixtures.asset("demo.mp4") }
        // Played: its clock went through at least one of the three seconds
        // (frames shown, or dropped as late on a loaded machine; opening the
        // broken files beside it can take a while there) and pictures were shown.
        let due = (demo?.framesPresented ?? 0) + (demo?.framesDropped ?? 0) + (demo?.framesSkipped ?? 0)
        #expect(due >= 30 && (demo?.framesPresented ?? 0) >= 10, "the good tile played: \(String(describing: demo))")
    }
}
