// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Synchronization

/// Runs `LibraryScan` on a thread of its own and keeps it current: the
/// folders it listed are watched (inotify), and a change lists them again,
/// so the window never waits on a slow or hung mount and a new file shows
/// without reopening. Each root is listed on a thread of its own
/// (`RootListing`) and waited for at most `bound`: a root that does not
/// answer by then (a hung phone), or that was listed before and is gone now
/// (unplugged, removed), is `unreachable`, its videos the last listed. The
/// main thread takes each new result. Thread-safe.
package final class LibraryScanner: Sendable {
    /// A scan's result, the roots it listed and its number (each new one is larger).
    package struct Snapshot: Sendable {
        package let result: LibraryScan.Result
        package let roots: [LibraryScan.Root]
        package let number: Int
        /// Sources whose videos are the last listed: their mount hangs or is gone.
        package let unreachable: [String]
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
    /// `list` lists one folder (a test's stand-in for a hung mount); `bound`: seconds a root is waited for.
    package init(roots: @escaping @Sendable () -> [LibraryScan.Root], list: @escaping LibraryScan.Lister = FolderListing.list,
                 bound: Double = 2, wake: @escaping @Sendable () -> Void) {
        let thread = Thread { [shared] in LibraryScanner.work(shared, roots: roots, list: list, bound: bound, wake: wake) }
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

    private static func work(_ shared: Shared, roots: @Sendable () -> [LibraryScan.Root], list: @escaping LibraryScan.Lister,
                             bound: Double, wake: @escaping @Sendable () -> Void) {
        let watch = FolderWatch()
        var said = Set<String>()
        var number = 0
        var known: [String: (root: LibraryScan.Root, entries: [LibraryEntry])] = [:]
        var busy: [String: RootListing] = [:]
        if watch == nil {
            shared.state.withLock { $0.problems.append("the roll cannot follow its folders (inotify: \(String(cString: strerror(errno))))") }
        }
        while !shared.state.withLock({ $0.closed }) {
            let listed = roots()
            var result = LibraryScan.Result(entries: [], folders: [], problems: [], truncated: false)
            var unreachable: [String] = []
            for root in listed {
                let listing = busy[root.path] ?? RootListing(root, list: list)
                guard let part = listing.result(within: bound) else {
                    busy[root.path] = listing
                    unreachable.append(root.source)
                    result.entries += known[root.path]?.entries ?? []
                    continue
                }
                busy[root.path] = nil
                result.folders += part.folders
                result.problems += part.problems
                result.truncated = result.truncated || part.truncated
                if part.folders.isEmpty, let old = known[root.path], !old.entries.isEmpty {
                    // Listed before, gone now (or its folder cannot be listed): its videos stay, greyed.
                    unreachable.append(root.source)
                    result.entries += old.entries
                } else {
                    result.entries += part.entries
                    known[root.path] = (root, part.entries)
                }
            }
            // Roots listed before and not found now (a phone unplugged, a card pulled).
            for (path, old) in known where !listed.contains(where: { $0.path == path }) && !old.entries.isEmpty {
                unreachable.append(old.root.source)
                result.entries += old.entries
            }
            result.entries.sort { $0.modified != $1.modified ? $0.modified > $1.modified : $0.path < $1.path }
            if result.entries.count > LibraryScan.maxCount {
                result.entries.removeLast(result.entries.count - LibraryScan.maxCount)
                result.truncated = true
            }
            let refused = watch?.watch(result.folders) ?? []
            number += 1
            // A folder is said once a session, not at every listing.
            let fresh = (result.problems + refused.prefix(1).map { "\($0): cannot follow it for new files (inotify's limit of watches?)" })
                .filter { said.insert($0).inserted }
            result.problems = []
            var sources = Set<String>()
            let snapshot = Snapshot(result: result, roots: listed, number: number,
                                    unreachable: unreachable.filter { sources.insert($0).inserted })
            shared.state.withLock { s in
                s.latest = snapshot
                s.problems += fresh
            }
            wake()
            // Until a folder changes (or the owner is gone), then a moment more for the rest of the change.
            guard let watch else { return }
            while !watch.waitForChange(timeoutMs: 250) {
                if shared.state.withLock({ $0.closed }) { return }
                // A root that had not answered in time came back: list again.
                if busy.values.contains(where: \.isDone) { break }
            }
            // At most 3 s of gathering: a folder written all the time is still listed again.
            var rounds = 0
            while rounds < 20, watch.waitForChange(timeoutMs: settleMs) { rounds += 1 }
        }
    }
}
