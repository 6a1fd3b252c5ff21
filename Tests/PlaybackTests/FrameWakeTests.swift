// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Testing
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// While a player waits for a frame the decoder has not made yet, the main
/// loop sleeps without a timer: the decode thread wakes it when the frame is
/// queued. Real decoding of the bundled demo.
@Suite struct FrameWakeTests: PipelineDraining {
    @Test func theDecoderWakesWhoeverWaitsForTheNextFrame() throws {
        let (item, pipeline) = try open(Fixtures.asset("demo.mp4"))
        defer { withExtendedLifetime(item) {} }
        let woken = DispatchSemaphore(value: 0)
        // Empty the queue, then ask for the wake; the decoder may queue a
        // frame in between (nothing to wait for: asked again).
        var armed = false
        for _ in 0..<1000 where !armed {
            while pipeline.frames.pop() != nil {}
            armed = pipeline.frames.wakeWhenFrameQueued { woken.signal() }
        }
        #expect(armed, "the queue was never found empty")
        // The safety bound only fails the test: the wake ends the wait.
        #expect(woken.wait(timeout: .now() + 30) == .success, "no wake")
        #expect(pipeline.frames.peek() != nil, "the wake comes with a frame queued")
    }

    @Test func nothingToWaitForOnceTheDecoderEnded() throws {
        let (item, pipeline) = try open(Fixtures.asset("demo.mp4"))
        defer { withExtendedLifetime(item) {} }
        _ = drain(pipeline)
        #expect(pipeline.frames.isDrained)
        #expect(!pipeline.frames.wakeWhenFrameQueued {}, "no frame will come: the loop must not wait for one")
    }
}
