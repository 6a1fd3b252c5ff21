// SPDX-License-Identifier: GPL-3.0-or-later
import Analysis
import CSDL2
import Foundation
import Media
import Output
import Playback

/// The camera roll (`library`): every video, newest first, in groups by
/// day, each a picture with its length and name, drawn over the window.
/// Arrows move, Enter or a click plays, Ctrl+click (or Space) selects
/// several for "Play in tiles" (t), two for "Compare" (c), or any to
/// "Queue" (a: appended to the playlist); the source chips in the title
/// (or Tab) show one source only; a video watched to its end has a mark;
/// the wheel scrolls, Esc closes. It only says what was asked (`Action`); the App runs the
/// commands. Pictures are asked for the rows in view and a margin only.
/// Main thread only.
package final class LibraryView {
    package enum Action: Equatable {
        case play(String)
        /// Each in a tile of its own.
        case tiles([String])
        /// The first (the reference) against the second, in a wipe.
        case compare([String])
        /// Appended to the playlist, in the order chosen.
        case queue([String])
        /// Copied from a phone or card into the Videos folder.
        case importFiles([String])
        case close
    }

    /// A row of the grid: a day's title, or up to `columns` of its videos (indices into `entries`).
    enum Row: Equatable {
        case header(day: Int)
        case cells(Range<Int>)
    }

    /// The days shown (those of the source shown), and every day listed.
    package private(set) var days: [LibraryDay] = []
    private var allDays: [LibraryDay] = []
    /// Every video shown in the roll's order (the days' entries one after another).
    package private(set) var entries: [LibraryEntry] = []
    /// The sources listed ("Videos" first, then each phone or card), and
    /// the one shown (nil: all).
    package private(set) var sources: [String] = []
    package private(set) var source: String?
    /// Sources whose mount hangs or is gone: their videos (the last listed) are greyed.
    package var unreachable: Set<String> = [] { didSet { if unreachable != oldValue { changed = true } } }
    /// Paths played to their end (the mark on their picture).
    package var watched: Set<String> = [] { didSet { changed = true } }
    /// A line instead of the grid, or under the title ("Looking for videos…").
    package var status: String? { didSet { changed = true } }
    /// The entry the keys act on.
    package private(set) var cursor = 0
    /// Paths Ctrl+clicked, in the order chosen.
    package private(set) var selection: [String] = []
    /// Something it shows changed since it was drawn.
    var changed = true
    package let pictures: LibraryPictures
    private var pictureVersion = -1
    private var textures: [String: VideoTexture] = [:]
    /// The first row shown, and how many fit at the last draw.
    private var top = 0
    private var rowsInView = 4
    /// The cursor moved by a key: the next draw scrolls it into view.
    private var revealCursor = false

    /// The keys it takes (others reach the binding table: `q` quits, `f` goes fullscreen).
    static let keys: Set<String> = ["LEFT", "RIGHT", "UP", "DOWN", "PGUP", "PGDWN", "HOME", "END", "ENTER", "SPACE", "t", "c", "a", "i",
                                    "TAB", "ESC", "Ctrl+l"]

    package init(pictures: LibraryPictures) { self.pictures = pictures }

    /// A new listing; the cursor stays on its video, selected videos still there stay selected.
    package func show(_ days: [LibraryDay]) {
        allDays = days
        var found: [String] = []
        for day in days { for entry in day.entries where !found.contains(entry.source) { found.append(entry.source) } }
        sources = found.filter { $0 == "Videos" } + found.filter { $0 != "Videos" }
        if let source, !sources.contains(source) { self.source = nil }
        applySource()
    }

    /// Shows the videos of `source` only (nil: all).
    package func showSource(_ source: String?) {
        self.source = source.flatMap { sources.contains($0) ? $0 : nil }
        top = 0
        applySource()
    }

    private func applySource() {
        let at = entries.indices.contains(cursor) ? entries[cursor].path : nil
        days = source.map { source in
            allDays.compactMap { day in
                let kept = day.entries.filter { $0.source == source }
                return kept.isEmpty ? nil : LibraryDay(day: day.day, entries: kept)
            }
        } ?? allDays
        entries = days.flatMap(\.entries)
        cursor = at.flatMap { path in entries.firstIndex { $0.path == path } } ?? min(cursor, max(entries.count - 1, 0))
        let paths = Set(allDays.lazy.flatMap(\.entries).map(\.path))
        selection.removeAll { !paths.contains($0) }
        changed = true
    }

    // MARK: Geometry

    struct Geometry {
        let panel: Rect, grid: Rect, bottom: Rect, tilesButton: Rect, compareButton: Rect, queueButton: Rect, importButton: Rect
        /// Where the source chips end (they are laid out from the right edge of the title, leftwards).
        let chipsRight: Int, chipY: Int, chipHeight: Int, chipWidth: Int
        let cell: (width: Int, height: Int), thumb: (width: Int, height: Int), gap: Int, columns: Int, headerHeight: Int
    }

    func geometry(_ bounds: Rect, scale u: UIScale) -> Geometry {
        let pad = u(16), gap = u(12)
        let thumb = (width: u(160), height: u(90))
        let cell = (width: thumb.width, height: thumb.height + u(40))
        let titleHeight = u(44), bottomHeight = u(48)
        let grid = Rect(x: bounds.x + pad, y: bounds.y + titleHeight, width: max(bounds.width - 2 * pad, 1),
                        height: max(bounds.height - titleHeight - bottomHeight, 1))
        let bottom = Rect(x: bounds.x, y: bounds.y + bounds.height - bottomHeight, width: bounds.width, height: bottomHeight)
        let buttonHeight = u(32), buttonY = bottom.y + (bottomHeight - buttonHeight) / 2
        let tiles = Rect(x: bottom.x + pad, y: buttonY, width: u(170), height: buttonHeight)
        let compare = Rect(x: tiles.x + tiles.width + gap, y: buttonY, width: u(120), height: buttonHeight)
        let queue = Rect(x: compare.x + compare.width + gap, y: buttonY, width: u(130), height: buttonHeight)
        let importing = Rect(x: queue.x + queue.width + gap, y: buttonY, width: u(130), height: buttonHeight)
        let columns = max((grid.width + gap) / (cell.width + gap), 1)
        return Geometry(panel: bounds, grid: grid, bottom: bottom, tilesButton: tiles, compareButton: compare, queueButton: queue, importButton: importing,
                        chipsRight: bounds.x + bounds.width - pad, chipY: bounds.y + u(8), chipHeight: u(28), chipWidth: u(160),
                        cell: cell, thumb: thumb, gap: gap, columns: columns, headerHeight: u(30))
    }

    /// The source chips, right to left from the title's right edge: "All",
    /// then each source (none when there is only one source).
    func chips(_ g: Geometry, scale u: UIScale) -> [(source: String?, rect: Rect)] {
        guard sources.count > 1 else { return [] }
        let all: [String?] = [nil] + sources.map { Optional($0) }
        let left = g.chipsRight - all.count * (g.chipWidth + u(8)) + u(8)
        return all.enumerated().map { index, source in
            (source, Rect(x: left + index * (g.chipWidth + u(8)), y: g.chipY, width: g.chipWidth, height: g.chipHeight))
        }
    }

    /// The rows for `columns` cells a row.
    func rows(columns: Int) -> [Row] {
        var rows: [Row] = []
        var start = 0
        for (index, day) in days.enumerated() {
            rows.append(.header(day: index))
            var at = start
            while at < start + day.entries.count {
                let end = min(at + columns, start + day.entries.count)
                rows.append(.cells(at..<end))
                at = end
            }
            start += day.entries.count
        }
        return rows
    }

    func height(of row: Row, _ g: Geometry) -> Int {
        if case .header = row { return g.headerHeight }
        return g.cell.height + g.gap
    }

    /// The rows shown from `top` in the grid, with their y.
    func visibleRows(_ rows: [Row], _ g: Geometry) -> [(index: Int, y: Int)] {
        var out: [(Int, Int)] = []
        var y = g.grid.y
        var index = top
        while index < rows.count, y < g.grid.y + g.grid.height {
            out.append((index, y))
            y += height(of: rows[index], g)
            index += 1
        }
        return out
    }

    /// The cell of entry `index` in a row drawn at `y`.
    func cellRect(_ index: Int, in range: Range<Int>, y: Int, _ g: Geometry) -> Rect {
        Rect(x: g.grid.x + (index - range.lowerBound) * (g.cell.width + g.gap), y: y, width: g.cell.width, height: g.cell.height)
    }

    /// Where entry `index` is drawn now, if it is in view (for tests and clicks).
    package func cellRect(of index: Int, in bounds: Rect, scale u: UIScale) -> Rect? {
        let g = geometry(bounds, scale: u)
        let rows = rows(columns: g.columns)
        for (row, y) in visibleRows(rows, g) {
            if case .cells(let range) = rows[row], range.contains(index) { return cellRect(index, in: range, y: y, g) }
        }
        return nil
    }

    /// The entry under a point.
    func index(atX x: Int, y: Int, _ g: Geometry) -> Int? {
        guard g.grid.contains(x: x, y: y) else { return nil }
        let rows = rows(columns: g.columns)
        for (row, rowY) in visibleRows(rows, g) {
            guard case .cells(let range) = rows[row] else { continue }
            for i in range where cellRect(i, in: range, y: rowY, g).contains(x: x, y: y) { return i }
        }
        return nil
    }

    // MARK: Input

    /// A key by mpv's name; nil when nothing is asked of the App.
    package func handleKey(_ name: String, columns: Int) -> Action? {
        changed = true
        switch name {
        case "LEFT": move(to: cursor - 1)
        case "RIGHT": move(to: cursor + 1)
        case "UP": moveRow(by: -1, columns: columns)
        case "DOWN": moveRow(by: 1, columns: columns)
        case "PGUP": moveRow(by: -max(rowsInView - 1, 1), columns: columns)
        case "PGDWN": moveRow(by: max(rowsInView - 1, 1), columns: columns)
        case "HOME": move(to: 0)
        case "END": move(to: entries.count - 1)
        case "ENTER": return entries.indices.contains(cursor) ? .play(entries[cursor].path) : nil
        case "SPACE": if entries.indices.contains(cursor) { toggle(entries[cursor].path) }
        case "t": return selection.count >= 2 ? .tiles(selection) : nil
        case "c": return selection.count == 2 ? .compare(selection) : nil
        case "a": return selection.isEmpty ? nil : .queue(selection)
        case "i": return importable.isEmpty ? nil : .importFiles(importable)
        case "TAB":
            // All, then each source in turn, then All again.
            let next = source.flatMap { sources.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            showSource(sources.indices.contains(next) ? sources[next] : nil)
        case "ESC", "Ctrl+l": return .close
        default: return nil
        }
        return nil
    }

    /// A left press: on a cell it plays (with Ctrl: selects it); on a button, its action for the selected.
    package func press(x: Int, y: Int, control: Bool, in bounds: Rect, scale u: UIScale) -> Action? {
        let g = geometry(bounds, scale: u)
        changed = true
        if selection.count >= 2, g.tilesButton.contains(x: x, y: y) { return .tiles(selection) }
        if selection.count == 2, g.compareButton.contains(x: x, y: y) { return .compare(selection) }
        if !selection.isEmpty, g.queueButton.contains(x: x, y: y) { return .queue(selection) }
        if !importable.isEmpty, g.importButton.contains(x: x, y: y) { return .importFiles(importable) }
        if let chip = chips(g, scale: u).first(where: { $0.rect.contains(x: x, y: y) }) {
            showSource(chip.source)
            return nil
        }
        guard let index = index(atX: x, y: y, g) else { return nil }
        cursor = index
        if control {
            toggle(entries[index].path)
            return nil
        }
        return .play(entries[index].path)
    }

    package func scroll(by steps: Int, in bounds: Rect, scale u: UIScale) {
        let g = geometry(bounds, scale: u)
        let count = rows(columns: g.columns).count
        let newTop = min(max(top + steps, 0), max(count - 1, 0))
        if newTop != top { top = newTop; changed = true }
    }

    /// The selected videos on a phone or card (those "Import" copies).
    var importable: [String] {
        let phones = Set(allDays.lazy.flatMap(\.entries).filter { $0.source != "Videos" }.map(\.path))
        return selection.filter { phones.contains($0) }
    }

    /// A listed video by its path (its size as listed: a hung phone is not asked again).
    package func listed(_ path: String) -> LibraryEntry? {
        for day in allDays { if let entry = day.entries.first(where: { $0.path == path }) { return entry } }
        return nil
    }

    private func toggle(_ path: String) {
        if let at = selection.firstIndex(of: path) { selection.remove(at: at) } else { selection.append(path) }
    }

    private func move(to index: Int) {
        guard !entries.isEmpty else { return }
        cursor = min(max(index, 0), entries.count - 1)
        revealCursor = true
    }

    /// The cursor to the same column `by` rows of cells up or down (headers skipped).
    private func moveRow(by delta: Int, columns: Int) {
        let cellRows = rows(columns: columns).compactMap { row -> Range<Int>? in
            if case .cells(let range) = row { return range }
            return nil
        }
        guard let at = cellRows.firstIndex(where: { $0.contains(cursor) }) else { return }
        let column = cursor - cellRows[at].lowerBound
        let target = cellRows[min(max(at + delta, 0), cellRows.count - 1)]
        move(to: min(target.lowerBound + column, target.upperBound - 1))
    }

    /// Pictures made since the last look: redraw.
    func takeChanges() -> Bool {
        let version = pictures.version
        if version != pictureVersion { pictureVersion = version; changed = true }
        defer { changed = false }
        return changed
    }

    // MARK: Drawing

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

    /// The day titles drawn, each made once (a DateFormatter made and set
    /// up for each title at each draw was a tenth of the roll's opening);
    /// forgotten at midnight, when "Today" becomes "Yesterday".
    private var dayTitles: [String: String] = [:]
    private var dayTitlesUntil = Date.distantPast

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
