// SPDX-License-Identifier: GPL-3.0-or-later
import Playback

/// Picture in Picture for one player (AVPictureInPictureController): the
/// state machine and its delegate events, without any window code, so every
/// order of events can be tested. The player object lives on, untouched, for
/// as long as PiP is active (even when its tile is gone).
package final class PiPController {
    enum State: Equatable {
        case inactive
        case active
        case stopped
    }

    package enum Event: Equatable {
        case willStart
        case didStart
        case failedToStart(String)
        case willStop
        /// Put the player back into the main window's user interface.
        case restoreUserInterface
        case didStop
    }

    let player: Player
    private(set) var state = State.inactive
    private(set) var events: [Event] = []

    package init(player: Player) { self.player = player }

    /// Starts PiP: `openWindow` makes the mini window (throws when it cannot).
    /// On failure the player stays where it was and plays on.
    package func start(openWindow: () throws -> Void) {
        guard state == .inactive else { return }
        events.append(.willStart)
        do {
            try openWindow()
            state = .active
            events.append(.didStart)
        } catch {
            events.append(.failedToStart("\(error)"))
        }
    }

    /// Stops PiP. With `restore`, the player goes back to the main window
    /// (restoreUserInterface comes before didStop, as in AVKit); without,
    /// the player is closed.
    package func stop(restore: Bool, closeWindow: () -> Void) {
        guard state == .active else { return }
        events.append(.willStop)
        if restore { events.append(.restoreUserInterface) }
        closeWindow()
        state = .stopped
        events.append(.didStop)
    }

    package func takeEvents() -> [Event] {
        defer { events.removeAll() }
        return events
    }
}
