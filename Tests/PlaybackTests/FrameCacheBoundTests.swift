// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Testing
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// The decoded frame cache's two bounds: `--frame-cache-size` while
/// paused or stepping, a larger one while playing backward (a window is
/// decoded from its keyframe, so more room is fewer decodes), given back
/// when backward play stops. Real decoded frames of a real clip.
@Suite struct FrameCacheBoundTests {
    @Test func playingBackwardTakesItsLargerBoundAndGivesItBack() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("clip.mkv").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=160x96:r=25:d=1", "-c:v", "ffv1", path])
        let (item, pipeline) = try openItem(path, size: nil)
        defer { withExtendedLifetime(item) {} }
        var frames: [VideoFrame] = []
        let deadline = Date().addingTimeInterval(20)
        while frames.count < 6 && Date() < deadline {
            if let frame = pipeline.frames.pop() { frames.append(frame) } else { pipeline.frames.waitForFrame(timeout: 0.5) }
        }
        #expect(frames.count == 6, "the clip gave \(frames.count) frames")
        let frameBytes = try #require(DecodedFrameCache.bytes(of: frames[0].source.pointer.pointee))

        let cache = DecodedFrameCache(budget: 2 * frameBytes, backwardBudget: 5 * frameBytes)
        #expect(cache.budget == 2 * frameBytes)
        cache.setPlayingBackward(true)
        #expect(cache.budget == 5 * frameBytes)
        // Decoded ahead of a step at the last frame: all five fit now.
        let playhead = frames[5].itemTime
        for frame in frames.prefix(5) {
            #expect(cache.insertAhead(frame.source.pointer, itemTime: frame.itemTime, duration: frame.duration, playhead: playhead))
        }
        #expect(cache.count == 5 && cache.bytes <= cache.budget)
        // Forward again: the bound comes back, the latest frames (shown) going first.
        cache.setPlayingBackward(false)
        #expect(cache.budget == 2 * frameBytes)
        #expect(cache.count == 2 && cache.bytes <= 2 * frameBytes)
        #expect(cache.run(at: frames[0].itemTime, limit: 10).count == 2, "the earliest two stay")

        // The cache turned off stays off backward; the default is larger, and bounded.
        #expect(DecodedFrameCache(budget: 0, backwardBudget: 1 << 30).backwardBudget == 0)
        #expect(DecodedFrameCache(budget: 8 << 20, backwardBudget: 1 << 20).backwardBudget == 8 << 20, "never below the other")
        #expect(DecodedFrameCache.defaultBackwardBudget >= DecodedFrameCache.defaultBudget)
        #expect(DecodedFrameCache.defaultBackwardBudget <= 1 << 30)
    }
}
