// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Synchronization

/// Wakes the main thread from SDL_WaitEventTimeout: any thread with news for
/// it (a socket request, a finished job) posts an event of this app's own
/// type, so the main loop can wait for events instead of polling on a timer.
package enum MainThreadWake {
    /// The event type (SDL_RegisterEvents, once SDL's events are up); 0 before.
    nonisolated(unsafe) private static var type: UInt32 = 0

    /// Registers the type; the main thread calls it once after SDL_Init.
    package static func register() {
        guard type == 0 else { return }
        let registered = SDL_RegisterEvents(1)
        if registered != UInt32.max { type = registered }
    }

    /// Set by the main loop while it waits (until a deadline, or at rest
    /// with none): news posted while it turns is served in the next turn,
    /// all that arrived together (a client's three quick requests see one
    /// state, not three), without an event each.
    private static let armed = Atomic<Bool>(false)
    /// Something was posted since the main loop last woke. The poster sets it
    /// before it reads `armed`, the loop sets `armed` before it reads this
    /// (both sequentially consistent): news posted just before the loop
    /// arms is never lost to a wait with no end.
    private static let pending = Atomic<Bool>(false)

    /// The main loop is about to wait: true when it may (no news since it
    /// last woke), false when it should turn again at once.
    package static func beginRest() -> Bool {
        armed.store(true, ordering: .sequentiallyConsistent)
        if pending.exchange(false, ordering: .sequentiallyConsistent) {
            armed.store(false, ordering: .sequentiallyConsistent)
            return false
        }
        return true
    }

    /// The main loop woke (or turns on a timer): it serves everything that
    /// arrived so far in this turn.
    package static func endRest() {
        armed.store(false, ordering: .sequentiallyConsistent)
        pending.store(false, ordering: .sequentiallyConsistent)
    }

    /// Safe from any thread (SDL_PushEvent is); pushes an event only while
    /// the main loop waits (otherwise it looks at `pending` before it does).
    @Sendable package static func post() {
        pending.store(true, ordering: .sequentiallyConsistent)
        guard type != 0, armed.load(ordering: .sequentiallyConsistent) else { return }
        var event = SDL_Event()
        event.type = type
        _ = SDL_PushEvent(&event)
    }
}
