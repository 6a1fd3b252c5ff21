// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Output
@testable import Playback
@testable import UI
import TestSupport

/// What a person sees of music and chapters, grabbed from the X server:
/// the cover in the tile and in Picture in Picture with its title under it,
/// the chapter ticks on the seek bar and the chapter's name on the OSD.
extension ScreenTests {
    /// The RGB pixel at (x, y).
    static func pixel(_ image: PPMImage, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * image.width + x) * 3
        return (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
    }

    /// The columns in rows `rows` (inside `xs`) where a pixel passes `test`: first and last.
    static func inkExtent(_ image: PPMImage, rows: Range<Int>, xs: Range<Int>? = nil,
                          _ test: ((Int, Int, Int)) -> Bool) -> (Int, Int)? {
        var first: Int?, last: Int?
        for y in rows where y >= 0 && y < image.height {
            for x in xs ?? 0..<image.width where test(pixel(image, x, y)) {
                first = min(first ?? x, x)
                last = max(last ?? x, x)
            }
        }
        guard let first, let last else { return nil }
        return (first, last)
    }

    /// The quadrant cover fills `rect` (colours in each quadrant's middle),
    /// the tile's dark just outside it, and "Song Title — The Artist — The
    /// Album" is the first line under it, as wide as the font makes it.
    func expectFace(_ shot: PPMImage, in area: Rect, origin: (x: Int, y: Int), _ label: String) {
        let font = TextRenderer()
        let layout = AudioFaceLayout(area: area, coverSize: (64, 64), lineHeight: font.lineHeight, lines: 2)
        guard let cover = layout.cover else {
            Issue.record("\(label): no room for the cover in \(area)")
            return
        }
        let r = Rect(x: cover.x + origin.x, y: cover.y + origin.y, width: cover.width, height: cover.height)
        print("\(label): cover drawn at \(r) (square: \(r.width == r.height))")
        let quadrants = [((1, 1), (255, 0, 0)), ((3, 1), (0, 255, 0)), ((1, 3), (0, 0, 255)), ((3, 3), (255, 255, 0))]
        for ((qx, qy), colour) in quadrants {
            let got = Self.pixel(shot, r.x + r.width * qx / 4, r.y + r.height * qy / 4)
            #expect(abs(got.0 - colour.0) < 8 && abs(got.1 - colour.1) < 8 && abs(got.2 - colour.2) < 8,
                    "\(label): quadrant (\(qx), \(qy)) is \(got), expected \(colour)")
        }
        for (x, y) in [(r.x - 3, r.y + r.height / 2), (r.x + r.width + 2, r.y + r.height / 2), (r.x + r.width / 2, r.y - 3)] {
            let got = Self.pixel(shot, x, y)
            #expect(got.0 < 40 && got.1 < 40 && got.2 < 40, "\(label): outside the cover at (\(x), \(y)): \(got)")
        }
        let line = "Song Title — The Artist — The Album"
        let top = layout.textTop + origin.y
        let ink = Self.inkExtent(shot, rows: top..<(top + font.lineHeight), xs: (origin.x + area.x)..<(origin.x + area.x + area.width)) {
            $0.0 > 150 && $0.1 > 150 && $0.2 > 150
        }
        let width = font.width(of: line)
        let measured = ink.map { $0.1 - $0.0 + 1 } ?? 0
        #expect(measured > width - 10 && measured <= width + 1, "\(label): the title line's ink is \(measured) px, the font makes it \(width)")
        if let ink { #expect(abs((ink.0 + ink.1) / 2 - (origin.x + layout.centerX)) <= 4, "\(label): centred under the cover") }
    }

