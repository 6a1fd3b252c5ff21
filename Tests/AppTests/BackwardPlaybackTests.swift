// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Playback
import TestSupport
@testable import UI

/// Playing backward (`play-dir`) and editors' J/K/L, on real H.264 whose
/// frames show their own numbers (`FrameBackStepTests.codedClip`).
@Suite struct BackwardPlaybackTests {
    /// Refreshes the player until it pauses (or 20 s pass), and returns
    /// the frame number of every picture it put on screen meanwhile.
    static func framesUntilPaused(_ player: Player, timeout: Double = 20,
                                  each: (VideoFrame, PictureBuffer) -> Void = { _, _ in }) -> [Int] {
        var codes: [Int] = []
        let deadline = Date().addingTimeInterval(timeout)
        // As the app's loop: wait until the player's next deadline, or until
        // the decode thread wakes it with the frame it was waiting for.
        let wake = DispatchSemaphore(value: 0)
        while !player.isPaused && Date() < deadline {
            if let frame = player.update(at: HostTime.now()), let picture = frame.madePicture() {
                codes.append(FrameBackStepTests.code(of: picture))
                each(frame, picture)
            }
            let due = player.nextDeadline(at: HostTime.now()) { wake.signal() } ?? Player.lookInterval
            _ = wake.wait(timeout: .now() + min(max(due, 0), 0.1))
        }
        return codes
    }

