// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Output
@testable import UI

/// Text in any script: characters the main font (DejaVu Sans) lacks come
/// from an installed font that has them (found through fontconfig), runs
/// are ordered as the bidirectional algorithm orders them, and nothing is
/// ever cut inside a grapheme cluster. Needs the fonts the Makefile's
/// TEST_PACKAGES install (fonts-dejavu-core, fonts-droid-fallback).
@Suite struct TextRendererTests {
    /// Runs with a font chooser that gives CJK ideographs and kana font 1.
    func runs(_ text: String) -> [[String]] {
        TextRuns.runs(text) { c in (c.unicodeScalars.first?.value ?? 0) >= 0x3000 ? 1 : 0 }
            .map { [$0.text, $0.rightToLeft ? "rtl" : "ltr", $0.script, String($0.font)] }
    }

    @Test func runsFollowDirectionScriptAndFont() {
        #expect(runs("plain text") == [["plain text", "ltr", "Zzzz", "0"]])
        // Left-to-right paragraph: the Hebrew word reads right to left, and the number after it is placed to its left.
        #expect(runs("Film שלום 2") == [["Film ", "ltr", "Zzzz", "0"], ["2", "ltr", "Hebr", "0"], ["שלום ", "rtl", "Hebr", "0"]])
        // Right-to-left paragraph (its first strong character is Hebrew): the Latin word is placed to the left.
        #expect(runs("שלום abc") == [["abc", "ltr", "Zzzz", "0"], ["שלום ", "rtl", "Hebr", "0"]])
        // Arabic is shaped as Arabic, one run read right to left.
        #expect(runs("مرحبا بالعالم") == [["مرحبا بالعالم", "rtl", "Arab", "0"]])
        // A change of font splits a run: the CJK name in the fallback font, ".mp4" in the main one.
        #expect(runs("日本語の動画.mp4") == [["日本語の動画", "ltr", "Zzzz", "1"], [".mp4", "ltr", "Zzzz", "0"]])
        // A cluster is one character: a combining accent stays with its letter.
        #expect(runs("e\u{301}日").map { $0[0] } == ["e\u{301}", "日"])
    }

    @Test func rightToLeftParagraphsPlaceLeftToRightWordsByLevel() {
        // سلام abc عالم: the paragraph is right to left; abc (level 2) sits between the two Arabic words, which swap sides.
        let order = TextRuns.runs("سلام abc عالم") { _ in 0 }.map(\.text)
        #expect(order == ["عالم", " ", "abc", "سلام "])
    }

    @Test func everyCharacterIsDrawnByAFontThatHasIt() throws {
        let text = TextRenderer()
        let path = try #require(TextRenderer.fontCandidates.first { FileManager.default.fileExists(atPath: $0) })
        let main = try #require(TTFFont(path: path, pointSize: 18))
        for name in ["日本語の動画.mp4", "שלום עולם.mkv", "مرحبا بالعالم.webm", "Ελληνικά и кириллица.ogg"] {
            #expect(text.missingGlyphs(in: name).isEmpty, "\(name): \(text.missingGlyphs(in: name))")
        }
        // DejaVu has no kanji: they come from another font, the ".mp4" from the main one.
        #expect(!main.provides("日"))
        let fonts = text.runs("日本語の動画.mp4").map(\.font)
        #expect(fonts.count == 2 && fonts[0] != 0 && fonts[1] == 0, "\(fonts)")
        #expect(text.width(of: "日本語の動画.mp4") > text.width(of: ".mp4") + 6 * 10, "the ideographs take room")
    }

    /// Arabic letters join (HarfBuzz shapes the run as Arabic): the
    /// renderer's run for an Arabic name is narrower than the same letters
    /// unjoined (measured: 93 px against 135 px at 18 pt in DejaVu Sans).
    @Test func arabicIsShapedAsArabic() throws {
        let text = TextRenderer()
        let name = "مرحبا بالعالم"
        let runs = text.runs(name)
        #expect(runs.map(\.script) == ["Arab"] && runs.map(\.rightToLeft) == [true])
        let path = try #require(TextRenderer.fontCandidates.first { FileManager.default.fileExists(atPath: $0) })
        let main = try #require(TTFFont(path: path, pointSize: Int32(TextRenderer.designPointSize)))
        let unjoined = main.width(of: TextRun(text: name, rightToLeft: true, script: "Zzzz", font: 0))
        #expect(Double(text.width(of: name)) < 0.8 * Double(unjoined), "\(text.width(of: name)) px joined against \(unjoined) px unjoined")
    }

    @Test func wrappingBreaksBetweenCharactersNeverInsideOne() {
        let text = TextRenderer()
        let line = String(repeating: "日本語の動画 ", count: 6) + String(repeating: "👨‍👩‍👧e\u{301}", count: 10)
        let width = 150
        let lines = text.wrapped(line, to: width)
        #expect(lines.count > 2)
        for l in lines { #expect(text.width(of: l) <= width + text.width(of: "日"), "\(l)") }
        #expect(lines.joined(separator: " ").filter { $0 != " " } == line.filter { $0 != " " }, "nothing lost, nothing split")
    }

    @Test func shorteningCutsWholeClusters() {
        let text = TextRenderer()
        let line = String(repeating: "👨‍👩‍👧e\u{301}क्षि", count: 20)
        let short = AudioFaceView.shortened(line, to: 120, text: text)
        #expect(short.hasSuffix("…") && short.count < line.count)
        let kept = Array(short.dropLast())
        #expect(Array(line.prefix(kept.count)) == kept, "a prefix of whole characters")
    }
}
