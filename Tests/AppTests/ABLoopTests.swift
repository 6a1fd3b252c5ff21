// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// mpv's A-B loop on real decoded media: every pass after the first is the
/// interval [A, B), its seams as exact as a whole-file loop's.
@Suite struct ABLoopTests {
    let pipelines = Pipelines()

    /// Opens `path` with an A-B loop and waits until it is ready.
    func open(_ path: String, a: Double, b: Double) throws -> (PlayerItem, ItemPipeline) {
        try openItem(path) { $0.setLoopInterval(LoopInterval(MediaTime(seconds: a), MediaTime(seconds: b))) }
    }

    /// The first `frames` audio frames (interleaved) and the video frame
    /// times up to the same point on the timeline.
    func read(_ pipeline: ItemPipeline, frames wanted: Int) -> (samples: [Float], continuous: Bool, video: [MediaTime]) {
        var samples: [Float] = []
        var video: [MediaTime] = []
        var continuous = true
        var next: MediaTime?
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 2048)
        defer { buffer.deallocate() }
        let deadline = Date().addingTimeInterval(30)
        let end = MediaTime(value: Int64(wanted), timescale: 48_000)
        let frame = MediaTime(value: 1, timescale: 30)
        func videoDone() -> Bool { pipeline.video == nil || (video.last.map { $0 + frame >= end } ?? false) }
        while (samples.count < wanted * 2 || !videoDone()) && Date() < deadline {
            var progressed = false
            if let f = pipeline.frames.peek(), f.pts < end || pipeline.audio == nil {
                if let f = pipeline.frames.pop() {
                    video.append(f.pts)
                    progressed = true
                }
            }
            let (n, time, _) = pipeline.audioRing.read(into: buffer, frames: max(0, min(1024, wanted - samples.count / 2)))
            if n > 0, let time {
                if let next, next != time { continuous = false }
                next = time + MediaTime(value: Int64(n), timescale: 48_000)
                samples.append(contentsOf: UnsafeBufferPointer(start: buffer, count: n * 2))
                progressed = true
            }
            if !progressed { Thread.sleep(forTimeInterval: 0.001) }
        }
        return (samples, continuous, video)
    }

    /// White noise (every sample different) at 48 kHz: each pass after the
    /// first must be the interval's samples exactly, back to back.
    @Test func passesAreTheIntervalsSamplesExactly() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("noise.wav").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                               "anoisesrc=sample_rate=48000:duration=3:amplitude=0.5:seed=19", "-ac", "2",
                               "-c:a", "pcm_s16le", path])
        let (item, pipeline) = try open(path, a: 0.5, b: 1.25)
        defer { withExtendedLifetime(item) {} }
        let first = 60_000, pass = 36_000
        let (out, continuous, _) = read(pipeline, frames: first + 3 * pass)
        try #require(out.count == (first + 3 * pass) * 2)
        #expect(continuous, "the timeline has a gap")
        // The source, as the same pipeline plays it once without a loop.
        let (plainItem, plain) = try pipelines.open(path)
        defer { withExtendedLifetime(plainItem) {} }
        let (_, whole) = pipelines.drain(plain, keepSamples: true)
        try #require(whole.samples.count >= first * 2)
        #expect(out[0..<(first * 2)] == whole.samples[0..<(first * 2)], "the first pass is the file from its start to B")
        let interval = whole.samples[(24_000 * 2)..<(first * 2)]
        for k in 0..<3 {
            let start = (first + k * pass) * 2
            let got = out[start..<(start + pass * 2)]
            #expect(Array(got) == Array(interval), "pass \(k + 1) is not exactly [A, B)")
        }
        #expect(Array(pipeline.passStarts.prefix(4)) == [.zero, MediaTime(value: 5, timescale: 4), MediaTime(value: 2, timescale: 1),
                                                        MediaTime(value: 11, timescale: 4)])
    }

    /// Video and AAC audio: the frames of [2 s, 3 s) every pass, one frame
    /// period apart across every seam (none repeated or missing), and the
    /// audio one continuous timeline whose passes start exactly 1 s apart.
    @Test func videoPassesShowExactlyTheFramesOfTheInterval() throws {
        let (item, pipeline) = try open(Fixtures.asset("demo.mp4"), a: 2, b: 3)
        defer { withExtendedLifetime(item) {} }
        let (audio, continuous, video) = read(pipeline, frames: 6 * 48_000)
        #expect(continuous)
        #expect(audio.count == 6 * 48_000 * 2)
        let frame = MediaTime(value: 1, timescale: 30)
        #expect(video.count >= 179, "\(video.count) frames")
        #expect(video.first == .zero)
        let steps = zip(video, video.dropFirst()).map { $1 - $0 }
        #expect(steps.allSatisfy { $0 == frame }, "frames repeated or missing at a seam: \(Set(steps.map(\.seconds)))")
        #expect(Array(pipeline.passStarts.prefix(4)) == [.zero, MediaTime(value: 3, timescale: 1),
                                                        MediaTime(value: 4, timescale: 1), MediaTime(value: 5, timescale: 1)])
        // The position reads as item time inside the interval.
        #expect(pipeline.passOrigin(2) == MediaTime(value: 2, timescale: 1))
    }

    /// Through the command path: `l` sets A, then B, then clears; the
    /// socket's ab-loop-a/ab-loop-b read mpv's way; B before A is swapped.
    @Test func abLoopCommandAndProperties() throws {
        let rig = try CommandTests.Rig([Fixtures.asset("demo.mp4")])
        let player = rig.players[0]
        #expect(try rig.controller.value(of: "ab-loop-a") == .string("no"))
        try rig.apply("seek 2 absolute")
        try rig.controller.handleKey("l")
        #expect(rig.screen.messages.last?.text.hasPrefix("A-B loop: A") == true)
        #expect(try rig.controller.value(of: "ab-loop-a") == .number(2))
        try rig.apply("seek 3 absolute")
        try rig.controller.handleKey("l")
        #expect(try rig.controller.value(of: "ab-loop-b") == .number(3))
        #expect(LoopInterval(player.abLoop.a, player.abLoop.b) == LoopInterval(MediaTime(seconds: 2), MediaTime(seconds: 3)))
        try rig.controller.handleKey("l")
        #expect(rig.screen.messages.last?.text == "A-B loop cleared")
        #expect(try rig.controller.value(of: "ab-loop-b") == .string("no"))
        // B first, then a later A: the interval is the two swapped.
        try rig.apply("set ab-loop-b 1")
        try rig.apply("set ab-loop-a 4")
        #expect(LoopInterval(player.abLoop.a, player.abLoop.b) == LoopInterval(MediaTime(seconds: 1), MediaTime(seconds: 4)))
        #expect(throws: CommandError.propertyError) { try rig.apply("set ab-loop-a -1") }
        try rig.apply("set ab-loop-a no")
        #expect(player.abLoop.a == nil)
    }

    /// `--ab-loop-a/--ab-loop-b` as a user runs it, captured from the device:
    /// after the first pass every pass is [A, B) of the noise bit for bit,
    /// back to back: 0 samples inserted or lost at any seam.
    @Test func theDeviceGetsTheIntervalBackToBack() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("noise.wav").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i",
                               "anoisesrc=sample_rate=48000:duration=2:amplitude=0.5:seed=7", "-ac", "2",
                               "-c:a", "pcm_s16le", path])
        let rawRef = dir.appendingPathComponent("ref.raw")
        try runTool("ffmpeg", ["-v", "error", "-y", "-i", path, "-f", "f32le", rawRef.path])
        let ref = try CapturedAudio.leftChannel(rawRef)
        let raw = dir.appendingPathComponent("out.raw")
        let r = try runProcess(Fixtures.binary, [path, "--no-config", "--ab-loop-a", "0.25", "--ab-loop-b", "0.75",
                                                 "--quit-after", "2.8"],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk",
                                             "SDL_DISKAUDIOFILE": raw.path], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let left = try CapturedAudio.leftChannel(raw)
        let r0 = try #require(ref.firstIndex { $0 != 0 })
        let c0 = try #require(left.firstIndex { $0 != 0 })
        let start = c0 - r0
        let a = 12_000, b = 36_000
        try #require(left.count >= start + b + 3 * (b - a), "\(left.count) samples captured")
        #expect(Array(left[start..<(start + b)]) == Array(ref[0..<b]), "the first pass is the file up to B")
        for pass in 0..<3 {
            let from = start + b + pass * (b - a)
            let got = Array(left[from..<(from + b - a)])
            let differing = zip(got, ref[a..<b]).filter { $0 != $1 }.count
            #expect(differing == 0, "pass \(pass + 1): \(differing) samples differ from [A, B)")
        }
    }
}
