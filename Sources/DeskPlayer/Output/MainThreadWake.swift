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

    /// Set by the main loop only while it waits at rest: otherwise it turns
    /// every 10 ms anyway, and serves what arrived in one turn together (a
    /// client's three quick requests see one state, not three).
    private static let armed = Atomic<Bool>(false)

    package static func arm(_ resting: Bool) { armed.store(resting, ordering: .releasing) }

    /// Safe from any thread (SDL_PushEvent is); does nothing before `register`
    /// or while the main loop is not resting.
    @Sendable package static func post() {
        guard type != 0, armed.load(ordering: .acquiring) else { return }
        var event = SDL_Event()
        event.type = type
        _ = SDL_PushEvent(&event)
    }
}
