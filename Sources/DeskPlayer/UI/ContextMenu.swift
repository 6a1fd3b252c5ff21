// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Output

/// One row of the context menu, as the App made it from its menu table and
/// the properties now: a command to run, or a submenu.
package struct MenuItem: Equatable, Sendable {
    /// The current value, read from the properties when the menu opened.
    package enum Mark: Equatable, Sendable {
        case none
        /// A flag: on or off.
        case check(Bool)
        /// One of several values: this one or not.
        case radio(Bool)
    }

    /// What the row reads, in the user's language.
    package var title: String
    /// The menu table's English title, which `context-menu PATH` and
    /// menu.conf name it by in every language (the title where none).
    package var name: String
    /// The key bound to the same command ("" for none).
    package var shortcut: String
    package var mark: Mark
    package var enabled: Bool
    /// What the item runs, as input.conf writes it (nil for a submenu or separator).
    package var command: String?
    /// A submenu's items (nil: not a submenu).
    package var children: [MenuItem]?

    package init(title: String, name: String? = nil, shortcut: String = "", mark: Mark = .none, enabled: Bool = true,
                 command: String? = nil, children: [MenuItem]? = nil) {
        self.title = title
        self.name = name ?? title
        self.shortcut = shortcut
        self.mark = mark
        self.enabled = enabled
        self.command = command
        self.children = children
    }

    package static let separator = MenuItem(title: "-", enabled: false)
    package var isSeparator: Bool { title == "-" && command == nil && children == nil }
    /// A row the pointer or the keys can choose.
    var isChoosable: Bool { enabled && !isSeparator }
}