    /// From frame 47 backward at half speed: every frame before it shows
    /// once, in reverse order, through four keyframe intervals (keyframes
    /// every 12), none dropped; at the start the player pauses on frame 0.
    @Test func backwardShowsEveryFrameOnceInReverseOrder() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let player = Player()
        player.replaceCurrentItem(with: PlayerItem(try FrameBackStepTests.codedClip(in: dir, fps: 25, name: "coded.mp4")))
        #expect(player.currentItem?.waitUntilLoaded() == .readyToPlay)
        player.seek(to: MediaTime(seconds: 47.0 / 25))
        #expect(FrameBackStepTests.nextFrames([player]) == [47])
        let pipeline = try #require(player.currentItem?.pipeline as? ItemPipeline)
        let fromCacheBefore = pipeline.framesFromCache
        player.speed.value = 0.5
        player.playDirection = .backward
        player.play()
        let codes = Self.framesUntilPaused(player)
        #expect(codes == Array((0...46).reversed()), "shown: \(codes)")
        #expect(player.stats.framesDropped == 0)
        #expect(player.isPaused && player.playDirection == .backward)
        #expect(abs(player.currentTime.seconds) < 1e-6, "paused at the start, at \(player.currentTime.seconds) s")
        // Each interval decoded once: most frames came out of memory.
        #expect(pipeline.framesFromCache - fromCacheBefore >= 40, "\(pipeline.framesFromCache - fromCacheBefore) of 47 from the cache")
    }

    /// 50 frames of 160×96 H.264 showing their numbers (as
    /// `FrameBackStepTests.codedClip`), with one keyframe: the first.
    static func longIntervalClip(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("long-interval.mp4").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=black:size=160x96:rate=25:duration=2",
                               "-vf", "geq=lum='if(gt(bitand(N\\,pow(2\\,floor(X*8/W)))\\,0)\\,235\\,16)':cb=128:cr=128",
                               "-c:v", "libx264", "-preset", "veryfast", "-g", "250", "-keyint_min", "250",
                               "-sc_threshold", "0", "-bf", "2", "-pix_fmt", "yuv420p", path])
        return path
    }

    /// A player on `path` (the 160×96 clip) whose frame cache holds 8 of
    /// its decoded frames, playing backward too, the item open.
    static func playerWithRoomForEightFrames(_ path: String) -> Player {
        var preferences = ItemPreferences()
        preferences.frameCacheBytes = 8 * 160 * 96 * 3 / 2
        preferences.backwardFrameCacheBytes = preferences.frameCacheBytes
        let player = Player()
        player.replaceCurrentItem(with: PlayerItem(path, preferences: preferences))
        #expect(player.currentItem?.waitUntilLoaded() == .readyToPlay)
        return player
    }

    /// The file gone once opened (the prefetch thread cannot open it
    /// again): one line says so, and each step decodes its frame on
    /// demand, as without the thread; every frame still shows, in order.
    @Test func aFileThatCannotBeReadAgainIsDecodedOnDemand() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.longIntervalClip(in: dir)
        let player = Self.playerWithRoomForEightFrames(path)
        player.seek(to: MediaTime(seconds: 20.0 / 25))
        #expect(FrameBackStepTests.nextFrames([player]) == [20])
        try FileManager.default.removeItem(atPath: path)
        let pipeline = try #require(player.currentItem?.pipeline as? ItemPipeline)
        player.speed.value = 0.25
        player.playDirection = .backward
        player.play()
        let codes = Self.framesUntilPaused(player)
        #expect(codes == Array((0...19).reversed()), "shown: \(codes)")
        let warnings = player.takeEvents().compactMap { event -> String? in
            if case .warning(let text) = event { return text } else { return nil }
        }
        #expect(warnings.filter { $0.contains("cannot decode ahead") }.count == 1, "\(warnings)")
        #expect(pipeline.backwardWindowsDecoded == 0)
    }

    /// A keyframe interval eight times longer than the cache holds
    /// (`--frame-cache-size` of 8 frames; one keyframe in 50 frames): the
    /// prefetch thread decodes the frames before those being shown, window
    /// after window, so from frame 45 down every frame shows once, in
    /// reverse order, none dropped (at 0.25×, so that a loaded machine
    /// keeps the clock), and the steps' own decode thread decodes none.
    @Test func backwardAcrossCacheWindowsIsDecodedAhead() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.longIntervalClip(in: dir)
        let player = Self.playerWithRoomForEightFrames(path)
        player.seek(to: MediaTime(seconds: 45.0 / 25))
        #expect(FrameBackStepTests.nextFrames([player]) == [45])
        let pipeline = try #require(player.currentItem?.pipeline as? ItemPipeline)
        let fromCacheBefore = pipeline.framesFromCache
        player.speed.value = 0.25
        player.playDirection = .backward
        player.play()
        let codes = Self.framesUntilPaused(player)
        #expect(codes == Array((0...44).reversed()), "shown: \(codes)")
        #expect(player.stats.framesDropped == 0)
        #expect(player.isPaused && abs(player.currentTime.seconds) < 1e-6)
        // 45 frames through room for 8: a window at least every 8 frames.
        #expect(pipeline.backwardWindowsDecoded >= 45 / 8, "\(pipeline.backwardWindowsDecoded) windows")
        // Every step's frame came out of the cache.
        #expect(pipeline.framesFromCache - fromCacheBefore >= 45, "\(pipeline.framesFromCache - fromCacheBefore) from the cache")
    }

    /// Pictures drawn at half the video's size by the CPU: the prefetch
    /// thread keeps each frame resized to that size (planar RGB at 80×48
    /// takes half the room of a decoded 160×96 frame, so a cache of 8
    /// decoded frames holds 16), and every frame still shows once, in
    /// reverse order, none dropped, most of them from those pictures.
    @Test func framesDecodedAheadAreKeptAtTheSizeShown() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.longIntervalClip(in: dir)
        let player = Self.playerWithRoomForEightFrames(path)
        let pipeline = try #require(player.currentItem?.pipeline as? ItemPipeline)
        pipeline.setDisplaySize(width: 80, height: 48)
        player.seek(to: MediaTime(seconds: 45.0 / 25))
        #expect(FrameBackStepTests.nextFrames([player]) == [45])
        player.speed.value = 0.25
        player.playDirection = .backward
        player.play()
        var resized = 0
        let codes = Self.framesUntilPaused(player, timeout: 30) { frame, picture in
            if picture.width == 80 && picture.height == 48 {
                resized += 1
                // Paused and shown larger, it is decoded again (as one decoded fast).
                #expect(frame.isForOneSize)
            }
        }
        #expect(codes == Array((0...44).reversed()), "shown: \(codes)")
        #expect(player.stats.framesDropped == 0)
        // The first frames backward may come from the steps' own decoding (as decoded).
        #expect(resized >= 30, "\(resized) of \(codes.count) shown from pictures made at the size shown")
    }

    /// At 4× with nothing kept (`--frame-cache-size 0`: every step decodes
    /// from its keyframe), steps may fall behind the clock: the frames
    /// shown still go down, none twice, and every frame not shown is
    /// counted as dropped.
    @Test func framesLeftOutBackwardAreCountedAsDropped() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var preferences = ItemPreferences()
        preferences.frameCacheBytes = 0
        let player = Player()
        player.replaceCurrentItem(with: PlayerItem(try FrameBackStepTests.codedClip(in: dir, fps: 25, name: "coded.mp4"),
                                                   preferences: preferences))
        #expect(player.currentItem?.waitUntilLoaded() == .readyToPlay)
        player.seek(to: MediaTime(seconds: 47.0 / 25))
        #expect(FrameBackStepTests.nextFrames([player]) == [47])
        player.speed.value = 4
        player.playDirection = .backward
        player.play()
        let codes = Self.framesUntilPaused(player)
        #expect(codes.last == 0 && zip(codes, codes.dropFirst()).allSatisfy { $0 > $1 }, "shown: \(codes)")
        #expect(codes.count + player.stats.framesDropped == 47,
                "\(codes.count) shown and \(player.stats.framesDropped) dropped of 47: \(codes)")
    }

    /// Forward again after playing backward: the frames follow on from the
    /// one on screen, in order.
    @Test func forwardAgainGoesOnFromTheFrameShown() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let player = Player()
        player.replaceCurrentItem(with: PlayerItem(try FrameBackStepTests.codedClip(in: dir, fps: 25, name: "coded.mp4")))
        #expect(player.currentItem?.waitUntilLoaded() == .readyToPlay)
        player.seek(to: MediaTime(seconds: 30.0 / 25))
        #expect(FrameBackStepTests.nextFrames([player]) == [30])
        player.playDirection = .backward
        player.play()
        var shown: [Int] = []
        while shown.count < 5, let code = FrameBackStepTests.nextFrames([player])[0] { shown.append(code) }
        player.pause()
        let last = try #require(shown.last)
        #expect(shown == Array((last...29).reversed()), "backward: \(shown)")
        player.playDirection = .forward
        player.play()
        var after: [Int] = []
        while after.count < 5, let code = FrameBackStepTests.nextFrames([player])[0] { after.append(code) }
        player.pause()
        // The frame on screen first (a step on its way when the pause came
        // may still land, one before `last`; the realigning seek shows it
        // again), then on from it, in order.
        let first = try #require(after.first)
        #expect(first == last || first == last - 1, "forward from \(first) after \(last)")
        let rest = Array(after.drop { $0 == first })
        #expect(!rest.isEmpty && rest == Array(first + 1..<first + 1 + rest.count), "forward: \(after) after \(last), backward \(shown)")
    }

    /// Alt+j, Alt+k and Alt+l (editors' J/K/L) set play-dir, speed and
    /// pause as editors do: again in the same direction doubles the speed
    /// up to 4×, the other direction starts at 1×.
    @Test func jklSetTheDirectionAndTheSpeed() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rig = try CommandTests.Rig([try FrameBackStepTests.codedClip(in: dir, fps: 25, name: "coded.mp4")])
        let player = try #require(rig.players.first)
        func state() -> (String, Double, Bool) { (player.playDirection.rawValue, player.speed.value, player.isPaused) }
        try rig.apply("seek 2 absolute")
        var expected: [(String, Double, Bool)] = []
        var seen: [(String, Double, Bool)] = []
        for (key, after) in [("Alt+j", ("backward", 1.0, false)), ("Alt+j", ("backward", 2.0, false)),
                             ("Alt+j", ("backward", 4.0, false)), ("Alt+j", ("backward", 4.0, false)),
                             ("Alt+k", ("backward", 4.0, true)), ("Alt+l", ("forward", 1.0, false)),
                             ("Alt+l", ("forward", 2.0, false)), ("Alt+k", ("forward", 2.0, true)),
                             ("Alt+j", ("backward", 1.0, false))] {
            try rig.controller.handleKey(key)
            expected.append(after)
            seen.append(state())
        }
        #expect(seen.map { "\($0)" } == expected.map { "\($0)" })
        // The same through the socket's property.
        try rig.apply("set play-dir forward")
        #expect(player.playDirection == .forward)
        try rig.apply("set play-dir -")
        #expect(player.playDirection == .backward)
    }
}

