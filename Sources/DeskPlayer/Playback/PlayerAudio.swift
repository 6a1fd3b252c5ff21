// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Synchronization

/// A player's voice in the mixer. It reads the current item's audio ring,
/// applies the player's gain, and re-anchors the player's clock to exactly
/// what it handed to the device. When the current item's audio ends and the
/// next item's ring is waiting, it carries on from that ring within the same
/// device buffer: the switch between queued items is sample-continuous.
/// Shared by the main thread (gate, rings) and the audio thread. Thread-safe (Mutex).
package final class PlayerAudio: AudioSource {
    /// The last switch to the next item's ring: the previous item's audio
    /// ends at `previousEnd` (its timeline), heard at host time `host`.
    struct Handover: Sendable {
        var previousEnd = 0.0
        var host: UInt64 = 0
    }

    struct Counters: Sendable {
        var underruns = 0
    }

    private struct State {
        var ring: AudioRing?
        /// The next queued item's ring, prerolled, taken over when `ring` drains.
        var nextRing: AudioRing?
        /// Counts hand-overs to `nextRing`, so the player can follow.
        var generation = 0
        var handover = Handover()
        /// The player wants sound and the video is prerolled.
        var gateOpen = false
        /// Consuming; false until enough is buffered (start, seek, underrun).
        var started = false
        var finished = false
        var gain: Float = 1
        /// The gain the last sample mixed had: a change ramps from it.
        var appliedGain: Float = 1
        var counters = Counters()
    }

    let clock: PlaybackClock
    private let state = Mutex(State())
    /// Audio buffered before playback starts or resumes after an underrun.
    private let prerollSeconds = 0.1

    init(clock: PlaybackClock) { self.clock = clock }

    func attach(_ ring: AudioRing?) {
        state.withLock { s in
            s.ring = ring
            s.nextRing = nil
            s.started = false
            s.finished = ring == nil
        }
    }

    /// The ring to continue with when the current one drains (nil: none).
    func setNext(_ ring: AudioRing?) { state.withLock { $0.nextRing = ring } }

    /// How many times the audio moved on to the next ring, and the last time.
    var generation: Int { state.withLock { $0.generation } }
    var lastHandover: Handover { state.withLock { $0.handover } }

    /// After a seek: wait for new audio before consuming again.
    func restart() {
        state.withLock { s in
            s.started = false
            s.finished = s.ring == nil
        }
    }

    func setGate(_ open: Bool) { state.withLock { $0.gateOpen = open } }

    /// Samples over which a change of gain ramps (5 ms at 48 kHz): a switch
    /// between two players (a comparison's heard side, the focused tile)
    /// crossfades instead of stepping, with no click and no gap.
    static let gainRampFrames = 240
    func setGain(_ gain: Float) {
        state.withLock { s in
            s.gain = gain
            // Nothing heard yet: no ramp from a gain never applied.
            if !s.started { s.appliedGain = gain }
        }
    }

    /// True when every sample of the item was sent (or it has no audio).
    var isFinished: Bool { state.withLock { $0.finished } }
    /// True while sound is actually flowing.
    var isFlowing: Bool { state.withLock { $0.gateOpen && $0.started && !$0.finished } }
    var counters: Counters { state.withLock { $0.counters } }

    package func mix(into mix: UnsafeMutablePointer<Float>, frames: Int, scratch: UnsafeMutablePointer<Float>,
             playbackHost: UInt64) {
        // The clock's epoch is read while the gate is seen open: a pause or
        // a seek closes the gate before it stops the clock, so a buffer
        // taken before then cannot re-anchor the clock after.
        let (current, gain, fromGain, epoch) = state.withLock { s -> (AudioRing?, Float, Float, UInt64) in
            guard s.gateOpen, !s.finished, let ring = s.ring else { return (nil, 0, 0, 0) }
            if !s.started {
                let preroll = Int(saturating: Double(ring.format.sampleRate) * prerollSeconds)
                guard ring.availableFrames >= preroll || ring.isEnded else { return (nil, 0, 0, 0) }
                s.started = true
            }
            return (ring, s.gain, s.appliedGain, clock.epoch)
        }
        guard var ring = current else { return }
        let channels = ring.format.channels
        let rate = Double(ring.format.sampleRate)
        var done = 0
        var endTime = 0.0
        while done < frames {
            let (count, time, ratio) = ring.read(into: scratch + done * channels, frames: frames - done)
            // Stretched audio: each sample stands for `speed` of its period in media time.
            let speed = ratio.value
            if let time { endTime = time.seconds + Double(count) / rate * speed }
            if count > 0, let time {
                // The clock follows the samples just read: `time` is heard
                // `done` frames after the buffer starts, at their speed.
                let host = playbackHost + UInt64(saturating: Double(done) / rate * 1e9)
                let short = done + count < frames && ring.availableFrames == 0 && !ring.isEnded
                clock.followAudio(time: time.seconds, host: host, limit: short ? endTime : nil, rate: speed, epoch: epoch)
            }
            done += count
            // A change of speed in the ring: read on with the new ratio.
            if count > 0 && done < frames && ring.availableFrames > 0 { continue }
            guard done < frames, ring.isDrained else { break }
            // This item's audio is over: go straight on with the next one's.
            let heard = playbackHost + UInt64(saturating: Double(done) / rate * 1e9)
            guard let next = state.withLock({ s -> AudioRing? in
                guard let n = s.nextRing else { return nil }
                s.ring = n
                s.nextRing = nil
                s.generation += 1
                s.handover = Handover(previousEnd: endTime, host: heard)
                return n
            }) else { break }
            ring = next
        }
        let ramp = fromGain == gain ? 0 : min(done, PlayerAudio.gainRampFrames)
        for f in 0..<ramp {
            let g = fromGain + (gain - fromGain) * Float(f + 1) / Float(PlayerAudio.gainRampFrames)
            for c in 0..<channels { mix[f * channels + c] += scratch[f * channels + c] * g }
        }
        for i in (ramp * channels)..<(done * channels) { mix[i] += scratch[i] * gain }
        if ramp > 0 {
            let reached = ramp == PlayerAudio.gainRampFrames ? gain
                : fromGain + (gain - fromGain) * Float(ramp) / Float(PlayerAudio.gainRampFrames)
            // Unless the gain changed again meanwhile: then the next buffer ramps on from here.
            state.withLock { $0.appliedGain = reached }
        }
        guard done < frames else { return }
        state.withLock { s in
            if ring.isDrained {
                s.finished = true
            } else if s.started {
                s.started = false
                s.counters.underruns += 1
            }
        }
    }
}
