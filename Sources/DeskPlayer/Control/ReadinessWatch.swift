// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Synchronization

/// Tells the main loop when a descriptor it reads without blocking (the
/// session bus's socket) has something to read, so the loop can wait for
/// events instead of polling it on a timer. Its thread waits in poll(2)
/// with no timeout; once the descriptor is readable it calls `wake` and
/// waits until the reader says it has read (`rearm`): the descriptor stays
/// readable until then, and asking again would spin. Thread-safe.
package final class ReadinessWatch: Sendable {
    /// What the thread and the reader share.
    private final class Shared: Sendable {
        let stopping = Atomic<Bool>(false)
        /// Set while the thread waits for `rearm` (so a reader that reads
        /// every turn, told or not, does not bank wake-ups the thread would spin through).
        let told = Atomic<Bool>(false)
        let served = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
    }

    private let shared = Shared()
    private let stopPipe: (read: Int32, write: Int32)

    /// Nil when no pipe can be made (the caller then reads on its own turns only).
    package init?(fd: Int32, wake: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        guard fd >= 0, pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopPipe = (ends[0], ends[1])
        let stopRead = ends[0], shared = self.shared
        let thread = Thread {
            while !shared.stopping.load(ordering: .sequentiallyConsistent) {
                var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
                guard poll(&fds, 2, -1) > 0 else { continue }
                if fds[1].revents != 0 { break }
                shared.told.store(true, ordering: .sequentiallyConsistent)
                wake()
                shared.served.wait()
                // Closed or broken: the reader finds out when it reads; nothing more comes from it.
                if fds[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { break }
            }
            shared.finished.signal()
        }
        thread.name = "readiness-watch"
        thread.start()
    }

    /// The reader has read what was there: watch for more.
    package func rearm() {
        if shared.told.exchange(false, ordering: .sequentiallyConsistent) { shared.served.signal() }
    }

    deinit {
        shared.stopping.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        rearm()
        shared.finished.wait()
        close(stopPipe.read)
        close(stopPipe.write)
    }
}
