// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Output

/// A list to pick from, drawn over the window (the file browser, recent
/// files): Up/Down/PageUp/PageDown/Home/End move, Enter or a click picks,
/// BS goes up a folder, Esc closes.
package final class ListOverlay {
    package enum Action: Equatable {
        case pick(Int)
        case goUp
        case close
    }

    package var title: String
    package var entries: [String] { didSet { selected = min(selected, max(entries.count - 1, 0)); top = 0 } }
    private(set) var selected = 0
    private var top = 0
    private var rowsShown = 10

    package init(title: String, entries: [String]) {
        self.title = title
        self.entries = entries
    }

    func select(_ index: Int) {
        selected = min(max(index, 0), max(entries.count - 1, 0))
        if selected < top { top = selected }
        if selected >= top + rowsShown { top = selected - rowsShown + 1 }
    }

    /// A key by its mpv name; nil when the list does not use it.
    func handleKey(_ name: String) -> Action? {
        switch name {
        case "UP": select(selected - 1)
        case "DOWN": select(selected + 1)
        case "PGUP": select(selected - rowsShown)
        case "PGDWN": select(selected + rowsShown)
        case "HOME": select(0)
        case "END": select(entries.count - 1)
        case "ENTER": return entries.isEmpty ? nil : .pick(selected)
        case "BS": return .goUp
        case "ESC": return .close
        default: return nil
        }
        return nil
    }

    /// The panel and its rows inside `bounds`.
    private func geometry(_ bounds: Rect, lineHeight: Int) -> (panel: Rect, firstRowY: Int, step: Int) {
        let step = lineHeight + 4
        let panel = Rect(x: bounds.x + bounds.width / 10, y: bounds.y + bounds.height / 10,
                         width: bounds.width * 8 / 10, height: bounds.height * 8 / 10)
        return (panel, panel.y + 12 + step + 8, step)
    }

    /// The entry at a point, for clicks.
    func index(atX x: Int, y: Int, in bounds: Rect, lineHeight: Int) -> Int? {
        let g = geometry(bounds, lineHeight: lineHeight)
        guard g.panel.contains(x: x, y: y), y >= g.firstRowY else { return nil }
        let i = top + (y - g.firstRowY) / g.step
        return i < min(entries.count, top + rowsShown) ? i : nil
    }

    func draw(in bounds: Rect, renderer r: OpaquePointer, text: TextRenderer) {
        let g = geometry(bounds, lineHeight: text.lineHeight)
        rowsShown = max((g.panel.y + g.panel.height - 8 - g.firstRowY) / g.step, 1)
        select(selected)  // keep the selection in view at this size
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        fill(g.panel, (0, 0, 0, 215), renderer: r)
        text.drawLine(title, renderer: r, x: g.panel.x + 16, y: g.panel.y + 12, color: SDL_Color(r: 120, g: 190, b: 255, a: 255))
        if entries.isEmpty {
            text.drawLine(tr("(nothing here)"), renderer: r, x: g.panel.x + 16, y: g.firstRowY)
        }
        for i in top..<min(entries.count, top + rowsShown) {
            let y = g.firstRowY + (i - top) * g.step
            if i == selected {
                fill(Rect(x: g.panel.x + 8, y: y - 2, width: g.panel.width - 16, height: g.step), (120, 190, 255, 90), renderer: r)
            }
            text.drawLine(entries[i], renderer: r, x: g.panel.x + 16, y: y)
        }
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
    }
}