/// The context menu drawn in the window: a column of items at the pointer,
/// each submenu beside its row. The pointer's hover opens submenus; Up and
/// Down move, Right or Enter opens, Left goes back, Enter or a click chooses,
/// typing filters the column, Esc or a click outside closes. What it chooses
/// goes to the App as the item's command text.
package final class ContextMenu {
    package enum Action: Equatable {
        /// Run this command (the menu has closed).
        case run(String)
        case close
    }

    /// One open column: its items, where it is, its chosen row and filter.
    package struct Level {
        package let items: [MenuItem]
        package var frame = Rect(x: 0, y: 0, width: 0, height: 0)
        /// The row under the pointer or the keys (an index into `items`).
        package var selected: Int?
        /// Typed letters: only items whose title holds them show.
        package var filter = ""
        /// Where each shown item's row is (those in view: a column taller
        /// than the window scrolls).
        package var rows: [(index: Int, rect: Rect)] = []
        /// Pixels scrolled, and the most there are to scroll.
        package var scroll = 0
        package var scrollLimit = 0
    }

    package private(set) var levels: [Level]
    /// The column the keys act on.
    private var active = 0
    private let text: TextRenderer
    private var bounds: Rect
    private let anchor: (x: Int, y: Int)

    /// The menu `items` with its corner at (x, y), kept inside `bounds`.
    package init(_ items: [MenuItem], at x: Int, _ y: Int, bounds: Rect, text: TextRenderer) {
        self.text = text
        self.bounds = bounds
        anchor = (x, y)
        levels = [Level(items: items)]
        layout()
    }

    var rowHeight: Int { text.lineHeight + 8 }
    private var separatorHeight: Int { 9 }
    private var padding: Int { 4 }
    /// Above and below the rows of a column that scrolls: its arrows.
    var scrollStrip: Int { 14 }

    /// The items a level shows now (its filter applied; no separators while filtering).
    private func shown(_ level: Level) -> [Int] {
        guard !level.filter.isEmpty else { return Array(level.items.indices) }
        return level.items.indices.filter {
            !level.items[$0].isSeparator && level.items[$0].title.localizedCaseInsensitiveContains(level.filter)
        }
    }

    /// Places every column: the first at the anchor, each submenu to the
    /// right of its row (the left when the window ends), all inside the bounds.
    private func layout() {
        for i in levels.indices {
            var level = levels[i]
            let indices = shown(level)
            let markWidth = 26, gap = 28, arrowWidth = 22
            let titles = level.items.map { text.width(of: $0.title) }.max() ?? 0
            let keys = level.items.map { text.width(of: $0.shortcut) }.max() ?? 0
            let width = max(markWidth + titles + (keys > 0 ? gap + keys : 0) + arrowWidth, 180,
                            level.filter.isEmpty ? 0 : text.width(of: filterLine(level)) + 2 * markWidth)
            let header = level.filter.isEmpty ? 0 : rowHeight
            let body = indices.reduce(0) { $0 + (level.items[$1].isSeparator ? separatorHeight : rowHeight) }
            let content = 2 * padding + header + max(body, indices.isEmpty ? rowHeight : 0)
            let height = min(content, bounds.height)
            // A column taller than the window scrolls, with a strip above and below for its arrows.
            let edge = content > height ? scrollStrip : padding
            level.scrollLimit = content > height ? content - height + 2 * (scrollStrip - padding) : 0
            level.scroll = min(max(level.scroll, 0), level.scrollLimit)
            var x: Int, y: Int
            if i == 0 {
                (x, y) = anchor
                if x + width > bounds.x + bounds.width { x = anchor.x - width }
            } else {
                let parent = levels[i - 1]
                let row = parent.rows.first { $0.index == parent.selected }?.rect ?? parent.frame
                x = parent.frame.x + parent.frame.width - 2
                y = row.y - padding
                if x + width > bounds.x + bounds.width { x = parent.frame.x - width + 2 }
            }
            x = min(max(x, bounds.x), max(bounds.x + bounds.width - width, bounds.x))
            y = min(max(y, bounds.y), max(bounds.y + bounds.height - height, bounds.y))
            level.frame = Rect(x: x, y: y, width: width, height: height)
            var rowY = y + edge + header - level.scroll
            let top = y + edge + header, bottom = y + height - edge
            level.rows = indices.compactMap { index in
                let h = level.items[index].isSeparator ? separatorHeight : rowHeight
                defer { rowY += h }
                return rowY >= top && rowY + h <= bottom ? (index, Rect(x: x + 2, y: rowY, width: width - 4, height: h)) : nil
            }
            levels[i] = level
        }
    }

    private func filterLine(_ level: Level) -> String { tr("Filter: ") + level.filter }

    /// The window changed size: the columns stay inside it.
    package func fit(in bounds: Rect) {
        guard bounds != self.bounds else { return }
        self.bounds = bounds
        layout()
    }

    /// Whether (x, y) is on one of the columns.
    package func contains(x: Int, y: Int) -> Bool { levels.contains { $0.frame.contains(x: x, y: y) } }

    /// The column and item at (x, y), the deepest column first.
    private func hit(x: Int, y: Int) -> (level: Int, index: Int)? {
        for i in levels.indices.reversed() where levels[i].frame.contains(x: x, y: y) {
            guard let row = levels[i].rows.first(where: { $0.rect.contains(x: x, y: y) }) else { return nil }
            return (i, row.index)
        }
        return nil
    }

    /// Selects a row of a column; a submenu's row opens it beside (its
    /// own selection at its first item when the keys opened it).
    private func select(_ index: Int?, in level: Int, openWithKeys: Bool = false) {
        guard levels.indices.contains(level) else { return }
        let alreadyOpen = levels.count > level + 1 && levels[level].selected == index
        levels[level].selected = index
        active = level
        if !alreadyOpen { levels.removeSubrange((level + 1)...) }
        if let index, levels[level].items.indices.contains(index), levels[level].items[index].enabled,
           let children = levels[level].items[index].children {
            if !alreadyOpen { levels.append(Level(items: children)) }
            if openWithKeys {
                active = level + 1
                levels[level + 1].selected = firstChoosable(in: level + 1, from: 0, step: 1)
            }
        }
        layout()
        if reveal(level) { layout() }
    }

    /// Scrolls a column so its selected row is in view; whether it moved.
    private func reveal(_ level: Int) -> Bool {
        let l = levels[level]
        guard let selected = l.selected, l.scrollLimit > 0 else { return false }
        var offset = 0
        for index in shown(l) {
            if index == selected { break }
            offset += l.items[index].isSeparator ? separatorHeight : rowHeight
        }
        let view = l.frame.height - 2 * scrollStrip - (l.filter.isEmpty ? 0 : rowHeight)
        let scroll = offset < l.scroll ? offset : offset + rowHeight > l.scroll + view ? offset + rowHeight - view : l.scroll
        guard scroll != l.scroll else { return false }
        levels[level].scroll = scroll
        return true
    }

    /// The wheel over a column taller than the window scrolls it a row a
    /// notch (`steps` up positive); whether it moved.
    package func wheel(steps: Int, x: Int, y: Int) -> Bool {
        guard let level = levels.indices.last(where: { levels[$0].frame.contains(x: x, y: y) }) else { return false }
        let before = levels[level].scroll
        levels[level].scroll = min(max(before - steps * rowHeight, 0), levels[level].scrollLimit)
        guard levels[level].scroll != before else { return false }
        levels.removeSubrange((level + 1)...)
        layout()
        return true
    }

    /// The pointer moved: the row under it is selected (its submenu opens).
    /// Returns whether anything changed.
    package func motion(x: Int, y: Int) -> Bool {
        guard let (level, index) = hit(x: x, y: y) else { return false }
        let item = levels[level].items[index]
        let target: Int? = item.isChoosable ? index : nil
        let opens = item.children != nil && item.enabled
        if levels[level].selected == target && levels.count == level + 1 + (opens ? 1 : 0) {
            active = level
            return false
        }
        select(target, in: level)
        return true
    }

    /// A click: on an item runs it (a submenu's row opens it); outside closes.
    package func press(x: Int, y: Int) -> Action? {
        guard contains(x: x, y: y) else { return .close }
        guard let (level, index) = hit(x: x, y: y) else { return nil }
        let item = levels[level].items[index]
        guard item.isChoosable else { return nil }
        if let command = item.command { return .run(command) }
        select(index, in: level)
        return nil
    }

    /// A key by its mpv name; nil when the menu stays open.
    package func handleKey(_ name: String) -> Action? {
        let level = active
        switch name {
        case "DOWN", "UP":
            let step = name == "DOWN" ? 1 : -1
            let start = levels[level].selected.map { $0 + step } ?? (step > 0 ? 0 : levels[level].items.count - 1)
            if let next = firstChoosable(in: level, from: start, step: step) { select(next, in: level) }
        case "HOME": select(firstChoosable(in: level, from: 0, step: 1), in: level)
        case "END": select(firstChoosable(in: level, from: levels[level].items.count - 1, step: -1), in: level)
        case "RIGHT", "ENTER":
            guard let index = levels[level].selected, levels[level].items.indices.contains(index) else {
                if name == "ENTER", let only = shown(levels[level]).filter({ levels[level].items[$0].isChoosable }).first {
                    select(only, in: level)
                    return handleKey(name)
                }
                return nil
            }
            let item = levels[level].items[index]
            if item.children != nil { select(index, in: level, openWithKeys: true) }
            if name != "RIGHT", let command = item.command, item.enabled { return .run(command) }
        case "LEFT":
            if level > 0 {
                levels.removeSubrange(level...)
                active = level - 1
                layout()
            }
        case "BS":
            if !levels[level].filter.isEmpty {
                levels[level].filter.removeLast()
                refilter(level)
            } else if level > 0 {
                return handleKey("LEFT")
            }
        case "ESC":
            return .close
        default:
            // A printable key filters the column.
            let character = name == "SPACE" ? " " : name
            guard character.count == 1 else { return nil }
            levels[level].filter += character
            refilter(level)
        }
        return nil
    }

    /// After the filter changed: the first item left is selected, no submenu open.
    private func refilter(_ level: Int) {
        levels.removeSubrange((level + 1)...)
        let shownItems = shown(levels[level])
        levels[level].selected = shownItems.first { levels[level].items[$0].isChoosable }
        active = level
        layout()
    }

    /// The first row from `start` (going by `step`, wrapping) a person can choose.
    private func firstChoosable(in level: Int, from start: Int, step: Int) -> Int? {
        let shownItems = shown(levels[level])
        let items = levels[level].items
        guard !items.isEmpty else { return nil }
        for offset in 0..<items.count {
            let i = ((start + offset * step) % items.count + items.count) % items.count
            if items[i].isChoosable && shownItems.contains(i) { return i }
        }
        return nil
    }
}
