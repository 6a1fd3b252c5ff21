// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2

/// Owns one SDL_ttf font at one size, and lays a run out in it: the
/// direction and script for HarfBuzz's shaping are set before every use,
/// since the font keeps them between calls.
final class TTFFont {
    let handle: OpaquePointer
    /// Pixels from the top of a line to its baseline (to line runs of different fonts up).
    let ascent: Int

    init?(path: String, index: Int = 0, pointSize: Int32) {
        guard let handle = TTF_OpenFontIndex(path, pointSize, index) else { return nil }
        self.handle = handle
        ascent = Int(TTF_FontAscent(handle))
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
        return Int(w)
    }

    /// `run` drawn in `color` (a surface the caller frees), nil for an empty one.
    func render(_ run: TextRun, color: SDL_Color) -> UnsafeMutablePointer<SDL_Surface>? {
        TTF_RenderUTF8_Blended(handle, prepare(run), color)
    }
}
