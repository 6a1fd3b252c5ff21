// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import Control
@testable import Playback
@testable import UI

@Suite struct LayoutTests {
    let wide = Rect(x: 0, y: 0, width: 960, height: 720)

    @Test func fitKeepsAspectWithBars() {
        let p = VideoPlacement(mode: .fit, videoWidth: 1280, videoHeight: 720, area: wide)
        #expect(p.pictureWidth == 960 && p.pictureHeight == 540)
        #expect(p.destination == Rect(x: 0, y: 90, width: 960, height: 540))
        #expect(p.source == Rect(x: 0, y: 0, width: 960, height: 540))
    }

    @Test func fillCoversAndCropsTheMiddle() {
        let p = VideoPlacement(mode: .fill, videoWidth: 1280, videoHeight: 720, area: wide)
        #expect(p.pictureWidth == 1280 && p.pictureHeight == 720)
        #expect(p.source == Rect(x: 160, y: 0, width: 960, height: 720))
        #expect(p.destination == wide)
    }

    @Test func stretchUsesTheWholeArea() {
        let p = VideoPlacement(mode: .stretch, videoWidth: 1280, videoHeight: 720, area: wide)
        #expect(p.pictureWidth == 960 && p.pictureHeight == 720)
        #expect(p.destination == wide)
    }

    @Test func areaOffsetAndTallVideo() {
        let area = Rect(x: 100, y: 50, width: 400, height: 400)
        let p = VideoPlacement(mode: .fit, videoWidth: 720, videoHeight: 1280, area: area)
        #expect(p.pictureHeight == 400 && p.pictureWidth == 225)
        #expect(p.destination == Rect(x: 100 + 87, y: 50, width: 225, height: 400))
    }

    @Test func keyNamesMapToBindings() {
        #expect(KeyBindings.command(forKey: "SPACE") == .cycle(property: "pause", down: false))
        #expect(KeyBindings.command(forKey: "RIGHT") == .seek(5, .relative))
        #expect(KeyBindings.command(forKey: "UP") == .seek(60, .relative))
        #expect(KeyBindings.command(forKey: "0") == .add(property: "volume", by: 2))
        #expect(KeyBindings.command(forKey: "x") == nil)
        // Every binding's key is unique within its section, so the table is unambiguous.
        let keys = KeyBindings.defaults.map { "\($0.section):\($0.key)" }
        #expect(Set(keys).count == keys.count)
    }

    /// Tiles cover the window exactly once (no gap or overlap) except the
    /// centred last row of a grid, and have the expected shape.
    @Test(arguments: TileLayout.allCases)
    func tilesCoverTheWindow(_ layout: TileLayout) {
        for (w, h) in [(1920, 1080), (1280, 720), (1001, 333)] {
            let bounds = Rect(x: 0, y: 0, width: w, height: h)
            for count in 1...10 {
                let areas = layout.areas(count: count, in: bounds)
                #expect(areas.count == count)
                let covered = areas.reduce(0) { $0 + $1.width * $1.height }
                // A grid whose last row is short leaves its sides to the window.
                let columns = Int(Double(count).squareRoot().rounded(.up))
                if layout != .grid || count % columns == 0 {
                    #expect(covered == w * h, "\(layout) \(count) tiles in \(w)x\(h)")
                }
                for (i, a) in areas.enumerated() {
                    #expect(a.x >= 0 && a.y >= 0 && a.x + a.width <= w && a.y + a.height <= h)
                    for b in areas[(i + 1)...] {
                        let overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
                        #expect(!overlap, "\(layout): tiles \(a) and \(b) overlap")
                    }
                }
            }
        }
    }

    @Test func gridShapes() {
        let bounds = Rect(x: 0, y: 0, width: 1920, height: 1080)
        #expect(TileLayout.grid.areas(count: 9, in: bounds).first == Rect(x: 0, y: 0, width: 640, height: 360))
        #expect(TileLayout.grid.areas(count: 4, in: bounds)[3] == Rect(x: 960, y: 540, width: 960, height: 540))
        // 3 tiles: two on top, one centred below.
        #expect(TileLayout.grid.areas(count: 3, in: bounds)[2] == Rect(x: 480, y: 540, width: 960, height: 540))
        #expect(TileLayout.sideBySide.areas(count: 2, in: bounds)[1] == Rect(x: 960, y: 0, width: 960, height: 1080))
        #expect(TileLayout.stack.areas(count: 2, in: bounds)[1] == Rect(x: 0, y: 540, width: 1920, height: 540))
    }

    /// The composition timeline: one row per track, blocks where the
    /// segments are, the gain line sloping across the ramps, the play head
    /// moving from the lanes' left edge to their right.
    @Test func compositionTimelineLayout() throws {
        let composition = try Composition.crossfade([("a.wav", 2), ("b.wav", 2)], clip: nil, fade: 0.5)
        let timeline = CompositionTimeline(composition, in: Rect(x: 0, y: 0, width: 816, height: 400))
        #expect(timeline.rows.count == 2)
        let span = timeline.timeArea
        #expect(timeline.playHeadX(at: 0) == span.x && timeline.playHeadX(at: 3.5) == span.x + span.width)
        #expect(timeline.playHeadX(at: 99) == span.x + span.width)
        let a = timeline.rows[0], b = timeline.rows[1]
        #expect(a.blocks.count == 1 && a.blocks[0].x == span.x)
        #expect(b.blocks[0].x == timeline.playHeadX(at: 1.5) && b.blocks[0].x + b.blocks[0].width == span.x + span.width)
        // a: full gain (top), then down to 0 (bottom) over its last 0.5 s; b the other way.
        let top = a.lane.y + 2, bottom = a.lane.y + a.lane.height - 1
        #expect(a.gainLines[0].first?.y == top && a.gainLines[0].last?.y == bottom)
        let bTop = b.lane.y + 2, bBottom = b.lane.y + b.lane.height - 1
        #expect(b.gainLines[0].first?.y == bBottom && b.gainLines[0].last?.y == bTop)
        #expect(b.lane.y > a.lane.y + a.lane.height - 1, "rows do not overlap")
    }
}
