// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media

/// The context menu in the main window: a right click asks the App for it
/// (MBTN_RIGHT, bound to `context-menu`), which opens it at the pointer;
/// while it shows, the keys, clicks and pointer moves are its own.
extension MainWindow {
    package var menuItems: [MenuItem]? {
        get { menu?.levels.first?.items }
        set {
            guard let newValue else {
                menu = nil
                return
            }
            let (x, y) = menuAnchor()
            menu = ContextMenu(newValue, at: x, y, bounds: bounds, text: text)
        }
    }

    /// Where the menu opens: the pointer when it is in the window, else the middle.
    private func menuAnchor() -> (Int, Int) {
        var x: Int32 = 0, y: Int32 = 0
        SDL_GetMouseState(&x, &y)
        if SDL_GetMouseFocus() == window.window, bounds.contains(x: Int(x), y: Int(y)) { return (Int(x), Int(y)) }
        return (bounds.width / 2, bounds.height / 2)
    }

    /// A right or middle click: the tile under it takes the focus, then the
    /// App hears the button by its mpv name (MBTN_RIGHT's binding opens the menu).
    func buttonClick(_ event: SDL_Event) {
        if !comparing, let index = tileIndex(x: Int(event.button.x), y: Int(event.button.y)) { onAction(.focus(tile: index)) }
        onAction(.key(event.button.button == UInt8(SDL_BUTTON_MIDDLE) ? "MBTN_MID" : "MBTN_RIGHT"))
    }

    /// An event while the menu is open; false when it is not the menu's.
    func handleMenuEvent(_ event: SDL_Event) -> Bool {
        guard let menu else { return false }
        switch SDL_EventType(event.type) {
        case SDL_KEYDOWN:
            if let name = KeyNames.name(for: event.key.keysym), let action = menu.handleKey(name) { menuAction(action) }
            needsRedraw = true
        case SDL_MOUSEBUTTONDOWN:
            if let action = menu.press(x: Int(event.button.x), y: Int(event.button.y)) {
                menuAction(action)
                // A right click beside the menu opens it there.
                if action == .close, event.button.button == UInt8(SDL_BUTTON_RIGHT) { buttonClick(event) }
            }
            needsRedraw = true
        case SDL_MOUSEWHEEL:
            var x: Int32 = 0, y: Int32 = 0
            SDL_GetMouseState(&x, &y)
            let steps = Int(event.wheel.y) * (event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1)
            if menu.wheel(steps: steps, x: Int(x), y: Int(y)) { needsRedraw = true }
        case SDL_MOUSEBUTTONUP:
            break
        case SDL_MOUSEMOTION:
            pointerAutohide.moved(at: HostTime.now())
            pointer = (Int(event.motion.x), Int(event.motion.y))
            if menu.motion(x: Int(event.motion.x), y: Int(event.motion.y)) { needsRedraw = true }
        default:
            return false
        }
        return true
    }

    /// The menu chose or closed: it goes, and a chosen item's command goes to the App.
    private func menuAction(_ action: ContextMenu.Action) {
        menu = nil
        if case .run(let command) = action { onAction(.menu(command)) }
    }
}
