// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2

/// An input event for a window other than the main one (a Picture in
/// Picture window), as the main window's event loop hands it on. App passes
/// it back to that window's `PiPWindow.handle` without reading it, so no SDL
/// type crosses into App.
package struct OtherWindowEvent {
    /// The SDL window it is for.
    package let windowID: UInt32
    let event: SDL_Event
}
