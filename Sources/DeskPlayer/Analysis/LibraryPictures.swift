// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// The camera roll's pictures, through the desktop's thumbnail cache
/// (`ThumbnailStore`): an entry the desktop or DeskPlayer made before is
/// read, a missing one is made and written there, a file that cannot be
/// pictured is remembered under `fail/`. One file at a time on a thread of
/// its own at the lowest priority, so a playing video never waits. Only
/// the pictures of the rows in view (and a margin) are kept: memory stays
/// bounded whatever the roll's length. Thread-safe (Mutex).
package final class LibraryPictures: Sendable {
    package struct Picture: Sendable {
        package let picture: PictureBuffer?
        /// Seconds, when known (the cache entry's `Thumb::Movie::Length`, or read now).
        package let length: Double?
    }

    /// How each picture came, for `library-pictures` and the tests.
    package struct Counts: Sendable, Equatable {
        package var cached = 0, made = 0, failed = 0
    }

    private struct State {
        var made: [String: Picture] = [:]
        var wanted: [String] = []
        /// The path being made now (asked again meanwhile, it is not queued twice).
        var current: String?
        var running = false
        var closed = false
        var version = 0
        var counts = Counts()
        var failures: [String] = []
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    /// Paths waiting at most: the view asks again for what it still shows.
    static let queueLimit = 128
    private let shared = Shared()
    private let store: ThumbnailStore
    private let size: ThumbnailStore.Size
    private let wake: @Sendable () -> Void

    /// `wake` is called (on the picture thread) when a picture is ready.
    package init(store: ThumbnailStore, size: ThumbnailStore.Size, wake: @escaping @Sendable () -> Void = {}) {
        self.store = store
        self.size = size
        self.wake = wake
    }

    deinit { shared.state.withLock { $0.closed = true } }

    /// Bumps whenever a picture is ready (the view redraws).
    package var version: Int { shared.state.withLock { $0.version } }
    package var isMaking: Bool { shared.state.withLock { $0.running || !$0.wanted.isEmpty } }
    package var counts: Counts { shared.state.withLock { $0.counts } }
    /// Pictures held now.
    package var heldCount: Int { shared.state.withLock { $0.made.count } }

    /// One line for each file that could not be pictured, each once.
    package func takeFailures() -> [String] {
        shared.state.withLock { s in
            defer { s.failures = [] }
            return s.failures
        }
    }

    /// The picture of `path` if ready; otherwise it is asked for (after
    /// those asked before) and nil comes back meanwhile.
    package func picture(of path: String) -> Picture? {
        let (picture, start) = shared.state.withLock { s -> (Picture?, Bool) in
            if let made = s.made[path] { return (made, false) }
            guard !s.closed else { return (nil, false) }
            if s.current != path && !s.wanted.contains(path) { s.wanted.append(path) }
            if s.wanted.count > Self.queueLimit { s.wanted.removeFirst(s.wanted.count - Self.queueLimit) }
            if s.running { return (nil, false) }
            s.running = true
            return (nil, true)
        }
        if start {
            let thread = Thread { [shared, store, size, wake] in LibraryPictures.work(shared, store: store, size: size, wake: wake) }
            thread.name = "deskplayer.library-pictures"
            thread.stackSize = 1 << 20
            thread.start()
        }
        return picture
    }

    /// Forgets the pictures, and drops the requests, of paths not in
    /// `paths` (the rows in view and a margin): scrolled far away, they
    /// are read again from the cache when they come back.
    package func keep(only paths: Set<String>) {
        shared.state.withLock { s in
            s.made = s.made.filter { paths.contains($0.key) }
            s.wanted.removeAll { !paths.contains($0) }
        }
    }

    private static func work(_ shared: Shared, store: ThumbnailStore, size: ThumbnailStore.Size, wake: @Sendable () -> Void) {
        LowPriority.apply()
        while let path = shared.state.withLock({ s -> String? in
            s.current = nil
            guard !s.closed, !s.wanted.isEmpty else {
                s.running = false
                return nil
            }
            s.current = s.wanted.removeFirst()
            return s.current
        }) {
            let (outcome, length) = store.thumbnailAndLength(of: path, size: size)
            shared.state.withLock { s in
                switch outcome {
                case .cached(let picture):
                    s.made[path] = Picture(picture: picture, length: length)
                    s.counts.cached += 1
                case .made(let picture):
                    s.made[path] = Picture(picture: picture, length: length)
                    s.counts.made += 1
                case .failed(let why):
                    s.made[path] = Picture(picture: nil, length: nil)
                    s.counts.failed += 1
                    s.failures.append(why.hasPrefix(path) ? why : "\(path): \(why)")
                }
                s.version &+= 1
            }
            wake()
        }
    }
}
