// SPDX-License-Identifier: GPL-3.0-or-later
import Analysis
import CSDL2
import Foundation
import Media
import Output
import Playback

/// Drawing the camera roll: its rows in view, each cell's picture, length,
/// name and marks, the day titles, the source chips and the buttons.
extension LibraryView {
    package func draw(in bounds: Rect, renderer r: OpaquePointer, text: TextRenderer, scale u: UIScale) {
        let g = geometry(bounds, scale: u)
        let rows = rows(columns: g.columns)
        top = min(top, max(rows.count - 1, 0))
        if revealCursor { reveal(rows, g) }
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        fill(bounds, (12, 12, 16, 255), renderer: r)
        let title = String(format: tr("Your videos (%d)"), locale: .display, entries.count) + (status.map { "   " + $0 } ?? "")
        let chips = chips(g, scale: u)
        let titleRight = chips.first.map { $0.rect.x - u(16) } ?? bounds.x + bounds.width - u(16)
        text.drawLine(fitted(title, width: max(titleRight - g.grid.x, 0), text: text), renderer: r, x: g.grid.x,
                      y: bounds.y + (u(44) - text.lineHeight) / 2, color: SDL_Color(r: 120, g: 190, b: 255, a: 255))
        for chip in chips {
            let on = chip.source == source
            let grey = chip.source.map { unreachable.contains($0) } ?? false
            fill(chip.rect, on ? (120, 190, 255, 255) : grey ? (28, 28, 32, 255) : (40, 40, 48, 255), renderer: r)
            let label = chip.source.map { $0 == "Videos" ? tr("Videos") : $0 } ?? tr("All")
            text.drawCentered(label, renderer: r, cx: chip.rect.x + chip.rect.width / 2, cy: chip.rect.y + chip.rect.height / 2,
                              maxWidth: chip.rect.width - u(8),
                              color: on ? SDL_Color(r: 0, g: 0, b: 0, a: 255)
                                : grey ? SDL_Color(r: 110, g: 110, b: 115, a: 255) : SDL_Color(r: 215, g: 215, b: 220, a: 255))
        }
        let shown = visibleRows(rows, g)
        rowsInView = max(shown.filter { $0.y + height(of: rows[$0.index], g) <= g.grid.y + g.grid.height }.count, 1)
        // Pictures for the rows in view and as many again around them; the rest are let go.
        let margin = max(rowsInView, 2)
        var wanted = Set<String>()
        for row in rows[max(top - margin, 0)..<min(top + shown.count + margin, rows.count)] {
            if case .cells(let range) = row { for i in range { wanted.insert(entries[i].path) } }
        }
        pictures.keep(only: wanted)
        textures = textures.filter { wanted.contains($0.key) }
        SDL_RenderSetClipRect(r, nil)
        var clip = g.grid.sdl
        SDL_RenderSetClipRect(r, &clip)
        for (row, y) in shown {
            switch rows[row] {
            case .header(let day):
                text.drawLine(dayTitle(days[day].day), renderer: r, x: g.grid.x,
                              y: y + (g.headerHeight - text.lineHeight) / 2, color: SDL_Color(r: 235, g: 235, b: 240, a: 255))
            case .cells(let range):
                for i in range { drawCell(i, cellRect(i, in: range, y: y, g), g, renderer: r, text: text, scale: u) }
            }
        }
        SDL_RenderSetClipRect(r, nil)
        drawBottom(g, renderer: r, text: text, scale: u)
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
    }

    /// Scrolls so the cursor's row is in view.
    private func reveal(_ rows: [Row], _ g: Geometry) {
        revealCursor = false
        guard let row = rows.firstIndex(where: { if case .cells(let range) = $0 { return range.contains(cursor) } else { return false } })
        else { return }
        if row <= top {
            // Its day's title too, when it is the day's first row.
            top = row > 0 && rows[row - 1] == .header(day: dayIndex(of: cursor)) ? row - 1 : row
        } else if row >= top + rowsInView {
            top = row - rowsInView + 1
        }
    }

