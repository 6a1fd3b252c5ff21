// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Analysis
@testable import UI

/// The camera roll's grid without a window: its rows (a title per day, then
/// the day's videos a row at a time), what the keys and clicks ask for,
/// and a new listing keeping the cursor and the selection on their videos.
@Suite struct LibraryViewTests {
    static let scale = UIScale(factor: 1, source: "test")
    static let bounds = Rect(x: 0, y: 0, width: 1280, height: 960)

    static func entry(_ name: String, _ modified: Int) -> LibraryEntry {
        LibraryEntry(path: "/videos/" + name, modified: modified, bytes: 1, source: "Videos")
    }

    /// Five videos on one day, two on the one before.
    static func view() -> LibraryView {
        let view = LibraryView(pictures: LibraryPictures(store: ThumbnailStore(root: URL(fileURLWithPath: "/nonexistent"),
                                                                                 version: "test"), size: .normal))
        view.show([LibraryDay(day: "2026-11-28", entries: (0..<5).map { entry("a\($0).mp4", 100 - $0) }),
                   LibraryDay(day: "2026-11-27", entries: (0..<2).map { entry("b\($0).mp4", 50 - $0) })])
        return view
    }

    @Test func rowsAreADayTitleThenItsVideos() {
        #expect(Self.view().rows(columns: 3) == [.header(day: 0), .cells(0..<3), .cells(3..<5), .header(day: 1), .cells(5..<7)])
    }

    @Test func arrowsMoveThroughTheGridAndEnterPlays() {
        let view = Self.view()
        _ = view.handleKey("DOWN", columns: 3)
        #expect(view.cursor == 3)
        _ = view.handleKey("DOWN", columns: 3)
        #expect(view.cursor == 5, "down into the next day's first row, same column")
        _ = view.handleKey("RIGHT", columns: 3)
        _ = view.handleKey("UP", columns: 3)
        #expect(view.cursor == 4, "up to the column above")
        _ = view.handleKey("END", columns: 3)
        #expect(view.handleKey("ENTER", columns: 3) == .play("/videos/b1.mp4"))
        #expect(view.handleKey("ESC", columns: 3) == .close)
    }

