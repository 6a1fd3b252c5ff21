// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// The camera roll's pictures, through the desktop's thumbnail cache
/// (`ThumbnailStore`): an entry the desktop or DeskPlayer made before is
/// read, a missing one is made and written there, a file that cannot be
/// pictured is remembered under `fail/`. Two threads: a reader at normal
/// priority takes the cached entries (a read and a PNG decode each: a warm
/// roll is all there at once even on a busy machine, where a thread at
/// the lowest priority would wait behind everything), and hands the
/// missing ones to a maker at the lowest priority, one file at a time, so
/// a playing video never waits. Only the pictures of the rows in view (and
/// a margin) are kept: memory stays bounded whatever the roll's length.
/// Thread-safe (Mutex).
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

    /// One of the two queues: the paths waiting, the one in hand, whether its thread runs.
    private struct Queue<Item> {
        var waiting: [Item] = []
        var current: String?
        var running = false
    }

    private struct State {
        var made: [String: Picture] = [:]
        var toRead = Queue<String>()
        var toMake = Queue<ThumbnailStore.Source>()
        var closed = false
        var version = 0
        var counts = Counts()
        var failures: [String] = []

        /// Whether `path` is asked for, read, being made or waiting to be.
        func isPending(_ path: String) -> Bool {
            toRead.current == path || toMake.current == path || toRead.waiting.contains(path)
                || toMake.waiting.contains { $0.path == path }
        }
    }

    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    /// Paths waiting at most in each queue: the view asks again for what it still shows.
    static let queueLimit = 128
    private let shared = Shared()
    private let store: ThumbnailStore
    private let size: ThumbnailStore.Size
    private let wake: @Sendable () -> Void

    /// `wake` is called (on the picture threads) when a picture is ready.
    package init(store: ThumbnailStore, size: ThumbnailStore.Size, wake: @escaping @Sendable () -> Void = {}) {
        self.store = store
        self.size = size
        self.wake = wake
    }

    deinit { shared.state.withLock { $0.closed = true } }

    /// Bumps whenever a picture is ready (the view redraws).
    package var version: Int { shared.state.withLock { $0.version } }
    package var isMaking: Bool {
        shared.state.withLock { $0.toRead.running || !$0.toRead.waiting.isEmpty || $0.toMake.running || !$0.toMake.waiting.isEmpty }
    }
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
            if !s.isPending(path) { s.toRead.waiting.append(path) }
            if s.toRead.waiting.count > Self.queueLimit { s.toRead.waiting.removeFirst(s.toRead.waiting.count - Self.queueLimit) }
            if s.toRead.running { return (nil, false) }
            s.toRead.running = true
            return (nil, true)
        }
        if start { Self.startThread("deskplayer.library-pictures") { [shared, store, size, wake] in Self.read(shared, store, size, wake) } }
        return picture
    }

    /// Forgets the pictures, and drops the requests, of paths not in
    /// `paths` (the rows in view and a margin): scrolled far away, they
    /// are read again from the cache when they come back.
    package func keep(only paths: Set<String>) {
        shared.state.withLock { s in
            s.made = s.made.filter { paths.contains($0.key) }
            s.toRead.waiting.removeAll { !paths.contains($0) }
            s.toMake.waiting.removeAll { !paths.contains($0.path) }
        }
    }

    private static func startThread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// The reader: each path asked for, from the cache; a missing one goes to the maker.
    private static func read(_ shared: Shared, _ store: ThumbnailStore, _ size: ThumbnailStore.Size, _ wake: @escaping @Sendable () -> Void) {
        while let path = shared.state.withLock({ s -> String? in
            s.toRead.current = nil
            guard !s.closed, !s.toRead.waiting.isEmpty else {
                s.toRead.running = false
                return nil
            }
            s.toRead.current = s.toRead.waiting.removeFirst()
            return s.toRead.current
        }) {
            switch store.lookUp(path, size: size) {
            case .found(let outcome, let length):
                settle(shared, path, outcome, length)
                wake()
            case .missing(let source):
                let start = shared.state.withLock { s -> Bool in
                    s.toMake.waiting.append(source)
                    if s.toMake.waiting.count > queueLimit { s.toMake.waiting.removeFirst(s.toMake.waiting.count - queueLimit) }
                    defer { s.toMake.running = true }
                    return !s.toMake.running
                }
                if start { startThread("deskplayer.library-thumbnailer") { make(shared, store, size, wake) } }
            }
        }
    }

    /// The maker, at the lowest priority: decodes each missing file and writes its entry.
    private static func make(_ shared: Shared, _ store: ThumbnailStore, _ size: ThumbnailStore.Size, _ wake: @Sendable () -> Void) {
        LowPriority.apply()
        while let source = shared.state.withLock({ s -> ThumbnailStore.Source? in
            s.toMake.current = nil
            guard !s.closed, !s.toMake.waiting.isEmpty else {
                s.toMake.running = false
                return nil
            }
            let next = s.toMake.waiting.removeFirst()
            s.toMake.current = next.path
            return next
        }) {
            let (outcome, length) = store.make(source, size: size)
            settle(shared, source.path, outcome, length)
            wake()
        }
    }

    private static func settle(_ shared: Shared, _ path: String, _ outcome: ThumbnailStore.Outcome, _ length: Double?) {
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
    }
}
