// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
import TestSupport

/// The app plays what devices make, frame by frame, as the frame log and
/// the statistics it writes at exit say (SDL's dummy video and audio). One
/// at a time: they time real playback, beside the rest of the suite.
@Suite(.serialized) struct VideoPlaybackTests {
    struct LoggedRun {
        var stats: StatsReport.Entry
        var times: [Double]
    }

    func play(_ path: String) throws -> LoggedRun {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stats = dir.appendingPathComponent("stats.json"), log = dir.appendingPathComponent("frames.csv")
        let r = try runProcess(Fixtures.binary, [path, "--no-config", "--stats-json", stats.path, "--frame-log", log.path],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        let entry = try #require(report.players.first)
        let lines = try String(contentsOf: log, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst()
        return LoggedRun(stats: entry, times: lines.compactMap { $0.split(separator: ",").first.flatMap { Double($0) } })
    }

    /// 100 frames: every one presented at its own time (a few may be late
    /// and dropped on two shared cores, never lost), the sound beside them.
    @Test(arguments: ["h264", "avi", "theora"])
    func everyFrameIsPresentedAtItsTime(_ kind: String) throws {
        let path = kind == "h264" ? try VideoMedia.rawH264() : kind == "avi" ? try VideoMedia.avi() : try VideoMedia.theora()
        let run = try play(path)
        #expect(run.stats.framesPresented + run.stats.framesDropped == 100, "\(kind): \(run.stats)")
        // Most shown: how many a loaded machine drops as late is the benchmarks'
        // business (bench/video_cases.py), not a pass or a fail here.
        #expect(run.stats.framesPresented >= 50, "\(kind): \(run.stats.framesPresented) presented")
        #expect(Set(run.times).count == run.times.count, "\(kind): a frame time presented twice")
        let offGrid = run.times.filter { abs($0 / 0.04 - ($0 / 0.04).rounded()) > 1e-3 || $0 < 0 || $0 > 3.97 }
        #expect(offGrid.isEmpty, "\(kind): frames at \(offGrid.prefix(5))")
        if kind != "h264" { #expect(run.stats.maxAVOffsetMs < 45, "\(kind): A/V offset \(run.stats.maxAVOffsetMs) ms") }
    }
}