/// A comparison's sides step back together, each from its own cache.
@Suite struct CompareBackStepTests {
    /// Two encodes side by side (`--compare`: one sync group, the
    /// comparison's keys first); `,` twenty times from frame 50: each
    /// step both sides show the frame before, and after the steps that
    /// cross a keyframe (every 12) both take their frames from memory.
    @Test func aComparisonStepsBothSidesBackTogether() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try FrameBackStepTests.codedClip(in: dir, fps: 25, name: "a.mp4")
        let b = try FrameBackStepTests.codedClip(in: dir, fps: 25, name: "b.mp4")
        let rig = try CommandTests.Rig([a, b], synced: 2, arguments: ["--compare", "wipe"])
        rig.controller.compare = CompareState(mode: .wipe, count: 2)
        rig.controller.bindings = CompareKeys.bindings + rig.controller.bindings
        try rig.apply("seek 2 absolute")
        var codes = FrameBackStepTests.nextFrames(rig.players)
        #expect(codes == [50, 50])
        let pipelines = rig.players.compactMap { $0.currentItem?.pipeline as? ItemPipeline }
        let before = pipelines.map(\.framesFromCache)
        for step in 1...20 {
            try rig.controller.handleKey(",")
            codes = FrameBackStepTests.nextFrames(rig.players)
            #expect(codes == [50 - step, 50 - step], "step \(step): \(codes)")
        }
        #expect(rig.players.allSatisfy { $0.isPaused })
        // 49 (the first), 47 and 35 are decoded from their keyframe; the other 17 come from memory.
        let fromCache = zip(pipelines.map(\.framesFromCache), before).map { $0 - $1 }
        #expect(fromCache.count == 2 && fromCache.allSatisfy { $0 >= 17 }, "from the cache: \(fromCache)")
    }

    /// Playing backward in a comparison: the second side follows the
    /// first one's frames down, frame for frame, to the start.
    @Test func aComparisonPlaysBackwardTogether() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try FrameBackStepTests.codedClip(in: dir, fps: 25, name: "a.mp4")
        let b = try FrameBackStepTests.codedClip(in: dir, fps: 25, name: "b.mp4")
        let rig = try CommandTests.Rig([a, b], synced: 2, arguments: ["--compare", "wipe"])
        try rig.apply("seek 1 absolute")
        #expect(FrameBackStepTests.nextFrames(rig.players) == [25, 25])
        try rig.apply("set speed 0.5")
        try rig.apply("set play-dir backward")
        try rig.apply("set pause no")
        var shown: [[Int]] = [[], []]
        let deadline = Date().addingTimeInterval(20)
        // Until the first side has paused at the start and the second shows frame 0 too.
        while (!rig.players[0].isPaused || shown[1].last != 0) && Date() < deadline {
            let now = HostTime.now()
            for (side, player) in rig.players.enumerated() {
                if let frame = player.update(at: now), let picture = frame.madePicture() {
                    shown[side].append(FrameBackStepTests.code(of: picture))
                }
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        #expect(shown[0] == Array((0...24).reversed()), "A: \(shown[0])")
        #expect(shown[1] == Array((0...24).reversed()), "B: \(shown[1])")
        #expect(rig.players.allSatisfy { $0.shownItemTime == .zero })
    }
}
