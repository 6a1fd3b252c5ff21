// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// Where each loop pass of an item starts on the timeline of the current
/// seek serial. A loop does not bump the serial: the decoders add the pass's
/// start to every timestamp, so the timeline runs on. Audio knows each seam
/// to the sample and is authoritative; video takes the seam from audio, so
/// the two never drift apart over many loops (an item without audio takes
/// video's own figure). Written by the decode threads, read by the player.
/// Thread-safe (Mutex).
final class LoopPasses: Sendable {
    private struct State {
        /// The seek's serial (video's).
        var serial = 0
        /// The audio queue's serial: the seek's, or a later one when the
        /// audio track changed without a seek.
        var audioSerial = 0
        var starts: [MediaTime] = [.zero]
        /// The A-B loop the passes of this serial follow (nil: whole-file passes).
        var interval: LoopInterval?
    }

    private let state = Mutex(State())
    private let hasAudio: Bool
    /// Signalled when a pass start is published or a seek resets them: what
    /// the video thread's wait for audio's figure waits on.
    let wake = WakeSignal()

    init(hasAudio: Bool) { self.hasAudio = hasAudio }

    /// The start of every pass begun so far.
    var starts: [MediaTime] { state.withLock { $0.starts } }

    /// A seek: pass 0 of `serial` starts at zero; stale decoders' figures are refused.
    func reset(serial: Int, interval: LoopInterval? = nil) {
        state.withLock { s in
            s.serial = serial
            s.audioSerial = serial
            s.starts = [.zero]
            s.interval = interval
        }
        wake.signal()
    }

    /// Where in the item pass `index` starts (its zero, or an A-B loop's A).
    func origin(ofPass index: Int) -> MediaTime {
        state.withLock { s in s.interval?.origin(ofPass: index) ?? .zero }
    }

    /// An audio track switch to `serial`, playing from `time` on: the pass
    /// `time` lies in and where it starts (the new track's timestamps are
    /// placed in it). The old track's figures are refused from now on.
    func switchAudio(serial: Int, at time: MediaTime) -> (pass: Int, start: MediaTime) {
        state.withLock { s in
            let pass = max(0, s.starts.lastIndex { $0 <= time } ?? 0)
            s.audioSerial = serial
            return (pass, s.starts[pass])
        }
    }

    /// Records where pass `index` starts, as the audio or the video thread
    /// of `serial` found it; returns the start to use. Audio's figure wins
    /// over video's; video's counts only when there is no audio.
    func publish(_ index: Int, at time: MediaTime, fromAudio: Bool, serial: Int) -> MediaTime {
        defer { wake.signal() }
        return state.withLock { s in
            guard (fromAudio ? s.audioSerial : s.serial) == serial else { return time }
            if index < s.starts.count {
                if fromAudio { s.starts[index] = time }
                return s.starts[index]
            }
            if index == s.starts.count && (fromAudio || !hasAudio) { s.starts.append(time) }
            return time
        }
    }

    /// Where pass `index` of `serial` starts, once known.
    func start(of index: Int, serial: Int) -> MediaTime? {
        state.withLock { s in s.serial == serial && index < s.starts.count ? s.starts[index] : nil }
    }

    /// The video thread's wait for audio's figure of pass `index`. Audio
    /// decodes further ahead and normally got there first; the wait is
    /// bounded (2 s), and ends with a seek or `isAborted`.
    func awaitAudioStart(of index: Int, serial: Int, isAborted: () -> Bool) -> MediaTime? {
        guard hasAudio else { return start(of: index, serial: serial) }
        let deadline = HostTime.now() + 2_000_000_000
        while !isAborted() && HostTime.now() < deadline && state.withLock({ $0.serial }) == serial {
            let seen = wake.generation
            if let t = start(of: index, serial: serial) { return t }
            wake.wait(after: seen, timeout: 0.1)
        }
        return start(of: index, serial: serial)
    }
}
