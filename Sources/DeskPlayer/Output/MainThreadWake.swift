// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2

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

    /// Safe from any thread (SDL_PushEvent is); does nothing before `register`.
    @Sendable package static func post() {
        guard type != 0 else { return }
        var event = SDL_Event()
        event.type = type
        _ = SDL_PushEvent(&event)
    }
}
