// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
@testable import Playback
import TestSupport

/// mpv's frame-back-step (`,`) on real H.264: each step shows exactly the
/// frame before, read back from the frame number coded into the picture.
@Suite struct FrameBackStepTests {
    /// A 160x96 clip whose frame N shows N in binary: 8 vertical stripes,
    /// white for a 1 bit (the most significant on the right), a keyframe
    /// every 12 frames, so steps back cross keyframes.
    static func codedClip(in dir: URL, fps: Int, name: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=black:size=160x96:rate=\(fps):duration=3",
                               "-vf", "geq=lum='if(gt(bitand(N\\,pow(2\\,floor(X*8/W)))\\,0)\\,235\\,16)':cb=128:cr=128",
                               "-c:v", "libx264", "-preset", "veryfast", "-g", "12", "-bf", "2", "-pix_fmt", "yuv420p", path])
        return path
    }

    /// The frame number a picture shows.
    static func code(of picture: PictureBuffer) -> Int {
        var n = 0
        let y = picture.height / 2
        for bit in 0..<8 {
            let x = (2 * bit + 1) * picture.width / 16
            let p = picture.pixels + y * picture.pitch + x * 4  // BGRA
            if p[1] > 128 { n |= 1 << bit }
        }
        return n
    }

    /// Refreshes `players` until each has put a new frame on screen (or 10 s
    /// pass); returns the frame number each shows.
    static func nextFrames(_ players: [Player]) -> [Int?] {
        var codes = [Int?](repeating: nil, count: players.count)
        let deadline = Date().addingTimeInterval(10)
        while codes.contains(where: { $0 == nil }) && Date() < deadline {
            for (i, player) in players.enumerated() where codes[i] == nil {
                if let frame = player.update(at: HostTime.now()), let picture = frame.madePicture() {
                    codes[i] = code(of: picture)
                }
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return codes
    }

    /// Plays into the clip, pauses, then steps back ten times: each step
    /// lands on the frame numbered one less, and the position follows it.
    @Test func tenStepsBackLandOnEachFrameBefore() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let player = Player()
        player.replaceCurrentItem(with: PlayerItem(try Self.codedClip(in: dir, fps: 25, name: "coded.mp4")))
        #expect(player.currentItem?.waitUntilLoaded() == .readyToPlay)
        player.seek(to: MediaTime(seconds: 1.5))
        var code = try #require(Self.nextFrames([player])[0])
        #expect(code == 37, "the frame at 1.5 s is frame 37 (1.48 s), not \(code)")
        for step in 1...10 {
            player.stepBack()
            let shown = try #require(Self.nextFrames([player])[0], "step \(step) showed nothing")
            #expect(shown == code - 1, "step \(step): frame \(shown) after \(code)")
            #expect(player.isPaused)
            let start = try #require(player.shownFrameInterval?.start)
            #expect(Int((start * 25).rounded()) == shown, "the frame shown is at \(start) s")
            #expect(abs(player.currentTime.seconds - start) < 1e-6, "the position is the frame's")
            code = shown
        }
    }

    /// Stepping back through a keyframe interval decodes it once: the
    /// frames before a step's target are kept (decoded, copied), so every
    /// later step back within the interval is shown from memory, exactly
    /// the frame before. Crossing into the previous interval decodes that
    /// one once. 24 steps from frame 47 (keyframes every 12) cross two.
    @Test func stepsBackAfterTheFirstComeFromTheCache() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let player = Player()
        player.replaceCurrentItem(with: PlayerItem(try Self.codedClip(in: dir, fps: 25, name: "coded.mp4")))
        #expect(player.currentItem?.waitUntilLoaded() == .readyToPlay)
        player.seek(to: MediaTime(seconds: 47.0 / 25))
        var code = try #require(Self.nextFrames([player])[0])
        #expect(code == 47)
        let pipeline = try #require(player.currentItem?.pipeline as? ItemPipeline)
        let before = pipeline.framesFromCache
        for step in 1...24 {
            player.stepBack()
            let shown = try #require(Self.nextFrames([player])[0], "step \(step) showed nothing")
            #expect(shown == code - 1, "step \(step): frame \(shown) after \(code)")
            code = shown
        }
        // Decoded: the first step (47's interval, from 36) and the two
        // crossings (into 24-35 and 12-23); the other 21 from memory.
        #expect(pipeline.framesFromCache - before >= 21, "\(pipeline.framesFromCache - before) of 24 steps from the cache")
    }

    /// Exact seeks with nothing kept (`--frame-cache-size 0`): the frames
    /// before the target that nothing refers to are not decoded, and each
    /// seek still shows exactly the frame at its target (B-frames, 2 per
    /// group, keyframes every 12).
    @Test func exactSeeksSkipOnlyWhatNothingNeeds() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var preferences = ItemPreferences()
        preferences.frameCacheBytes = 0
        let player = Player()
        player.replaceCurrentItem(with: PlayerItem(try Self.codedClip(in: dir, fps: 25, name: "coded.mp4"), preferences: preferences))
        #expect(player.currentItem?.waitUntilLoaded() == .readyToPlay)
        for frame in [70, 11, 47, 23, 58, 35, 2, 66] {
            // Inside the frame, as a seek bar's time is.
            player.seek(to: MediaTime(seconds: (Double(frame) + 0.4) / 25))
            let shown = try #require(Self.nextFrames([player])[0], "frame \(frame) showed nothing")
            #expect(shown == frame, "a seek into frame \(frame) showed \(shown)")
        }
    }

    /// The seek bar while dragged, and mpv's `keyframes` flag: the keyframe
    /// at or before the target shows (the encoder puts one every 12 frames
    /// and at scene cuts: ffprobe says which), and the position is that
    /// frame's; an exact seek (the drag let go) then shows frame 47 itself.
    @Test func aKeyframeSeekShowsTheKeyframeBeforeAtOnce() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.codedClip(in: dir, fps: 25, name: "coded.mp4")
        let probe = try runTool("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=key_frame",
                                            "-of", "csv=p=0", clip])
        let keys = probe.stdout.split(separator: "\n").enumerated().filter { $0.element.hasPrefix("1") }.map(\.offset)
        let keyframe = try #require(keys.last { $0 <= 47 })
        #expect(keyframe < 47, "keyframes at \(keys)")
        let rig = try CommandTests.Rig([clip])
        try rig.apply("seek 1.9 absolute+keyframes")
        #expect(Self.nextFrames(rig.players) == [keyframe])
        #expect(abs((rig.players.first?.currentTime.seconds ?? 0) - Double(keyframe) / 25) < 1e-6)
        try rig.apply("seek 1.9 absolute+exact")
        #expect(Self.nextFrames(rig.players) == [47])
    }

    /// In a sync group the focused tile steps back one frame; the other
    /// (at another frame rate) shows the frame due then on the group clock.
    @Test func aSyncGroupStepsBackTogether() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try Self.codedClip(in: dir, fps: 25, name: "a.mp4")
        let b = try Self.codedClip(in: dir, fps: 30, name: "b.mp4")
        let rig = try CommandTests.Rig([a, b], synced: 2)
        try rig.apply("seek 2 absolute")
        var codes = Self.nextFrames(rig.players)
        #expect(codes[0] == 50 && codes[1] == 60, "\(codes)")
        for step in 1...3 {
            try rig.controller.handleKey(",")
            let before = codes[0] ?? 0
            codes = Self.nextFrames(rig.players)
            let leader = try #require(codes[0])
            #expect(leader == before - 1, "step \(step): the first tile shows \(leader) after \(before)")
            // The frame due at the first tile's frame time on the second tile's 30 fps.
            let due = Int((Double(leader) / 25 * 30 + 1e-9).rounded(.down))
            #expect(codes[1] == due, "step \(step): the second tile shows \(String(describing: codes[1])), due \(due)")
            #expect(rig.players.allSatisfy { $0.isPaused })
        }
    }
}
