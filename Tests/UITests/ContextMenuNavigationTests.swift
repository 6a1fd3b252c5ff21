// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import Output
@testable import UI

/// The context menu's own behaviour, without a window: where its columns
/// go, what the pointer and the keys do in them, the filter.
@Suite struct ContextMenuNavigationTests {
    static let items: [MenuItem] = [
        MenuItem(title: "Open file…", shortcut: "Ctrl+o", command: "open-files"),
        .separator,
        MenuItem(title: "Speed", children: [
            MenuItem(title: "0.5×", mark: .radio(false), command: "set speed 0.5"),
            MenuItem(title: "Normal", mark: .radio(true), command: "set speed 1.0"),
            MenuItem(title: "1.5×", mark: .radio(false), command: "set speed 1.5"),
        ]),
        MenuItem(title: "Greyed", enabled: false, command: "quit"),
        MenuItem(title: "Fullscreen", mark: .check(false), command: "cycle fullscreen"),
        MenuItem(title: "Quit", command: "quit"),
    ]
    static let bounds = Rect(x: 0, y: 0, width: 800, height: 600)

    func menu(at x: Int = 100, _ y: Int = 50) -> ContextMenu {
        ContextMenu(Self.items, at: x, y, bounds: Self.bounds, text: TextRenderer())
    }

    func row(_ menu: ContextMenu, _ level: Int, _ title: String) throws -> Rect {
        try #require(menu.snapshot[level].first { $0.title == title }).rect
    }

    @Test func itOpensAtThePointerInsideTheWindowAndSubmenusBesideTheirRow() throws {
        let m = menu()
        #expect(m.levels[0].frame.x == 100 && m.levels[0].frame.y == 50)
        #expect(m.snapshot[0].count == 5, "separators are not rows")
        // Near the right and bottom edges it stays inside.
        let edge = menu(at: 790, 590)
        let f = edge.levels[0].frame
        #expect(f.x + f.width <= 800 && f.y + f.height <= 600 && f.x >= 0 && f.y >= 0)

        let speed = try row(m, 0, "Speed")
        #expect(m.motion(x: speed.x + 10, y: speed.y + 5))
        #expect(m.levels.count == 2, "the pointer on a submenu's row opens it")
        #expect(m.levels[1].frame.x >= m.levels[0].frame.x + m.levels[0].frame.width - 2)
        #expect(!m.motion(x: speed.x + 20, y: speed.y + 6), "moving along the same row changes nothing")
        let edgeSpeed = try row(edge, 0, "Speed")
        _ = edge.motion(x: edgeSpeed.x + 10, y: edgeSpeed.y + 5)
        #expect(edge.levels[1].frame.x + edge.levels[1].frame.width <= edge.levels[0].frame.x + 2,
                "at the window's right edge the submenu opens to the left")

        // A click on its item runs it; on a greyed one nothing; outside closes.
        let fast = try row(m, 1, "1.5×")
        #expect(m.press(x: fast.x + 5, y: fast.y + 5) == .run("set speed 1.5"))
        let greyed = try row(m, 0, "Greyed")
        #expect(m.press(x: greyed.x + 5, y: greyed.y + 5) == nil)
        #expect(m.press(x: 790, y: 590) == .close)
        // Leaving the submenu's row for another closes the submenu.
        let quit = try row(m, 0, "Quit")
        #expect(m.motion(x: quit.x + 5, y: quit.y + 5) && m.levels.count == 1)
    }

    @Test func keysMoveOpenChooseAndTypingFilters() throws {
        let m = menu()
        #expect(m.handleKey("DOWN") == nil)
        #expect(m.levels[0].selected == 0)
        _ = m.handleKey("DOWN")
        #expect(m.levels[0].selected == 2, "past the separator")
        _ = m.handleKey("RIGHT")
        #expect(m.levels.count == 2 && m.levels[1].selected == 0, "Right opens the submenu at its first item")
        _ = m.handleKey("DOWN")
        #expect(m.handleKey("ENTER") == .run("set speed 1.0"))
        _ = m.handleKey("LEFT")
        #expect(m.levels.count == 1)
        _ = m.handleKey("DOWN")
        #expect(m.levels[0].selected == 4, "past the greyed item")
        _ = m.handleKey("UP")
        _ = m.handleKey("UP")
        #expect(m.levels[0].selected == 0)
        _ = m.handleKey("UP")
        #expect(m.levels[0].selected == 5, "Up from the first wraps to the last")

        // Typing filters the column; Enter chooses what is left.
        _ = m.handleKey("f")
        _ = m.handleKey("u")
        #expect(m.snapshot[0].map(\.title) == ["Fullscreen"])
        #expect(m.handleKey("ENTER") == .run("cycle fullscreen"))
        _ = m.handleKey("BS")
        _ = m.handleKey("BS")
        #expect(m.snapshot[0].count == 5, "BS takes the letters back")
        _ = m.handleKey("z")
        #expect(m.snapshot[0].isEmpty && m.handleKey("ENTER") == nil, "nothing left, nothing chosen")
        #expect(m.handleKey("ESC") == .close)
    }

    /// A column taller than the window scrolls: the keys keep the chosen
    /// row in view, the wheel moves it a row a notch, only rows in view are hit.
    @Test func aColumnTallerThanTheWindowScrolls() throws {
        let many = (1...40).map { MenuItem(title: "Item \($0)", command: "set speed \($0)") }
        let m = ContextMenu(many, at: 10, 10, bounds: Rect(x: 0, y: 0, width: 400, height: 300), text: TextRenderer())
        let f = m.levels[0].frame
        #expect(f.y == 0 && f.height == 300 && m.levels[0].scrollLimit > 0)
        let inView = m.snapshot[0].count
        #expect(inView > 3 && inView < 40)
        #expect(m.snapshot[0].allSatisfy { $0.rect.y >= f.y && $0.rect.y + $0.rect.height <= f.y + f.height })
        _ = m.handleKey("END")
        #expect(m.snapshot[0].last?.title == "Item 40" && m.snapshot[0].last?.selected == true, "End scrolls to the last row")
        _ = m.handleKey("HOME")
        #expect(m.snapshot[0].first?.title == "Item 1")
        #expect(m.wheel(steps: -2, x: f.x + 20, y: 100))
        #expect(m.snapshot[0].first?.title == "Item 3", "two notches down, two rows")
        #expect(m.wheel(steps: 5, x: f.x + 20, y: 100) && m.snapshot[0].first?.title == "Item 1", "no further than the top")
        #expect(!m.wheel(steps: -1, x: 399, y: 299), "the wheel outside the menu scrolls nothing")
    }
}
