// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2

/// The camera roll in the main window: the keys, clicks and wheel it takes
/// while it shows (the right button still opens the menu; keys it has no
/// use for, `q` or `f`, still reach the binding table).
extension MainWindow {
    /// Returns whether the roll took the event.
    func handleLibraryEvent(_ event: SDL_Event) -> Bool {
        guard let library else { return false }
        let action: LibraryView.Action?
        switch SDL_EventType(event.type) {
        case SDL_KEYDOWN:
            guard let name = KeyNames.name(for: event.key.keysym), LibraryView.keys.contains(name) else { return false }
            action = library.handleKey(name, columns: library.geometry(bounds, scale: scale).columns)
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            let control = SDL_GetModState().rawValue & KMOD_CTRL.rawValue != 0
            action = library.press(x: Int(event.button.x), y: Int(event.button.y), control: control, in: bounds, scale: scale)
        case SDL_MOUSEBUTTONUP, SDL_MOUSEMOTION:
            action = nil
        case SDL_MOUSEWHEEL:
            let steps = Int(event.wheel.y) * (event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1)
            library.scroll(by: -steps, in: bounds, scale: scale)
            action = nil
        default:
            return false
        }
        if let action { onAction(.library(action)) }
        needsRedraw = needsRedraw || library.changed
        return true
    }
}