    private func dayIndex(of entry: Int) -> Int {
        var start = 0
        for (index, day) in days.enumerated() {
            if entry < start + day.entries.count { return index }
            start += day.entries.count
        }
        return max(days.count - 1, 0)
    }

    private func drawCell(_ index: Int, _ cell: Rect, _ g: Geometry, renderer r: OpaquePointer, text: TextRenderer, scale u: UIScale) {
        let entry = entries[index]
        let box = Rect(x: cell.x, y: cell.y, width: g.thumb.width, height: g.thumb.height)
        fill(box, (40, 40, 48, 255), renderer: r)
        let made = pictures.picture(of: entry.path)
        if let picture = made?.picture, let texture = texture(for: entry.path, picture, renderer: r) {
            let scale = min(Double(box.width) / Double(picture.width), Double(box.height) / Double(picture.height))
            let w = Int(saturating: Double(picture.width) * scale), h = Int(saturating: Double(picture.height) * scale)
            var target = Rect(x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h).sdl
            SDL_RenderCopy(r, texture.texture, nil, &target)
        } else if made != nil {
            text.drawCentered(tr("no picture"), renderer: r, cx: box.x + box.width / 2, cy: box.y + box.height / 2, maxWidth: box.width,
                              color: SDL_Color(r: 150, g: 150, b: 160, a: 255))
        }
        let selected = selection.contains(entry.path)
        if selected || index == cursor {
            let color: (UInt8, UInt8, UInt8, UInt8) = selected ? (120, 190, 255, 255) : (235, 235, 240, 255)
            let t = selected ? max(u(3), 1) : max(u(2), 1)
            for edge in [Rect(x: box.x, y: box.y, width: box.width, height: t),
                         Rect(x: box.x, y: box.y + box.height - t, width: box.width, height: t),
                         Rect(x: box.x, y: box.y, width: t, height: box.height),
                         Rect(x: box.x + box.width - t, y: box.y, width: t, height: box.height)] {
                fill(edge, color, renderer: r)
            }
        }
        if watched.contains(entry.path) {
            // Watched to its end: a green corner with a tick, bottom left (the selection's number is top right).
            let mark = Rect(x: box.x + u(4), y: box.y + box.height - u(26), width: u(22), height: u(22))
            fill(mark, (80, 200, 120, 255), renderer: r)
            text.drawCentered("✓", renderer: r, cx: mark.x + mark.width / 2, cy: mark.y + mark.height / 2,
                              maxWidth: mark.width, color: SDL_Color(r: 0, g: 0, b: 0, a: 255))
        }
        if let order = selection.firstIndex(of: entry.path) {
            let mark = Rect(x: box.x + box.width - u(26), y: box.y + u(4), width: u(22), height: u(22))
            fill(mark, (120, 190, 255, 255), renderer: r)
            text.drawCentered(String(order + 1), renderer: r, cx: mark.x + mark.width / 2, cy: mark.y + mark.height / 2,
                              maxWidth: mark.width, color: SDL_Color(r: 0, g: 0, b: 0, a: 255))
        }
        let gone = unreachable.contains(entry.source)
        if gone {
            // Greyed: the picture dimmed (it may be the last one read; nothing more is read from a hung mount).
            SDL_SetRenderDrawColor(r, 12, 12, 16, 170)
            var dim = box.sdl
            SDL_RenderFillRect(r, &dim)
        }
        let detail = (made?.length.map(DisplayText.clock) ?? "--:--") + (entry.source == "Videos" ? "" : "  ·  " + entry.source)
            + (gone ? "  ·  " + tr("not reachable") : "")
        text.drawLine(fitted(detail, width: cell.width, text: text), renderer: r, x: cell.x, y: box.y + box.height + u(4),
                      color: SDL_Color(r: 150, g: 150, b: 160, a: 255))
        text.drawLine(fitted(entry.name, width: cell.width, text: text), renderer: r, x: cell.x,
                      y: box.y + box.height + u(4) + text.lineHeight, color: SDL_Color(r: 215, g: 215, b: 220, a: 255))
    }