    /// An MP3 with an attached PNG: the cover fitted in the tile, the
    /// title — artist — album under it; the same in the Picture in Picture
    /// window. (The window title from the tags: FeatureTests, in-process.)
    @Test func audioShowsItsCoverAndTitleInTheTileAndInPiP() throws {
        let media = try #require(TaggedMedia.shared, "could not make the test media with ffmpeg")
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try RunningApp([media.mp3, "--pause", "--geometry", "640x360+0+0", "--no-config", "--no-resume"])
        defer { app.stop() }
        app.waitForWindow()
        let shot = try grabSettled(app, 640, 360, to: dir.appendingPathComponent("face.ppm").path)
        expectFace(shot, in: Rect(x: 0, y: 0, width: 640, height: 360), origin: (0, 0), "tile")

        try runTool("xdotool", ["mousemove", "320", "180", "key", "ctrl+p"])
        _ = try eventually { try findWindow(" - PiP$") != nil }
        let pip = try #require(try findWindow(" - PiP$"), "no PiP window: \(app.errors)")
        try runTool("xdotool", ["mousemove", "1919", "1079"])  // not hovering: no PiP controls
        // The mini window has no settled state of its own: wait until its
        // redraw after the pointer left shows none of its three buttons (each
        // a grey square on the bar while hovered).
        let g = try geometry(of: pip)
        let buttons = PiPWindow.buttons(in: Rect(x: 0, y: 0, width: g.width, height: g.height)).map(\.1)
        // And the cover drawn: its top-left quadrant red.
        let cover = AudioFaceLayout(area: Rect(x: 0, y: 0, width: g.width, height: g.height), coverSize: (64, 64),
                                    lineHeight: TextRenderer().lineHeight, lines: 2).cover
        var screen = try grab(1920, 1080, to: dir.appendingPathComponent("pip.ppm").path)
        let shown = try eventually {
            screen = try grab(1920, 1080, to: dir.appendingPathComponent("pip.ppm").path)
            let red = cover.map { Self.pixel(screen, g.x + $0.x + $0.width / 4, g.y + $0.y + $0.height / 4) }
            return (red.map { $0.0 > 200 && $0.1 < 50 } ?? true)
                && !buttons.allSatisfy { Self.pixel(screen, g.x + $0.x + 1, g.y + $0.y + 1).0 > 30 }
        }
        #expect(shown, "the PiP shows no cover, or its controls stayed after the pointer left")
        expectFace(screen, in: Rect(x: 0, y: 0, width: g.width, height: g.height), origin: (g.x, g.y), "PiP")
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// A video with chapters: the OSD names the chapter playback crosses
    /// into, the seek bar has a tick at each start, PgUp (typed) goes to
    /// the next, and --stats-json lists them.
    @Test func chaptersTickTheSeekBarAndNameThemselvesOnTheOSD() throws {
        let media = try #require(TaggedMedia.shared, "could not make the test media with ffmpeg")
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path, stats = dir.appendingPathComponent("stats.json")
        let app = try RunningApp([media.mkv, "--start", "1.2", "--geometry", "640x360+0+0", "--no-config", "--no-resume",
                                  "--input-ipc-server", socket, "--stats-json", stats.path])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        let font = TextRenderer()
        func osdWidth(_ shot: PPMImage, barShown: Bool) -> Int {
            let cy = 360 - 24 - (barShown ? ControlBar.height : 0)
            let ink = Self.inkExtent(shot, rows: (cy - font.lineHeight / 2)..<(cy + font.lineHeight / 2)) {
                $0.0 > 225 && (195...245).contains($0.1) && (90...150).contains($0.2)
            }
            return ink.map { $0.1 - $0.0 + 1 } ?? 0
        }
        let said = font.width(of: "Chapter: (2) Middle Part")
        /// The OSD line's ink width once it names Middle Part, looked for from
        /// when the chapter changed (the line is drawn on the next present and
        /// stays 2 s; a busy machine may take a while to grab the screen).
        func osdNamingMiddlePart(barShown: Bool, _ name: String) throws -> Int {
            var seen = 0
            _ = try eventually(seconds: 8) {
                try runTool("xdotool", ["mousemove", "1919", "1079"])
                seen = osdWidth(try grab(640, 360, to: dir.appendingPathComponent(name).path), barShown: barShown)
                return seen > said - 10 && seen <= said + 1
            }
            return seen
        }
        // Playing from 1.2 s: at 2 s it is Middle Part's turn, and the OSD says so (for 2 s).
        #expect(eventually(seconds: 30) { client.get("chapter") == .number(1) },
                "playback never reached Middle Part: chapter \(client.get("chapter") ?? .null)")
        let seen = try osdNamingMiddlePart(barShown: false, "osd.ppm")
        #expect(seen > said - 10 && seen <= said + 1, "OSD ink \(seen) px; 'Chapter: (2) Middle Part' is \(said) px")

        // Over the tile the control bar shows its ticks: light at 2 s and 5 s, none between 5 s and the end.
        try runTool("xdotool", ["mousemove", "320", "150"])
        let bar = ControlBar(in: Rect(x: 0, y: 0, width: 640, height: 360))
        let duration = try #require(client.get("duration")?.number)
        let y = bar.seekTrack.y + 3  // above the 4 px track, inside the tick
        // The bar is drawn on a present after the pointer's motion reaches the app: look until it is there.
        var lastShot: PPMImage?
        _ = try eventually {
            let shot = try grab(640, 360, to: dir.appendingPathComponent("bar.ppm").path)
            lastShot = shot
            return Self.pixel(shot, bar.chapterTickX(2, duration: duration), y).0 > 180
        }
        let shot = try #require(lastShot)
        for start in [2.0, 5.0] {
            let x = bar.chapterTickX(start, duration: duration)
            let got = Self.pixel(shot, x, y)
            #expect(got.0 > 180 && got.1 > 180 && got.2 > 180, "tick at \(start) s (x \(x)): \(got)")
        }
        let between = Self.pixel(shot, bar.chapterTickX(9, duration: duration), y)
        #expect(between.0 < 150, "no tick at 9 s: \(between)")

        // PgUp, typed: the next chapter's start, named on the OSD.
        try runTool("xdotool", ["key", "Page_Up"])
        // The chapter is the seek's target at once; the time once the seek is done.
        #expect(eventually {
            client.get("seeking") == .bool(false) && client.get("chapter") == .number(2)
                && (5..<6).contains(client.get("time-pos")?.number ?? -1)
        },
                "chapter \(client.get("chapter") ?? .null), time-pos \(client.get("time-pos") ?? .null)")
        // Paused there (so no clock decides the next step): PgDn at Ending's start goes to Middle Part.
        #expect(client.error([.string("set_property"), .string("pause"), .bool(true)]) == "success")
        // The bar and the OSD line go (settled: neither is waiting to), so the line found next is PgDn's.
        try runTool("xdotool", ["mousemove", "1919", "1079"])
        #expect(eventually(seconds: 30) { client.get("window-settled") == .bool(true) },
                "the window never settled: \(client.get("window-unsettled-by") ?? .null)")
        try runTool("xdotool", ["key", "Page_Down"])
        #expect(eventually { client.get("chapter") == .number(1) && client.get("time-pos") == .number(2) },
                "at Ending's start, PgDn goes to Middle Part: chapter \(client.get("chapter") ?? .null), time-pos \(client.get("time-pos") ?? .null)")
        let back = try osdNamingMiddlePart(barShown: true, "back.ppm")
        #expect(back > said - 10 && back <= said + 1, "after PgDn the OSD names Middle Part: \(back) px")

        #expect(client.error([.string("quit")]) == "success")
        let end = Date().addingTimeInterval(10)
        while app.process.isRunning && Date() < end { Thread.sleep(forTimeInterval: 0.05) }
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        let entry = try #require(report.players.first)
        #expect(entry.chapterCount == 3 && entry.chapters == TaggedMedia.chapterTitles && entry.title == "Chaptered")
    }
}
