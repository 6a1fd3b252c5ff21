// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Output

/// The playlist panel in the main window: the room it takes from the
/// tiles, and the mouse and keys it takes while it shows.
extension MainWindow {
    /// Where the tiles, the idle screen and the OSD go: the window less the
    /// playlist panel when it shows.
    var contentBounds: Rect {
        let all = bounds
        guard showsPlaylistPanel else { return all }
        return Rect(x: all.x, y: all.y, width: all.width - PlaylistPanel.width(in: all.width, scale: scale), height: all.height)
    }

    /// The panel's rectangle (while it shows).
    var panelRect: Rect? { showsPlaylistPanel ? playlistPanel.geometry(bounds, scale: scale).panel : nil }

    /// An event for the panel: presses, drags and the wheel over it, files
    /// dropped on it, Delete. Returns whether the panel took it.
    func handlePanelEvent(_ event: SDL_Event) -> Bool {
        guard let panel = panelRect else { return false }
        let action: PlaylistPanel.Action?
        switch SDL_EventType(event.type) {
        case SDL_MOUSEBUTTONDOWN where panel.contains(x: Int(event.button.x), y: Int(event.button.y)):
            // A right click opens the context menu there too.
            guard event.button.button == UInt8(SDL_BUTTON_LEFT) else { return false }
            action = playlistPanel.press(x: Int(event.button.x), y: Int(event.button.y), in: bounds, scale: scale)
        case SDL_MOUSEBUTTONUP where playlistPanel.isPressed:
            action = playlistPanel.release(x: Int(event.button.x), y: Int(event.button.y), in: bounds, scale: scale)
        case SDL_MOUSEMOTION:
            let x = Int(event.motion.x), y = Int(event.motion.y)
            playlistPanel.motion(x: x, y: y, in: bounds, scale: scale)
            guard playlistPanel.isPressed || panel.contains(x: x, y: y) else { return false }
            pointerMovedAt = HostTime.now()
            pointerAutohide.moved(at: pointerMovedAt)
            pointer = (x, y)
            action = nil
        case SDL_MOUSEWHEEL:
            var x: Int32 = 0, y: Int32 = 0
            SDL_GetMouseState(&x, &y)
            guard panel.contains(x: Int(x), y: Int(y)) else { return false }
            let steps = Int(event.wheel.y) * (event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1)
            playlistPanel.scroll(by: -steps, in: bounds, scale: scale)
            action = nil
        case SDL_DROPFILE:
            var x: Int32 = 0, y: Int32 = 0
            SDL_GetMouseState(&x, &y)
            guard panel.contains(x: Int(x), y: Int(y)), let file = event.drop.file else { return false }
            let path = String(cString: file)
            SDL_free(file)
            action = .append(path)
        case SDL_KEYDOWN where KeyNames.name(for: event.key.keysym) == "DEL":
            action = playlistPanel.deleteKey()
        case SDL_WINDOWEVENT where SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_LEAVE:
            playlistPanel.pointerLeft()
            return false
        default:
            return false
        }
        if let action { onAction(.playlist(action)) }
        needsRedraw = needsRedraw || playlistPanel.changed
        return true
    }
}
