// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
import TestSupport

/// A stream damaged in its middle plays to its end, as mpv plays it: FFmpeg
/// conceals what it cannot decode, the errors are counted in --stats-json
/// and said in one line on stderr, with the file's name.
@Suite struct DecodeErrorTests {
    /// Flips bits in the payload of H.264 transport packets in the middle
    /// fifth of the file, leaving headers (TS, PES, adaptation fields) as
    /// they are: what a bad sector or a lossy link does to a recording.
    static let damage = """
    import random, sys
    d = bytearray(open(sys.argv[1], 'rb').read())
    n = len(d) // 188
    rnd = random.Random(7)
    for k in range(n * 2 // 5, n * 3 // 5):
        h = d[k * 188:k * 188 + 4]
        pid, start, adaptation = ((h[1] & 0x1f) << 8) | h[2], h[1] & 0x40, (h[3] >> 4) & 3
        if pid != 0x100 or start or adaptation != 1 or rnd.random() < 0.5:
            continue
        for _ in range(12):
            d[k * 188 + rnd.randrange(4, 188)] ^= 1 << rnd.randrange(8)
    open(sys.argv[2], 'wb').write(d)
    """

    struct Run {
        var stats: StatsReport.Entry
        var stderr: String
    }

    func play(_ path: String, in dir: URL) throws -> Run {
        let stats = dir.appendingPathComponent("stats-\(UUID().uuidString).json")
        let r = try runProcess(Fixtures.binary, [path, "--no-config", "--stats-json", stats.path],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        return Run(stats: try #require(report.players.first), stderr: r.stderr)
    }

    @Test func damagedPacketsInTheMiddlePlayOnCountedAndSaidOnce() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clean = dir.appendingPathComponent("clean.ts").path, damaged = dir.appendingPathComponent("damaged.ts").path
        // 4 s of 25 fps H.264 (a keyframe a second) and AAC in MPEG-TS, as a DVB recording carries them.
        let made = try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25",
                                          "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "4",
                                          "-c:v", "libx264", "-g", "25", "-c:a", "aac", "-f", "mpegts", clean])
        try #require(made.status == 0, "\(made.stderr)")
        let broken = try runTool("python3", ["-c", Self.damage, clean, damaged])
        try #require(broken.status == 0, "\(broken.stderr)")

        let good = try play(clean, in: dir)
        #expect(good.stats.decodeErrors == 0)
        #expect(!good.stderr.contains("damaged"), "\(good.stderr)")

        let bad = try play(damaged, in: dir)
        #expect(bad.stats.status == "ready")
        #expect(bad.stats.decodeErrors > 0)
        // To its end: every one of the 100 frames shown or, late, dropped; none lost.
        #expect(bad.stats.framesPresented + bad.stats.framesDropped == 100, "\(bad.stats)")
        let said = bad.stderr.split(whereSeparator: \.isNewline).filter { $0.contains("damaged data") }
        #expect(said.count == 1, "\(bad.stderr)")
        #expect(said.first?.contains("damaged.ts") == true, "\(bad.stderr)")
    }
}
