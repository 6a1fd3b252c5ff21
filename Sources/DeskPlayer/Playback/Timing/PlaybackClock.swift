// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// A player's master clock: media time as a function of host time.
///
/// While audio plays, the audio callback re-anchors it after every buffer to
/// the media time of the samples it just handed to the device, at the host
/// time they will be heard: the clock is what the mixer sent, not a guess.
/// Without audible audio the player anchors it itself and it runs on host
/// time. `limit` stops it where the sent audio ends (an underrun), so video
/// waits instead of running ahead. `rate` is the playback speed: media
/// seconds per host second (the ratio of the samples being heard, when audio
/// drives it). Thread-safe (Mutex).
package final class PlaybackClock: Sendable {
    struct Anchor: Sendable {
        var time: Double = 0          // media seconds at `host`
        var host: UInt64 = 0
        var running = false
        var limit: Double? = nil
        /// True while the audio callback drives the clock.
        var audioDriven = false
        /// Media seconds per host second.
        var rate = 1.0

        func time(at host: UInt64) -> Double {
            guard running else { return time }
            let t = time + Double(Int64(bitPattern: host &- self.host)) / 1e9 * rate
            if let limit { return min(t, limit) }
            return t
        }
    }

    /// The anchor, and how many times the player itself set or stopped it.
    /// The audio callback reads the epoch when it takes its samples and
    /// anchors only if it is unchanged: a buffer mixed just before a pause
    /// or a seek would otherwise restart the clock after the player stopped
    /// it (time-pos running on while paused, or the old position after a
    /// seek to the start).
    private struct State {
        var anchor = Anchor()
        var epoch: UInt64 = 0
    }

    private let state = Mutex(State())

    package func time(at host: UInt64) -> Double {
        state.withLock { $0.anchor.time(at: host) }
    }

    /// Media seconds per host second now.
    var rate: Double { state.withLock { $0.anchor.rate } }

    /// Changes each time the player sets or stops the clock itself.
    var epoch: UInt64 { state.withLock { $0.epoch } }

    func set(time: Double, host: UInt64, running: Bool, limit: Double? = nil, audioDriven: Bool, rate: Double) {
        state.withLock {
            $0.anchor = Anchor(time: time, host: host, running: running, limit: limit, audioDriven: audioDriven, rate: rate)
            $0.epoch &+= 1
        }
    }

    /// The audio callback's anchor: the samples it just sent are heard at
    /// `host`. Ignored when the player set or stopped the clock since
    /// `epoch` was read (the samples were taken before that).
    func followAudio(time: Double, host: UInt64, limit: Double?, rate: Double, epoch: UInt64) {
        state.withLock {
            guard $0.epoch == epoch else { return }
            $0.anchor = Anchor(time: time, host: host, running: true, limit: limit, audioDriven: true, rate: rate)
        }
    }

    /// Stops the clock where it is now.
    func freeze(at host: UInt64) {
        state.withLock { s in
            s.epoch &+= 1
            let a = s.anchor
            if a.running {
                s.anchor = Anchor(time: a.time(at: host), host: host, running: false, limit: nil, audioDriven: false, rate: a.rate)
            }
        }
    }

    /// A new speed for a clock that runs on host time: from now on it moves
    /// `rate` media seconds per second (one the audio drives follows the
    /// samples it sends instead).
    func setRate(_ rate: Double, at host: UInt64) {
        state.withLock { s in
            let a = s.anchor
            guard !a.audioDriven else { return }
            s.anchor = Anchor(time: a.time(at: host), host: host, running: a.running, limit: a.limit, audioDriven: false, rate: rate)
        }
    }

    var snapshot: Anchor { state.withLock { $0.anchor } }
}
