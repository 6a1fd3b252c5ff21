// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Synchronization

/// The one path from the mixer to whatever plays its sound now: an SDL
/// device, or the silent stand-in while there is none. Exactly one of them,
/// the owner, renders at a time; the others get silence.
///
/// When the owner changes, its first render carries on the timeline where
/// the last render ended: audio whose time passed in the gap is read and
/// dropped (it was due while nothing played it), or silence is put first
/// when the new output starts earlier. So every clock the mixer's sources
/// drive runs on without a jump, and a device that comes back plays the
/// samples due now, never a burst of stale ones. A short fade-in follows
/// the switch so the sound does not start with a click.
///
/// Thread-safe: a Mutex, held through a render (the owner's thread, and at
/// a switch the thread making it, wait at most one render for each other).
final class AudioFeed: Sendable {
    /// Who may render (each output has its own token; 0 is nobody).
    typealias Owner = Int

    private struct State {
        var owner: Owner = 0
        /// The host time at which the sample after the last rendered one is heard.
        var renderedUntil: UInt64?
        /// The owner changed: line the next render up with `renderedUntil`.
        var realign = false
        /// Frames of the fade-in already played (`fadeFrames`: no fade under way).
        var faded: Int
    }

    let mixer: any AudioOutputSource
    var format: AudioFormat { mixer.format }
    private let state: Mutex<State>
    /// Where skipped audio is rendered and thrown away; used under the lock only.
    nonisolated(unsafe) private let discard: UnsafeMutablePointer<Float>
    private let discardFrames = 4096
    /// 10 ms: long enough that a resume does not click, short enough not to be heard as a fade.
    private let fadeFrames: Int
    /// More audio than this in a gap is not read through (its rings hold far less anyway).
    private let maxSkipSeconds = 5.0

    init(mixer: any AudioOutputSource) {
        self.mixer = mixer
        fadeFrames = mixer.format.sampleRate / 100
        state = Mutex(State(faded: mixer.format.sampleRate / 100))
        discard = .allocate(capacity: discardFrames * mixer.format.channels)
    }

    deinit { discard.deallocate() }

    /// Hands the mixer to `owner`; its next render lines up with the last one.
    func setOwner(_ owner: Owner) {
        state.withLock { s in
            guard s.owner != owner else { return }
            s.owner = owner
            s.realign = true
        }
    }

    var owner: Owner { state.withLock { $0.owner } }

    /// Renders `frames` frames heard from `playbackHost` on, if `owner` owns
    /// the mixer (else leaves `out` alone and returns false).
    func render(as owner: Owner, into out: UnsafeMutablePointer<Float>, frames: Int, playbackHost: UInt64) -> Bool {
        let channels = format.channels
        let rate = UInt64(format.sampleRate)
        return state.withLock { s in
            guard s.owner == owner, frames > 0 else { return false }
            var padded = 0
            if s.realign, let until = s.renderedUntil {
                let gap = Int64(bitPattern: playbackHost &- until)
                if gap > 0 {
                    let seconds = min(Double(gap) / 1e9, maxSkipSeconds)
                    skip(frames: Int(saturating: seconds * Double(rate)), from: until)
                } else if gap < 0 {
                    padded = min(frames, Int(UInt64(-gap) * rate / 1_000_000_000))
                    out.update(repeating: 0, count: padded * channels)
                }
                s.faded = 0
            }
            s.realign = false
            let start = playbackHost + UInt64(padded) * 1_000_000_000 / rate
            mixer.render(into: out + padded * channels, frames: frames - padded, playbackHost: start)
            if s.faded < fadeFrames {
                var i = padded
                while i < frames && s.faded < fadeFrames {
                    let g = Float(s.faded) / Float(fadeFrames)
                    for c in 0..<channels { out[i * channels + c] *= g }
                    i += 1
                    s.faded += 1
                }
            }
            s.renderedUntil = playbackHost + UInt64(frames) * 1_000_000_000 / rate
            return true
        }
    }

    /// Reads `frames` frames of the mixer heard from `host` on, into nothing.
    private func skip(frames: Int, from host: UInt64) {
        let rate = UInt64(format.sampleRate)
        var done = 0
        while done < frames {
            let chunk = min(frames - done, discardFrames)
            mixer.render(into: discard, frames: chunk, playbackHost: host + UInt64(done) * 1_000_000_000 / rate)
            done += chunk
        }
    }
}
