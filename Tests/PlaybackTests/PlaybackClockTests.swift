// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import Playback

/// The audio callback mixes a buffer, then anchors the clock to it; a pause
/// or a seek on the main thread can land in between. MPRIS's Stop (pause,
/// seek to 0) once read a running clock at the old position on CI.
@Suite struct PlaybackClockTests {
    @Test func aBufferTakenBeforeAPauseDoesNotRestartTheClock() {
        let clock = PlaybackClock()
        clock.set(time: 5, host: 1_000, running: true, audioDriven: true, rate: 1)
        let taken = clock.epoch           // the callback takes its samples
        clock.freeze(at: 2_000)           // the player pauses
        clock.followAudio(time: 5.02, host: 3_000, limit: nil, rate: 1, epoch: taken)
        #expect(clock.snapshot.running == false)
        #expect(clock.time(at: 1_000_000_000_000) == clock.time(at: 2_000))
    }

    @Test func aBufferTakenBeforeASeekDoesNotMoveTheClockBack() {
        let clock = PlaybackClock()
        clock.set(time: 0.6, host: 1_000, running: true, audioDriven: true, rate: 1)
        let taken = clock.epoch
        clock.set(time: 0, host: 2_000, running: false, audioDriven: false, rate: 1)   // seek to the start
        clock.followAudio(time: 0.62, host: 3_000, limit: nil, rate: 1, epoch: taken)
        #expect(clock.time(at: 10_000_000_000) == 0)
    }

    @Test func buffersTakenAfterwardsDriveTheClock() {
        let clock = PlaybackClock()
        clock.freeze(at: 0)
        clock.followAudio(time: 1, host: 1_000_000_000, limit: nil, rate: 1, epoch: clock.epoch)
        #expect(clock.snapshot.audioDriven && clock.snapshot.running)
        #expect(abs(clock.time(at: 2_000_000_000) - 2) < 1e-9)
    }
}
