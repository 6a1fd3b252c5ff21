import Synchronization

/// A player's voice in the mixer. It reads the current item's audio ring,
/// applies the player's gain, and re-anchors the player's clock to exactly
/// what it handed to the device. Shared by the main thread (which opens and
/// closes the gate) and the audio thread. Thread-safe (Mutex).
final class PlayerAudio: AudioSource {
    struct Counters: Sendable {
        var underruns = 0
        /// Frames actually sent to the device (not silence).
        var framesSent: Int64 = 0
    }

    private struct State {
        var ring: AudioRing?
        /// The player wants sound and the video is prerolled.
        var gateOpen = false
        /// Consuming; false until enough is buffered (start, seek, underrun).
        var started = false
        var finished = false
        var gain: Float = 1
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
            s.started = false
            s.finished = ring == nil
        }
    }

    /// After a seek: wait for new audio before consuming again.
    func restart() {
        state.withLock { s in
            s.started = false
            s.finished = s.ring == nil
        }
    }

    func setGate(_ open: Bool) { state.withLock { $0.gateOpen = open } }
    func setGain(_ gain: Float) { state.withLock { $0.gain = gain } }

    /// True when every sample of the item was sent (or it has no audio).
    var isFinished: Bool { state.withLock { $0.finished } }
    /// True while sound is actually flowing.
    var isFlowing: Bool { state.withLock { $0.gateOpen && $0.started && !$0.finished } }
    var counters: Counters { state.withLock { $0.counters } }

    func mix(into mix: UnsafeMutablePointer<Float>, frames: Int, scratch: UnsafeMutablePointer<Float>,
             playbackHost: UInt64) {
        let (ring, gain) = state.withLock { s -> (AudioRing?, Float) in
            guard s.gateOpen, !s.finished, let ring = s.ring else { return (nil, 0) }
            if !s.started {
                let preroll = Int(Double(ring.format.sampleRate) * prerollSeconds)
                guard ring.availableFrames >= preroll || ring.isEnded else { return (nil, 0) }
                s.started = true
            }
            return (ring, s.gain)
        }
        guard let ring else { return }
        let (count, time) = ring.read(into: scratch, frames: frames)
        let rate = Double(ring.format.sampleRate)
        if count > 0, let time {
            let channels = ring.format.channels
            for i in 0..<(count * channels) { mix[i] += scratch[i] * gain }
            let start = time.seconds
            let ended = ring.isEnded
            // Short of data: the clock stops where the sent audio stops.
            let limit: Double? = count < frames && !ended ? start + Double(count) / rate : nil
            clock.set(time: start, host: playbackHost, running: true, limit: limit, audioDriven: true)
        }
        if count < frames {
            state.withLock { s in
                if ring.isDrained {
                    s.finished = true
                } else if s.started {
                    s.started = false
                    s.counters.underruns += 1
                }
            }
        }
        if count > 0 { state.withLock { $0.counters.framesSent += Int64(count) } }
    }
}
