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

    /// The width HarfBuzz's own shaper (`hb-shape`, a reference apart from
    /// SDL_ttf) gives `text` in the font at `path` at the OSD's pixel size:
    /// joined Arabic letters, Devanagari conjuncts, one advance per emoji.
    static func referenceWidth(_ text: String, font path: String) throws -> Int {
        let out = try runTool("hb-shape", ["--font-size=\(TextRenderer.designPointSize)", "--output-format=json", "--no-glyph-names",
                                           path, text]).stdout
        let glyphs = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]], "hb-shape said: \(out)")
        return glyphs.reduce(0) { $0 + (($1["ax"] as? NSNumber)?.intValue ?? 0) }
    }

    /// The installed font fontconfig gives a character (what the desktop would draw it in).
    static func fontFile(for scalar: Unicode.Scalar) throws -> String {
        try runTool("fc-match", ["-f", "%{file}", ":charset=" + String(scalar.value, radix: 16)]).stdout
    }

    /// Names in five more scripts, each in the playlist panel, on the OSD
    /// and in the window's title: Arabic (right to left, its letters
    /// joined), Hebrew, Hindi (Devanagari conjuncts), Greek and an emoji.
    /// Each title line is as wide as the reference shaper makes the name
    /// in the fonts that have its letters (unjoined Arabic or Devanagari
    /// letter by letter is 40–80 px wider, a missing-glyph box row wider
    /// still), and no taller than a line: Noto Color Emoji's only size is
    /// a 109 px bitmap, drawn first at that size across three rows.
    /// Needs fonts-lohit-deva, fonts-noto-color-emoji and libharfbuzz-bin (TEST_PACKAGES).
    @Test func namesInEveryScriptAreShapedAndSized() throws {
        let dejaVu = try #require(TextRenderer.fontCandidates.first { FileManager.default.fileExists(atPath: $0) })
        let devanagari = try Self.fontFile(for: "न")
        let emoji = try Self.fontFile(for: "🎉")
        try #require(devanagari.contains("Devanagari") || devanagari.contains("Deva"), "no Devanagari font installed (fonts-lohit-deva): \(devanagari)")
        try #require(emoji.contains("Emoji"), "no emoji font installed (fonts-noto-color-emoji): \(emoji)")
        let mp4 = try Self.referenceWidth(".mp4", font: dejaVu)
        // Each name, and its reference width: the script's part in its font (words apart: the
        // renderer draws the space in DejaVu), ".mp4" in DejaVu; and the letters shaped one by one.
        struct Name { let text: String; let reference: Int; let unshaped: Int? }
        func name(_ words: [String], font: String, unshapedToo: Bool = false) throws -> Name {
            let space = try Self.referenceWidth(" ", font: dejaVu)
            let shaped = try words.reduce(0) { $0 + (try Self.referenceWidth($1, font: font)) } + space * (words.count - 1) + mp4
            let unshaped = unshapedToo
                ? try words.joined().unicodeScalars.reduce(0) { $0 + (try Self.referenceWidth(String($1), font: font)) } + space * (words.count - 1) + mp4 : nil
            return Name(text: words.joined(separator: " ") + ".mp4", reference: shaped, unshaped: unshaped)
        }
        let party = try Self.referenceWidth("party ", font: dejaVu) + Self.referenceWidth("🎉", font: emoji)
            + Self.referenceWidth(" video.mp4", font: dejaVu)
        let names = [
            try name(["مرحبا", "بالعالم"], font: dejaVu, unshapedToo: true),
            try name(["שלום", "עולם"], font: dejaVu),
            try name(["नमस्ते", "दुनिया"], font: devanagari, unshapedToo: true),
            try name(["Ελληνικά", "βίντεο"], font: dejaVu),
            Name(text: "party 🎉 video.mp4", reference: party, unshaped: nil),
        ]
        for n in names {
            if let unshaped = n.unshaped {
                #expect(unshaped - n.reference > 30, "\(n.text): shaping changes its width, so the test can tell (\(n.reference) shaped, \(unshaped) letter by letter)")
            }
        }

        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = try names.map { n in
            let file = dir.appendingPathComponent(n.text).path
            try FileManager.default.copyItem(atPath: Fixtures.asset("demo.mp4"), toPath: file)
            return file
        }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try RunningApp(files + ["--pause", "--geometry", "960x540+0+0", "--no-config", "--no-resume",
                                          "--input-ipc-server", socket])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") == .number(10))
        #expect(client.error([.string("set_property"), .string("playlist-panel"), .bool(true)]) == "success")
        #expect(client.get("playlist-count") == .number(Double(names.count)))
        let shot = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("panel.ppm").path)
        let g = PlaylistPanel().geometry(Rect(x: 0, y: 0, width: 960, height: 540), scale: Self.oneX)
        let text = TextRenderer()
        let textX = g.panel.x + 12 + g.thumb.width + 10
        for (i, n) in names.enumerated() {
            let top = g.firstRowY + i * g.rowHeight + (g.rowHeight - (text.lineHeight * 2 + 2)) / 2
            let xs = textX..<(g.panel.x + g.panel.width - 42)
            guard let span = Self.inkSpan(shot, x: xs, y: top..<(top + text.lineHeight)) else {
                Issue.record("\(n.text): no title drawn in row \(i): \(app.errors)")
                continue
            }
            let drawn = span.last - span.first + 1
            #expect(abs(drawn - n.reference) <= 6, "\(n.text): the title's ink is \(drawn) px wide; the reference shaper's \(n.reference)")
            // Nothing of it above the title line, in the row's top margin (an emoji at its bitmap's size reached into the row above).
            let above = (g.firstRowY + i * g.rowHeight + 1)..<(top - 1)
            if !above.isEmpty {
                #expect(Self.inkSpan(shot, x: xs, y: above) == nil, "\(n.text): ink above its title line")
            }
        }

        // The OSD and the title, for each in turn (the playlist moves on with playlist-next).
        let window = try #require(try runTool("xdotool", ["search", "--onlyvisible", "--pid", "\(app.process.processIdentifier)"]).stdout
            .split(separator: "\n").first.map(String.init))
        let osdY = 540 - 24
        let band = (osdY - text.lineHeight / 2)..<(osdY + text.lineHeight / 2)
        for (i, n) in names.enumerated() {
            let moved = i == 0 ? "success" : client.error([.string("playlist-next")])
            #expect(moved == "success")
            #expect(eventually { client.get("filename") == .string(n.text) }, "\(n.text): not the current file")
            #expect(try eventually {
                try runTool("xdotool", ["getwindowname", window]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                    == "\(n.text) - DeskPlayer"
            }, "\(n.text): the window's title")
            #expect(client.error([.string("show-text"), .string("${filename}"), .number(60000)]) == "success")
            var wide = 0
            let drawn = try eventually {
                let grab = try grab(960, 540, to: dir.appendingPathComponent("osd\(i).ppm").path)
                guard let osd = Self.inkSpan(grab, x: 0..<g.panel.x, y: band) else { return false }
                wide = osd.last - osd.first + 1
                return abs(wide - n.reference) <= 6
            }
            #expect(drawn, "\(n.text): the OSD line is \(wide) px wide; the reference shaper's \(n.reference)")
        }
    }
}
