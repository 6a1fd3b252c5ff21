// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Output

/// How the context menu looks: each column a dark panel, the chosen row
/// lit, the current value's mark at the left, the key at the right and a
/// submenu's arrow; and where its rows are, for tests and tools.
extension ContextMenu {
    func draw(renderer r: OpaquePointer, text: TextRenderer) {
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        for level in levels {
            let f = level.frame
            fill(f, (28, 28, 32, 240), renderer: r)
            var border = f.sdl
            SDL_SetRenderDrawColor(r, 90, 90, 104, 255)
            SDL_RenderDrawRect(r, &border)
            let textDy = (rowHeight - text.lineHeight) / 2
            if !level.filter.isEmpty {
                text.drawLine(tr("Filter: ") + level.filter, renderer: r, x: f.x + 26, y: f.y + 4 + textDy,
                              color: SDL_Color(r: 120, g: 190, b: 255, a: 255))
            }
            if level.rows.isEmpty {
                text.drawLine(tr("(nothing)"), renderer: r, x: f.x + 26, y: f.y + f.height - rowHeight - 4 + textDy,
                              color: SDL_Color(r: 140, g: 140, b: 150, a: 255))
            }
            // More rows above or below (the column scrolls): a small triangle in its strip.
            if level.scrollLimit > 0 {
                let cx = f.x + f.width / 2
                for i in 0..<5 {
                    let c: (UInt8, UInt8, UInt8, UInt8) = (150, 150, 160, 255)
                    if level.scroll > 0 { fill(Rect(x: cx - i, y: f.y + 4 + i, width: 2 * i + 1, height: 1), c, renderer: r) }
                    if level.scroll < level.scrollLimit {
                        fill(Rect(x: cx - i, y: f.y + f.height - 5 - i, width: 2 * i + 1, height: 1), c, renderer: r)
                    }
                }
            }
            for row in level.rows {
                let item = level.items[row.index], rect = row.rect
                if item.isSeparator {
                    fill(Rect(x: rect.x + 8, y: rect.y + rect.height / 2, width: rect.width - 16, height: 1), (90, 90, 104, 255),
                         renderer: r)
                    continue
                }
                if level.selected == row.index { fill(rect, (120, 190, 255, 90), renderer: r) }
                let color = item.enabled ? SDL_Color(r: 240, g: 240, b: 240, a: 255) : SDL_Color(r: 120, g: 120, b: 130, a: 255)
                let y = rect.y + textDy
                switch item.mark {
                case .check(true): text.drawLine("✓", renderer: r, x: rect.x + 6, y: y, color: color)
                case .radio(true): text.drawLine("●", renderer: r, x: rect.x + 6, y: y, color: color)
                case .none, .check(false), .radio(false): break
                }
                text.drawLine(item.title, renderer: r, x: rect.x + 24, y: y, color: color)
                let right = rect.x + rect.width - 22
                if item.children != nil {
                    text.drawLine("▸", renderer: r, x: right + 6, y: y, color: color)
                } else if !item.shortcut.isEmpty {
                    text.drawLine(item.shortcut, renderer: r, x: right - text.width(of: item.shortcut), y: y,
                                  color: SDL_Color(r: 150, g: 150, b: 160, a: 255))
                }
            }
        }
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
    }

    /// The open columns as the `context-menu-items` property gives them:
    /// each row's title, place (window pixels), mark, and whether it is chosen
    /// or opens a submenu; separators left out.
    package var snapshot: [[(title: String, rect: Rect, mark: MenuItem.Mark, enabled: Bool, selected: Bool, submenu: Bool)]] {
        levels.map { level in
            level.rows.compactMap { row in
                let item = level.items[row.index]
                guard !item.isSeparator else { return nil }
                return (item.title, row.rect, item.mark, item.enabled, level.selected == row.index, item.children != nil)
            }
        }
    }
}
