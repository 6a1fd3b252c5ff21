// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media

/// What the main window draws over its tiles: the focused tile's outline,
/// the Picture in Picture button, the key bindings panel.
extension MainWindow {
    /// The focused tile's outline: 3 px, inside its area (only with more than one tile).
    func drawFocusOutline(_ a: Rect) {
        guard views.count > 1 else { return }
        let r = window.renderer
        SDL_SetRenderDrawColor(r, 120, 190, 255, 255)
        for inset in 0..<3 {
            var rect = SDL_Rect(x: Int32(a.x + inset), y: Int32(a.y + inset),
                                w: Int32(a.width - 2 * inset), h: Int32(a.height - 2 * inset))
            SDL_RenderDrawRect(r, &rect)
        }
    }

    /// The usual PiP icon: a screen with a small screen in its corner.
    func drawPiPButton(_ b: Rect) {
        let r = window.renderer
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        fill(b, (0, 0, 0, 170), renderer: r)
        let u = scale, line = max(u(1), 1)
        let screen = Rect(x: b.x + u(8), y: b.y + u(6), width: b.width - u(16), height: b.height - u(12))
        for edge in [Rect(x: screen.x, y: screen.y, width: screen.width, height: line),
                     Rect(x: screen.x, y: screen.y + screen.height - line, width: screen.width, height: line),
                     Rect(x: screen.x, y: screen.y, width: line, height: screen.height),
                     Rect(x: screen.x + screen.width - line, y: screen.y, width: line, height: screen.height)] {
            fill(edge, (240, 240, 240, 255), renderer: r)
        }
        fill(Rect(x: b.x + b.width / 2, y: b.y + b.height / 2, width: b.width / 2 - u(11), height: b.height / 2 - u(9)),
             (240, 240, 240, 255), renderer: r)
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
    }

    /// Every binding of the table in use, keys in a column, on a dark panel.
    func drawHelp() {
        let r = window.renderer
        // The table keeps English keys (input.conf, the socket); the overlay shows them translated.
        let lines = helpLines.map { (keys: $0.keys, help: tr($0.help)) }
        let keyWidth = lines.map { text.width(of: $0.keys) }.max() ?? 0
        let helpWidth = lines.map { text.width(of: $0.help) }.max() ?? 0
        let step = text.lineHeight + scale(2), pad = scale(16), gap = scale(24)
        let (w, h) = window.size
        let panelW = min(w, keyWidth + gap + helpWidth + 2 * pad), panelH = min(h, (lines.count + 1) * step + 2 * pad)
        let x0 = (w - panelW) / 2, y0 = (h - panelH) / 2
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        fill(Rect(x: x0, y: y0, width: panelW, height: panelH), (0, 0, 0, 200), renderer: r)
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
        text.drawLine(tr("Keys (F1 or ? hides this)"), renderer: r, x: x0 + pad, y: y0 + pad,
                      color: SDL_Color(r: 120, g: 190, b: 255, a: 255))
        for (i, line) in lines.enumerated() {
            let y = y0 + pad + (i + 1) * step
            text.drawLine(line.keys, renderer: r, x: x0 + pad + keyWidth - text.width(of: line.keys), y: y,
                          color: SDL_Color(r: 255, g: 220, b: 120, a: 255))
            text.drawLine(line.help, renderer: r, x: x0 + pad + keyWidth + gap, y: y)
        }
    }
}
