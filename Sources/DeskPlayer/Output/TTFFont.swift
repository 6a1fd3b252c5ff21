// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2

/// Owns one SDL_ttf font at one size, and lays a run out in it: the
/// direction and script for HarfBuzz's shaping are set before every use,
/// since the font keeps them between calls.
///
/// A font of bitmaps at fixed sizes only (Noto Color Emoji has one, 109 px)
/// cannot be drawn at the size asked for: FreeType picks its nearest strike.
/// Such a font is drawn scaled down to the line it sits in (`scale` < 1),
/// and its widths and ascent are given at that scale.
final class TTFFont {
    let handle: OpaquePointer
    /// Pixels from the top of a line to its baseline (to line runs of different fonts up), at `scale`.
    let ascent: Int
    /// What the font's own pixels are multiplied by when drawn: 1, or less for a fixed-size bitmap font taller than the line.
    let scale: Double

    /// `lineHeight`: the height of the line this font's runs sit in (the
    /// main font's); a font whose glyphs come out taller than half again
    /// as much is scaled down to it.
    init?(path: String, index: Int = 0, pointSize: Int32, lineHeight: Int? = nil) {
        guard let handle = TTF_OpenFontIndex(path, pointSize, index) else { return nil }
        self.handle = handle
        let height = Int(TTF_FontHeight(handle))
        if let lineHeight, lineHeight > 0, height * 2 > lineHeight * 3 {
            scale = Double(lineHeight) / Double(height)
        } else {
            scale = 1
        }
        ascent = Int((Double(TTF_FontAscent(handle)) * scale).rounded())
    }

    /// A length in the font's own pixels at the size it is drawn.
    func scaled(_ pixels: Int32) -> Int32 {
        scale == 1 ? pixels : Int32((Double(pixels) * scale).rounded())
    }

    deinit { TTF_CloseFont(handle) }

    /// Whether the font has a glyph for every scalar of `c` that is drawn
    /// at all (joiners, variation selectors and controls draw nothing).
    func provides(_ c: Character) -> Bool {
        c.unicodeScalars.allSatisfy { s in
            s.value < 0x20 || s.properties.isDefaultIgnorableCodePoint || TTF_GlyphIsProvided32(handle, s.value) != 0
        }
    }

    /// Sets the run's direction and script; returns the text to hand to
    /// SDL_ttf: the run itself, or, for a right-to-left run where SDL_ttf
    /// was built without HarfBuzz, its characters reversed (unshaped, but
    /// in the right order).
    func prepare(_ run: TextRun) -> String {
        let shaped = TTF_SetFontDirection(handle, run.rightToLeft ? TTF_DIRECTION_RTL : TTF_DIRECTION_LTR) == 0
        if shaped { _ = TTF_SetFontScriptName(handle, run.script) }
        return run.rightToLeft && !shaped ? String(run.text.reversed()) : run.text
    }

    /// The width of `run` laid out in this font.
    func width(of run: TextRun) -> Int {
        var w: Int32 = 0, h: Int32 = 0
        TTF_SizeUTF8(handle, prepare(run), &w, &h)
        return Int(scaled(w))
    }

    /// `run` drawn in `color` (a surface the caller frees, at the font's own
    /// size: draw it `scaled`), nil for an empty one.
    func render(_ run: TextRun, color: SDL_Color) -> UnsafeMutablePointer<SDL_Surface>? {
        TTF_RenderUTF8_Blended(handle, prepare(run), color)
    }
}
