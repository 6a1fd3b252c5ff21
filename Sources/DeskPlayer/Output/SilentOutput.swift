// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Foundation
import Synchronization

/// Plays the mixer into nothing at the pace of the host clock while no
/// device does (mpv's ao_null): the players' clocks, loops, queue
/// hand-overs and compositions go on exactly as if a device played them,
/// so the pictures keep their pace through an outage and the sound comes
/// back at the time due. One thread while running; `start` and `stop`
/// come from one thread (the audio output's). Thread-safe (Atomic, lock).
final class SilentOutput: Sendable {
    let owner: AudioFeed.Owner
    private let feed: AudioFeed
    private let stopRequested = Atomic<Bool>(false)
    /// The thread runs (guarded so start/stop pair up).
    private let thread = Mutex<DispatchSemaphore?>(nil)
    /// Frames per render: 10 ms.
    private let chunk: Int
    /// Renders this far ahead of the time they are "heard", as a device buffer would.
    private let leadNanos: UInt64 = 20_000_000

    init(feed: AudioFeed, owner: AudioFeed.Owner) {
        self.feed = feed
        self.owner = owner
        chunk = feed.format.sampleRate / 100
    }

    deinit { stop() }

    var isRunning: Bool { thread.withLock { $0 != nil } }

    func start() {
        thread.withLock { running in
            guard running == nil else { return }
            stopRequested.store(false, ordering: .sequentiallyConsistent)
            let done = DispatchSemaphore(value: 0)
            running = done
            let worker = Thread { [self] in
                run()
                done.signal()
            }
            worker.name = "deskplayer-silent-audio"
            worker.qualityOfService = .userInteractive
            worker.start()
        }
    }

    /// Returns once the thread has ended (it ends within one render).
    func stop() {
        guard let done = thread.withLock({ running -> DispatchSemaphore? in
            defer { running = nil }
            return running
        }) else { return }
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        done.wait()
    }

    private func run() {
        let channels = feed.format.channels
        let rate = UInt64(feed.format.sampleRate)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * channels)
        defer { buffer.deallocate() }
        // Frames rendered, counted from `base`, so the pace never drifts.
        let base = HostTime.now() + leadNanos
        var rendered: UInt64 = 0
        while !stopRequested.load(ordering: .sequentiallyConsistent) {
            let heard = base + rendered * 1_000_000_000 / rate
            let now = HostTime.now()
            if heard > now + leadNanos {
                // Sleep until the next chunk is due, at most 5 ms (so stop is quick).
                let wait = min(heard - now - leadNanos, 5_000_000)
                usleep(UInt32(wait / 1000))
                continue
            }
            // Behind (a busy machine): renders on at once, catching up without a jump.
            guard feed.render(as: owner, into: buffer, frames: chunk, playbackHost: heard) else {
                usleep(5_000)
                continue
            }
            rendered += UInt64(chunk)
        }
    }
}
