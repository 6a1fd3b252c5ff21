// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
@testable import Output
@testable import UI
import TestSupport

/// Names in scripts the main font (DejaVu Sans) lacks, as a person sees
/// them: drawn from the installed font that has them, not as a row of
/// missing-glyph boxes. Needs fonts-droid-fallback (TEST_PACKAGES).
extension ScreenTests {
    /// The horizontal extent of the bright pixels (text) in a band of a grab.
    static func inkSpan(_ image: PPMImage, x: Range<Int>, y: Range<Int>) -> (first: Int, last: Int)? {
        var first: Int?, last: Int?
        for px in x {
            for py in y {
                let (r, g, b) = rgb(image, px, py)
                if max(r, g, b) > 160 {
                    if first == nil { first = px }
                    last = px
                    break
                }
            }
        }
        guard let first, let last else { return nil }
        return (first, last)
    }

    /// `日本語の動画.mp4` in the playlist panel: its title line is as wide
    /// as the ideographs from the fallback font make it, not as wide as
    /// DejaVu's boxes would (about 40 px less), and the window's title
    /// carries the name whole; `show-text '${filename}'` over the socket
    /// puts the name, expanded and in the same glyphs, on the OSD.
    @Test func aJapaneseFileNameIsDrawnInGlyphsNotBoxes() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let name = "日本語の動画.mp4"
        let file = dir.appendingPathComponent(name).path
        try FileManager.default.copyItem(atPath: Fixtures.asset("demo.mp4"), toPath: file)
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try RunningApp([file, "--pause", "--geometry", "960x540+0+0", "--no-config", "--no-resume",
                                  "--input-ipc-server", socket])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") == .number(10))
        #expect(client.get("filename") == .string(name))
        #expect(client.error([.string("set_property"), .string("playlist-panel"), .bool(true)]) == "success")
        let shot = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("panel.ppm").path)

        // Where the panel draws the first row's title (PlaylistPanel.drawRow, at scale 1).
        let g = PlaylistPanel().geometry(Rect(x: 0, y: 0, width: 960, height: 540), scale: Self.oneX)
        let text = TextRenderer()  // for its line height
        let textX = g.panel.x + 12 + g.thumb.width + 10
        let top = g.firstRowY + (g.rowHeight - (text.lineHeight * 2 + 2)) / 2
        let span = try #require(Self.inkSpan(shot, x: textX..<(g.panel.x + g.panel.width - 42), y: top..<(top + text.lineHeight)),
                                "no title drawn: \(app.errors)")
        let drawn = span.last - span.first + 1
        // What the two fonts make of it, measured apart from the app: the ideographs in the
        // first font fontconfig lists with them, ".mp4" in DejaVu; and DejaVu alone (boxes).
        let size = Int32(TextRenderer.designPointSize)
        let path = try #require(TextRenderer.fontCandidates.first { FileManager.default.fileExists(atPath: $0) })
        let main = try #require(TTFFont(path: path, pointSize: size))
        let face = try #require(FontFallbacks()?.faces(covering: [0x65E5]).first, "no font with 日 installed (fonts-droid-fallback)")
        let fallback = try #require(TTFFont(path: face.path, index: face.index, pointSize: size))
        func ltr(_ s: String) -> TextRun { TextRun(text: s, rightToLeft: false, script: "Zzzz", font: 0) }
        let glyphs = fallback.width(of: ltr("日本語の動画")) + main.width(of: ltr(".mp4"))
        let boxes = main.width(of: ltr(name))
        #expect(glyphs - boxes > 25, "the fallback font's ideographs are wider than the boxes (\(glyphs) against \(boxes))")
        #expect(abs(drawn - glyphs) <= 6, "the title's ink is \(drawn) px wide; the glyphs take \(glyphs), boxes would \(boxes)")
        #expect(span.first - textX <= 3, "drawn from the text's left edge: \(span.first) against \(textX)")

        // show-text over the socket, expanded ('${filename}') and drawn in the same fonts: the
        // OSD's line, centred under the picture (the letterbox is black there), is the name's width.
        #expect(client.error([.string("show-text"), .string("${filename}"), .number(60000)]) == "success")
        let osdY = 540 - 24  // MainWindow's bottom line: the window less 24 px, no control bar
        let band = (osdY - text.lineHeight / 2)..<(osdY + text.lineHeight / 2)
        var osd: (first: Int, last: Int)?
        #expect(try eventually {
            osd = try Self.inkSpan(grab(960, 540, to: dir.appendingPathComponent("osd.ppm").path), x: 0..<g.panel.x, y: band)
            return osd != nil
        }, "no OSD line drawn: \(app.errors)")
        if let osd {
            let wide = osd.last - osd.first + 1
            #expect(abs(wide - glyphs) <= 6, "the OSD line is \(wide) px wide; the name's glyphs take \(glyphs), the unexpanded text \(text.width(of: "${filename}"))")
            #expect(abs((osd.first + osd.last) / 2 - g.panel.x / 2) <= 4, "centred under the picture: \(osd)")
        }

        let window = try runTool("xdotool", ["search", "--onlyvisible", "--pid", "\(app.process.processIdentifier)"]).stdout
            .split(separator: "\n").first.map(String.init)
        let title = try runTool("xdotool", ["getwindowname", try #require(window)]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(title == "\(name) - DeskPlayer")
    }
}
