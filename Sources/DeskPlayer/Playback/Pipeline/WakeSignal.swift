// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Synchronization

/// "Something changed" from one thread to threads waiting for it: a change
/// count and a condition variable, in place of sleeping and polling. A
/// waiter reads `generation`, checks its own condition, and waits for the
/// count to move past what it read, so a change between its check and its
/// wait is not lost. `signal` takes the lock only when someone waits, so
/// the audio callback can signal without contending for it.
package final class WakeSignal: @unchecked Sendable {  // `condition` guards the waits; the counters are atomics
    private let condition = NSCondition()
    private let count = Atomic<UInt64>(0)
    private let waiters = Atomic<Int>(0)

    package init() {}

    /// The longest a waiter whose every reason to wake is signalled (a ring
    /// read, a packet taken, a request, an abort) waits anyway: what a
    /// missed signal would cost, not a polling period (at 1 s the paused
    /// pipeline's threads woke twice a second for nothing; at 5 s, 0.4).
    static let safetyBound = 5.0

    /// The number of signals so far.
    package var generation: UInt64 { count.load(ordering: .sequentiallyConsistent) }

    /// Wakes every thread waiting.
    package func signal() {
        count.add(1, ordering: .sequentiallyConsistent)
        // Sequentially consistent on both sides: either the waiter sees the
        // new count before waiting, or this sees the waiter and wakes it.
        guard waiters.load(ordering: .sequentiallyConsistent) > 0 else { return }
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until a signal after `seen` (a `generation` read earlier), or
    /// `timeout` seconds: the bound that keeps a waiter that also watches
    /// something unsignalled (a deadline, a flag) from waiting forever.
    package func wait(after seen: UInt64, timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        waiters.add(1, ordering: .sequentiallyConsistent)
        while count.load(ordering: .sequentiallyConsistent) == seen {
            if !condition.wait(until: deadline) { break }
        }
        waiters.subtract(1, ordering: .sequentiallyConsistent)
        condition.unlock()
    }
}