    @Test func controlClicksSelectAndTheButtonsPlayThemInTilesOrCompare() throws {
        let view = Self.view()
        let first = try #require(view.cellRect(of: 0, in: Self.bounds, scale: Self.scale))
        let other = try #require(view.cellRect(of: 6, in: Self.bounds, scale: Self.scale))
        #expect(view.press(x: first.x + 5, y: first.y + 5, control: true, in: Self.bounds, scale: Self.scale) == nil)
        #expect(view.handleKey("t", columns: 7) == nil, "one is not several")
        #expect(view.press(x: other.x + 5, y: other.y + 5, control: true, in: Self.bounds, scale: Self.scale) == nil)
        #expect(view.selection == ["/videos/a0.mp4", "/videos/b1.mp4"])
        let button = view.geometry(Self.bounds, scale: Self.scale).tilesButton
        #expect(view.press(x: button.x + 5, y: button.y + 5, control: false, in: Self.bounds, scale: Self.scale)
                == .tiles(["/videos/a0.mp4", "/videos/b1.mp4"]))
        let compare = view.geometry(Self.bounds, scale: Self.scale).compareButton
        #expect(view.press(x: compare.x + 5, y: compare.y + 5, control: false, in: Self.bounds, scale: Self.scale)
                == .compare(["/videos/a0.mp4", "/videos/b1.mp4"]))
        #expect(view.handleKey("c", columns: 7) == .compare(["/videos/a0.mp4", "/videos/b1.mp4"]))
        // A plain click plays.
        #expect(view.press(x: other.x + 5, y: other.y + 5, control: false, in: Self.bounds, scale: Self.scale) == .play("/videos/b1.mp4"))
    }

    /// A new file first in a new listing: the cursor stays on its video, a
    /// selected video that is gone is no longer selected.
    @Test func aNewListingKeepsTheCursorAndSelection() {
        let view = Self.view()
        _ = view.handleKey("RIGHT", columns: 3)
        _ = view.handleKey("SPACE", columns: 3)
        _ = view.handleKey("END", columns: 3)
        _ = view.handleKey("SPACE", columns: 3)
        view.show([LibraryDay(day: "2026-11-29", entries: [Self.entry("new.mp4", 200)]),
                   LibraryDay(day: "2026-11-28", entries: (0..<5).map { Self.entry("a\($0).mp4", 100 - $0) })])
        #expect(view.selection == ["/videos/a1.mp4"])
        #expect(view.entries[view.cursor].path == "/videos/a4.mp4", "b1 is gone: the cursor stays within the roll")
        _ = view.handleKey("HOME", columns: 3)
        #expect(view.handleKey("ENTER", columns: 3) == .play("/videos/new.mp4"))
    }

    /// Five videos on one day in the Videos folder, two from a phone the day before.
    static func twoSources() -> LibraryView {
        let view = view()
        view.show([LibraryDay(day: "2026-11-28", entries: (0..<5).map { entry("a\($0).mp4", 100 - $0) }),
                   LibraryDay(day: "2026-11-27", entries: (0..<2).map {
                       LibraryEntry(path: "/phone/p\($0).mp4", modified: 50 - $0, bytes: 1, source: "Pixel 7")
                   })])
        return view
    }

    /// Tab shows one source after the other, then all again; a click on a
    /// chip shows its source; a new listing keeps the source shown.
    @Test func theSourceFilterByTabAndByClick() throws {
        let view = Self.twoSources()
        #expect(view.sources == ["Videos", "Pixel 7"] && view.source == nil && view.entries.count == 7)
        _ = view.handleKey("TAB", columns: 3)
        #expect(view.source == "Videos" && view.entries.map(\.source) == Array(repeating: "Videos", count: 5))
        _ = view.handleKey("TAB", columns: 3)
        #expect(view.source == "Pixel 7" && view.entries.map(\.path) == ["/phone/p0.mp4", "/phone/p1.mp4"])
        #expect(view.rows(columns: 3) == [.header(day: 0), .cells(0..<2)], "the other day's title is gone with its videos")
        #expect(view.handleKey("ENTER", columns: 3) == .play("/phone/p0.mp4"))
        _ = view.handleKey("TAB", columns: 3)
        #expect(view.source == nil && view.entries.count == 7)
        let g = view.geometry(Self.bounds, scale: Self.scale)
        let chips = view.chips(g, scale: Self.scale)
        #expect(chips.map(\.source) == [nil, "Videos", "Pixel 7"])
        let phone = try #require(chips.last?.rect)
        #expect(view.press(x: phone.x + 5, y: phone.y + 5, control: false, in: Self.bounds, scale: Self.scale) == nil)
        #expect(view.source == "Pixel 7")
        view.show([LibraryDay(day: "2026-11-27", entries: [LibraryEntry(path: "/phone/p0.mp4", modified: 50, bytes: 1, source: "Pixel 7"),
                                                            Self.entry("b.mp4", 49)])])
        #expect(view.source == "Pixel 7" && view.entries.map(\.path) == ["/phone/p0.mp4"])
        // The phone unplugged: its filter goes, all are shown.
        view.show([LibraryDay(day: "2026-11-27", entries: [Self.entry("b.mp4", 49)])])
        #expect(view.source == nil && view.entries.map(\.path) == ["/videos/b.mp4"])
        #expect(view.chips(g, scale: Self.scale).isEmpty, "one source: no chips")
    }

    /// "Import" (i, or its button) takes the selected videos on a phone or
    /// card only; with only the Videos folder's selected it asks for nothing.
    @Test func importTakesThePhonesSelected() throws {
        let view = Self.twoSources()
        _ = view.handleKey("SPACE", columns: 7)
        #expect(view.handleKey("i", columns: 7) == nil, "a0 is in the Videos folder already")
        let phone = try #require(view.cellRect(of: 5, in: Self.bounds, scale: Self.scale))
        #expect(view.press(x: phone.x + 5, y: phone.y + 5, control: true, in: Self.bounds, scale: Self.scale) == nil)
        #expect(view.handleKey("i", columns: 7) == .importFiles(["/phone/p0.mp4"]))
        let button = view.geometry(Self.bounds, scale: Self.scale).importButton
        #expect(view.press(x: button.x + 5, y: button.y + 5, control: false, in: Self.bounds, scale: Self.scale) == .importFiles(["/phone/p0.mp4"]))
        #expect(view.listed("/phone/p0.mp4")?.source == "Pixel 7")
    }

    /// "Queue" (a, or its button) takes any selection, one video included,
    /// in the order chosen; with none selected it asks for nothing.
    @Test func queueAppendsTheSelection() throws {
        let view = Self.twoSources()
        #expect(view.handleKey("a", columns: 7) == nil)
        let first = try #require(view.cellRect(of: 6, in: Self.bounds, scale: Self.scale))
        #expect(view.press(x: first.x + 5, y: first.y + 5, control: true, in: Self.bounds, scale: Self.scale) == nil)
        let button = view.geometry(Self.bounds, scale: Self.scale).queueButton
        #expect(view.press(x: button.x + 5, y: button.y + 5, control: false, in: Self.bounds, scale: Self.scale) == .queue(["/phone/p1.mp4"]))
        _ = view.handleKey("HOME", columns: 7)
        _ = view.handleKey("SPACE", columns: 7)
        #expect(view.handleKey("a", columns: 7) == .queue(["/phone/p1.mp4", "/videos/a0.mp4"]))
    }
}
