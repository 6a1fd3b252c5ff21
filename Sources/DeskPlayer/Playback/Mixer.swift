// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Synchronization

/// Something the mixer pulls audio from (a player, a composition).
package protocol AudioSource: AnyObject, Sendable {
    /// Adds up to `frames` frames into `mix` (interleaved, `AudioFormat.device`).
    /// `scratch` holds at least `frames` frames for the source's own use.
    /// `playbackHost` is the host time at which the first frame will be heard.
    /// Runs on the audio thread: must not block or allocate.
    func mix(into mix: UnsafeMutablePointer<Float>, frames: Int, scratch: UnsafeMutablePointer<Float>,
             playbackHost: UInt64)
}

/// Sums every audible source into the device buffer. The SDL callback (or a
/// test, or an offline export) calls `render`. Thread-safe (Mutex).
package final class Mixer: Sendable {
    package let format: AudioFormat
    private let sources = Mutex<[any AudioSource]>([])
    /// Held by a render for its whole pass, and by `together`: gain changes
    /// made together (a comparison's heard side moving from A to B) reach
    /// one render whole. Made apart, a render that came between A's fade-out
    /// and B's fade-in played silence for the rest of its buffer: a gap at
    /// the switch (ScreenTests' switchingTheHeardSideIsSampleContinuous,
    /// on a busy machine).
    private let pass = Mutex<Void>(())
    /// Used only by the one thread that calls `render`.
    nonisolated(unsafe) private let scratch: UnsafeMutablePointer<Float>
    private let scratchFrames = 8192

    package init(format: AudioFormat = .device) {
        self.format = format
        scratch = .allocate(capacity: scratchFrames * format.channels)
    }

    deinit { scratch.deallocate() }

    package func add(_ source: any AudioSource) {
        sources.withLock { list in
            if !list.contains(where: { $0 === source }) { list.append(source) }
        }
    }

    package func remove(_ source: any AudioSource) {
        sources.withLock { $0.removeAll { $0 === source } }
    }

    /// Fills `out` with `frames` frames of mixed audio that will start
    /// playing at host time `playbackHost`.
    package func render(into out: UnsafeMutablePointer<Float>, frames: Int, playbackHost: UInt64) {
        pass.withLock { _ in renderPass(into: out, frames: frames, playbackHost: playbackHost) }
    }

    /// Runs `changes` (the sources' gains) between two renders, never during one.
    package func together(_ changes: () -> Void) {
        pass.withLock { _ in changes() }
    }

    private func renderPass(into out: UnsafeMutablePointer<Float>, frames: Int, playbackHost: UInt64) {
        let channels = format.channels
        out.update(repeating: 0, count: frames * channels)
        let list = sources.withLock { $0 }
        var done = 0
        while done < frames {
            let chunk = min(frames - done, scratchFrames)
            let host = playbackHost + UInt64(done) * 1_000_000_000 / UInt64(format.sampleRate)
            for source in list {
                source.mix(into: out + done * channels, frames: chunk, scratch: scratch, playbackHost: host)
            }
            done += chunk
        }
    }
}
