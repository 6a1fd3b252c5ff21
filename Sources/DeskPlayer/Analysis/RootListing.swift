// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Synchronization

/// One root of the roll listed on a thread of its own, so the scanner can
/// wait for it a bounded time: a phone whose MTP mount hangs holds this
/// thread (a blocked `readdir` cannot be called off), never the scanner's
/// nor the window's. The scanner asks again at its next listing; until the
/// thread comes back no second one is started for the same root.
/// Thread-safe (Mutex).
final class RootListing: Sendable {
    /// What the thread shares with the owner (it outlives a hung listing's owner).
    private final class Shared: Sendable {
        let outcome = Mutex<LibraryScan.Result?>(nil)
        let done = DispatchSemaphore(value: 0)
    }

    private let shared = Shared()

    /// Starts listing `root`.
    init(_ root: LibraryScan.Root, list: @escaping LibraryScan.Lister) {
        let thread = Thread { [shared] in
            let result = LibraryScan.run([root], list: list)
            shared.outcome.withLock { $0 = result }
            shared.done.signal()
        }
        thread.name = "deskplayer.library-root"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// The result, waiting at most `seconds` for it; nil while it is still listing.
    func result(within seconds: Double) -> LibraryScan.Result? {
        if let made = shared.outcome.withLock({ $0 }) { return made }
        guard shared.done.wait(timeout: .now() + seconds) == .success else { return nil }
        return shared.outcome.withLock { $0 }
    }

    var isDone: Bool { shared.outcome.withLock { $0 != nil } }
}
