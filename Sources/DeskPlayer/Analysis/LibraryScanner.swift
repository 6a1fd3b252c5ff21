// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Synchronization

/// Runs `LibraryScan` on a thread of its own and keeps it current: the
/// folders it listed are watched (inotify), and a change lists them again,
/// so the window never waits on a slow or hung mount and a new file shows
/// without reopening. The main thread takes each new result. Thread-safe.
package final class LibraryScanner: Sendable {
    /// A scan's result, the roots it listed and its number (each new one is larger).
    package struct Snapshot: Sendable {
        package let result: LibraryScan.Result
        package let roots: [LibraryScan.Root]
        package let number: Int
    }

    private struct State {
        var latest: Snapshot?
        var problems: [String] = []
        var closed = false
    }

    /// What the thread shares with the owner (the thread holds this, not
    /// the owner, so dropping the owner ends the thread).
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()
    /// After a change, how long more changes are gathered before listing
    /// again (a copy writes many events).
    static let settleMs: Int32 = 150

    /// Starts scanning what `roots` gives, asked on the scanner's thread
    /// at each listing (finding the mounted phones lists gvfs's folders,
    /// which a hung phone holds: never on the main thread); `wake` is
    /// called (on the scanner's thread) whenever a result or a problem is ready.
    package init(roots: @escaping @Sendable () -> [LibraryScan.Root], wake: @escaping @Sendable () -> Void) {
        let thread = Thread { [shared] in LibraryScanner.work(shared, roots: roots, wake: wake) }
        thread.name = "deskplayer.library-scan"
        thread.stackSize = 1 << 20
        thread.start()
    }

    deinit { shared.state.withLock { $0.closed = true } }

    /// The newest result (nil until the first scan is done).
    package var latest: Snapshot? { shared.state.withLock { $0.latest } }

    /// Lines to tell the user, each once: folders that could not be listed or watched.
    package func takeProblems() -> [String] {
        shared.state.withLock { s in
            defer { s.problems = [] }
            return s.problems
        }
    }

    private static func work(_ shared: Shared, roots: @Sendable () -> [LibraryScan.Root], wake: @Sendable () -> Void) {
        let watch = FolderWatch()
        var said = Set<String>()
        var number = 0
        if watch == nil {
            shared.state.withLock { $0.problems.append("the roll cannot follow its folders (inotify: \(String(cString: strerror(errno))))") }
        }
        while !shared.state.withLock({ $0.closed }) {
            let listed = roots()
            var result = LibraryScan.run(listed)
            let refused = watch?.watch(result.folders) ?? []
            number += 1
            // A folder is said once a session, not at every listing.
            let fresh = (result.problems + refused.prefix(1).map { "\($0): cannot follow it for new files (inotify's limit of watches?)" })
                .filter { said.insert($0).inserted }
            result.problems = []
            let snapshot = Snapshot(result: result, roots: listed, number: number)
            shared.state.withLock { s in
                s.latest = snapshot
                s.problems += fresh
            }
            wake()
            // Until a folder changes (or the owner is gone), then a moment more for the rest of the change.
            guard let watch else { return }
            while !watch.waitForChange(timeoutMs: 250) {
                if shared.state.withLock({ $0.closed }) { return }
            }
            // At most 3 s of gathering: a folder written all the time is still listed again.
            var rounds = 0
            while rounds < 20, watch.waitForChange(timeoutMs: settleMs) { rounds += 1 }
        }
    }
}