    private func drawBottom(_ g: Geometry, renderer r: OpaquePointer, text: TextRenderer, scale u: UIScale) {
        fill(g.bottom, (24, 24, 30, 255), renderer: r)
        var x = g.tilesButton.x
        if selection.count >= 2 {
            drawButton(String(format: tr("Play in tiles (%d)"), locale: .display, selection.count), g.tilesButton, renderer: r, text: text)
            x = g.tilesButton.x + g.tilesButton.width + g.gap
        }
        if selection.count == 2 {
            drawButton(tr("Compare"), g.compareButton, renderer: r, text: text)
            x = g.compareButton.x + g.compareButton.width + g.gap
        }
        if !selection.isEmpty {
            drawButton(String(format: tr("Queue (%d)"), locale: .display, selection.count), g.queueButton, renderer: r, text: text)
            x = g.queueButton.x + g.queueButton.width + g.gap
        }
        let importable = importable
        if !importable.isEmpty {
            drawButton(String(format: tr("Import (%d)"), locale: .display, importable.count), g.importButton, renderer: r, text: text)
            x = g.importButton.x + g.importButton.width + g.gap
        }
        let hint = tr("Enter or click: play    Ctrl+click or Space: select    t: tiles    c: compare two    a: queue    Tab: source    Esc: close")
        text.drawLine(fitted(hint, width: max(g.bottom.x + g.bottom.width - u(16) - x, 0), text: text), renderer: r, x: x,
                      y: g.bottom.y + (g.bottom.height - text.lineHeight) / 2, color: SDL_Color(r: 150, g: 150, b: 160, a: 255))
    }

    private func drawButton(_ label: String, _ rect: Rect, renderer r: OpaquePointer, text: TextRenderer) {
        fill(rect, (120, 190, 255, 255), renderer: r)
        text.drawCentered(label, renderer: r, cx: rect.x + rect.width / 2, cy: rect.y + rect.height / 2, maxWidth: rect.width,
                          color: SDL_Color(r: 0, g: 0, b: 0, a: 255))
    }

    private func dayTitle(_ day: String) -> String {
        let now = Date()
        if now >= dayTitlesUntil {
            dayTitles = [:]
            let midnight = Calendar.current.startOfDay(for: now)
            dayTitlesUntil = Calendar.current.date(byAdding: .day, value: 1, to: midnight) ?? now.addingTimeInterval(3600)
        }
        if let made = dayTitles[day] { return made }
        let made = LibraryView.dayTitle(day, now: now)
        dayTitles[day] = made
        return made
    }

    /// "Today", "Yesterday", else the date written out ("Saturday 28 November 2026").
    static func dayTitle(_ day: String, now: Date = Date()) -> String {
        let parse = DateFormatter()
        parse.locale = Locale(identifier: "en_US_POSIX")
        parse.dateFormat = "yyyy-MM-dd"
        guard let date = parse.date(from: day) else { return day }
        if parse.string(from: now) == day { return tr("Today") }
        if parse.string(from: now.addingTimeInterval(-86_400)) == day { return tr("Yesterday") }
        let show = DateFormatter()
        show.setLocalizedDateFormatFromTemplate("EEEEdMMMMyyyy")
        return show.string(from: date)
    }

    /// `label` cut with "…" to fit `width`.
    private func fitted(_ label: String, width: Int, text: TextRenderer) -> String {
        guard text.width(of: label) > width else { return label }
        var cut = Substring(label)
        while !cut.isEmpty && text.width(of: cut + "…") > width { cut = cut.dropLast(max(cut.count / 8, 1)) }
        return cut + "…"
    }

    private func texture(for path: String, _ picture: PictureBuffer, renderer: OpaquePointer) -> VideoTexture? {
        if let made = textures[path], made.fits(picture) { return made }
        guard let made = try? VideoTexture(renderer: renderer, width: picture.width, height: picture.height, opaque: true) else { return nil }
        made.upload(picture)
        textures[path] = made
        return made
    }
}
