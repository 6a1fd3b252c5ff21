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
    var textures: [String: VideoTexture] = [:]
    /// The first row shown, and how many fit at the last draw.
    var top = 0
    var rowsInView = 4
    /// The cursor moved by a key: the next draw scrolls it into view.
    var revealCursor = false
    /// The day titles drawn, each made once (a DateFormatter made and set
    /// up for each title at each draw was a tenth of the roll's opening);
    /// forgotten at midnight, when "Today" becomes "Yesterday".
    var dayTitles: [String: String] = [:]
    var dayTitlesUntil = Date.distantPast

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
}
