// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Output

/// What the main window shows with nothing to play (mpv's idle window,
/// VLC's main window): where files go, and the keys that open them.
enum IdleScreen {
    static var headline: String { tr("Drop files here, or press Ctrl+O") }
    static var hint: String { tr("Right click: menu    Ctrl+L: your videos    Ctrl+R: recent files    F1: keys") }

    static func draw(in area: Rect, renderer: OpaquePointer, text: TextRenderer) {
        let cx = area.x + area.width / 2, cy = area.y + area.height / 2
        text.drawCentered(headline, renderer: renderer, cx: cx, cy: cy - text.lineHeight, maxWidth: area.width - 40)
        text.drawCentered(hint, renderer: renderer, cx: cx, cy: cy + text.lineHeight, maxWidth: area.width - 40,
                          color: SDL_Color(r: 150, g: 150, b: 160, a: 255))
    }
}
