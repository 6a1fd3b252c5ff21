// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Output

/// What the main window shows with nothing to play (mpv's idle window,
/// VLC's main window): where files go, the keys that open them, and the
/// three ways to a video the phone's picker offers, as buttons: a file, the
/// camera, the roll.
enum IdleScreen {
    static var headline: String { tr("Drop files here, or press Ctrl+O") }
    static var hint: String { tr("Right click: menu    Ctrl+L: your videos    Ctrl+R: recent files    F1: keys") }

    /// The buttons, left to right: their labels (the menu's words) and the command each runs.
    static var choices: [(label: String, command: String)] {
        [(tr("Open file…"), "open-files"), (tr("Take video…"), "camera"), (tr("Videos…"), "library")]
    }

    /// Where each choice's button is in `area`: in a row under the hint,
    /// or one above another where the row does not fit.
    static func buttons(in area: Rect, text: TextRenderer, scale u: UIScale) -> [(rect: Rect, command: String)] {
        let pad = u(12), gap = u(12), height = text.lineHeight + 2 * u(8)
        let width = choices.map { text.width(of: $0.label) }.max().map { $0 + 2 * pad } ?? 0
        let cx = area.x + area.width / 2, top = area.y + area.height / 2 + text.lineHeight * 3 / 2
        let row = choices.count * width + (choices.count - 1) * gap
        return choices.enumerated().map { index, choice in
            let rect = row <= area.width - 2 * gap
                ? Rect(x: cx - row / 2 + index * (width + gap), y: top, width: width, height: height)
                : Rect(x: cx - width / 2, y: top + index * (height + gap), width: width, height: height)
            return (rect, choice.command)
        }
    }

    /// The command of the button at (x, y), if any.
    static func choice(atX x: Int, y: Int, in area: Rect, text: TextRenderer, scale: UIScale) -> String? {
        buttons(in: area, text: text, scale: scale).first { $0.rect.contains(x: x, y: y) }?.command
    }

    static func draw(in area: Rect, renderer: OpaquePointer, text: TextRenderer, scale: UIScale, pointer: (x: Int, y: Int)?) {
        let cx = area.x + area.width / 2, cy = area.y + area.height / 2
        text.drawCentered(headline, renderer: renderer, cx: cx, cy: cy - 2 * text.lineHeight, maxWidth: area.width - 40)
        text.drawCentered(hint, renderer: renderer, cx: cx, cy: cy, maxWidth: area.width - 40,
                          color: SDL_Color(r: 150, g: 150, b: 160, a: 255))
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        for ((rect, _), choice) in zip(buttons(in: area, text: text, scale: scale), choices) {
            let hovered = pointer.map { rect.contains(x: $0.x, y: $0.y) } ?? false
            fill(rect, (255, 255, 255, hovered ? 70 : 35), renderer: renderer)
            text.drawCentered(choice.label, renderer: renderer, cx: rect.x + rect.width / 2, cy: rect.y + rect.height / 2,
                              maxWidth: rect.width)
        }
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
    }
}
