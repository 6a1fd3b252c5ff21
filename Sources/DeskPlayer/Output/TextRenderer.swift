// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Foundation

/// Draws short lines of text in any script: DejaVu Sans first, and for a
/// character it lacks, the first installed font fontconfig lists that has
/// it (Droid Sans Fallback for 日本語, Noto for Devanagari, …), per
/// character run; right-to-left runs laid out right to left and shaped by
/// HarfBuzz (`TextRuns`). Without a font file on the system it draws
/// nothing; messages still go to stderr. One thread at a time.
package final class TextRenderer {
    /// The main font first, then the fallbacks opened so far.
    private var fonts: [TTFFont] = []
    private let pointSize: Int32
    package let lineHeight: Int
    /// fontconfig's list, read the first time a character is missing.
    private var fallbacks: FontFallbacks?
    private var fallbacksRead = false
    private var opened: [FontFallbacks.Face: Int?] = [:]
    /// Which font draws a character, once looked up (bounded: a name from
    /// outside may hold any number of distinct characters).
    private var chosen: [Character: Int] = [:]
    private static let chosenLimit = 4096

    static let fontCandidates = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    ]

    /// The OSD's size at 96 DPI (a window scales it by its UI scale).
    package static let designPointSize = 18

    package init(pointSize: Int32 = Int32(designPointSize)) {
        if TTF_WasInit() == 0 { TTF_Init() }
        self.pointSize = pointSize
        let path = TextRenderer.fontCandidates.first { FileManager.default.fileExists(atPath: $0) }
        if let main = path.flatMap({ TTFFont(path: $0, pointSize: pointSize) }) { fonts = [main] }
        lineHeight = fonts.first.map { Int(TTF_FontLineSkip($0.handle)) } ?? Int(pointSize)
    }

    // MARK: Choosing fonts

    /// The font that draws `c`: the main one when it has it, else a fallback
    /// already open that has it (a name stays in as few fonts as it can,
    /// and no list is read again), else the first one fontconfig lists with
    /// it, else the main one (which shows its missing-glyph box).
    private func font(for c: Character) -> Int {
        if c.unicodeScalars.allSatisfy({ $0.isASCII }) { return 0 }
        if let known = chosen[c] { return known }
        var pick = 0
        if let main = fonts.first, !main.provides(c) {
            pick = fonts.indices.dropFirst().first { fonts[$0].provides(c) } ?? openFallback(for: c) ?? 0
        }
        if chosen.count >= Self.chosenLimit { chosen.removeAll() }
        chosen[c] = pick
        return pick
    }

    private func openFallback(for c: Character) -> Int? {
        if !fallbacksRead {
            fallbacksRead = true
            fallbacks = FontFallbacks()
        }
        let drawn = c.unicodeScalars.filter { $0.value >= 0x20 && !$0.properties.isDefaultIgnorableCodePoint }.map(\.value)
        guard let fallbacks, !drawn.isEmpty else { return nil }
        for face in fallbacks.faces(covering: drawn) {
            let slot: Int?
            if let known = opened[face] {
                slot = known
            } else {
                slot = TTFFont(path: face.path, index: face.index, pointSize: pointSize, lineHeight: lineHeight).map { font in
                    fonts.append(font)
                    return fonts.count - 1
                }
                opened[face] = slot
            }
            if let slot, fonts[slot].provides(c) { return slot }
        }
        return nil
    }

    /// The characters of `text` that no font drawing it has (each would show as a box).
    package func missingGlyphs(in text: String) -> [Character] {
        text.filter { c in fonts.isEmpty || !fonts[font(for: c)].provides(c) }.map { $0 }
    }

    /// `text`'s runs in drawing order, each with the font that draws it.
    package func runs(_ text: String) -> [TextRun] {
        // Plain ASCII is one left-to-right run in the main font: the common case, kept cheap.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return [TextRun(text: text, rightToLeft: false, script: TextRuns.noScript, font: 0)] }
        return TextRuns.runs(text, font: font(for:))
    }

    // MARK: Drawing

    /// Draws one line with its top-left corner at (x, y); returns its width.
    @discardableResult
    package func drawLine(_ text: String, renderer: OpaquePointer, x: Int, y: Int,
                  color: SDL_Color = SDL_Color(r: 230, g: 230, b: 230, a: 255)) -> Int {
        guard let main = fonts.first, !text.isEmpty else { return 0 }
        var pen = x
        for run in runs(text) {
            let font = fonts[run.font]
            guard let surface = font.render(run, color: color) else { continue }
            defer { SDL_FreeSurface(surface) }
            let w = font.scaled(surface.pointee.w), h = font.scaled(surface.pointee.h)
            if let texture = SDL_CreateTextureFromSurface(renderer, surface) {
                // An emoji's 109 px bitmap brought down to the line: smoothed, not every fifth pixel.
                if font.scale != 1 { SDL_SetTextureScaleMode(texture, SDL_ScaleModeLinear) }
                // Runs in other fonts sit on the main font's baseline.
                var dst = SDL_Rect(x: Int32(pen), y: Int32(y + main.ascent - font.ascent), w: w, h: h)
                SDL_RenderCopy(renderer, texture, nil, &dst)
                SDL_DestroyTexture(texture)
            }
            pen += Int(w)
        }
        return pen - x
    }

    /// The width `text` takes on one line.
    package func width(of text: String) -> Int {
        guard !fonts.isEmpty else { return 0 }
        return runs(text).reduce(0) { $0 + fonts[$1.font].width(of: $1) }
    }

    /// Draws `text` centred on (cx, cy), each line centred, long lines wrapped to `maxWidth`.
    /// `backdrop`: a translucent box behind each line, so an OSD message
    /// reads on any picture (yellow text on a bright sky did not).
    package func drawCentered(_ text: String, renderer: OpaquePointer, cx: Int, cy: Int, maxWidth: Int,
                      color: SDL_Color = SDL_Color(r: 230, g: 230, b: 230, a: 255), backdrop: SDL_Color? = nil) {
        guard let main = fonts.first, !text.isEmpty else { return }
        let wrap = max(maxWidth, 50)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { wrapped(String($0), to: wrap) }
        // Lines a font's height apart, as SDL_ttf stacks them.
        let height = Int(TTF_FontHeight(main.handle))
        var y = cy - height * lines.count / 2
        if let backdrop {
            // One box around all the lines, a little wider than the widest;
            // 2 px above and below, so stacked messages' boxes do not overlap.
            let widest = lines.map { width(of: $0) }.max() ?? 0
            let side = max(height / 3, 4)
            var box = SDL_Rect(x: Int32(clamping: cx - widest / 2 - side), y: Int32(clamping: y - 2),
                               w: Int32(clamping: widest + 2 * side), h: Int32(clamping: height * lines.count + 4))
            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
            SDL_SetRenderDrawColor(renderer, backdrop.r, backdrop.g, backdrop.b, backdrop.a)
            SDL_RenderFillRect(renderer, &box)
        }
        for line in lines {
            drawLine(line, renderer: renderer, x: cx - width(of: line) / 2, y: y, color: color)
            y += height
        }
    }

    /// `line` broken into lines no wider than `width`: at spaces where it
    /// can, else between characters (never inside one: CJK has no spaces,
    /// and a cluster is one `Character`). Widths are added up piece by
    /// piece (kerning across a break is ignored) so a long line costs one
    /// pass, not one per piece.
    func wrapped(_ line: String, to width: Int) -> [String] {
        guard self.width(of: line) > width else { return [line] }
        let space = self.width(of: " ")
        var lines: [String] = []
        var current = "", currentWidth = 0
        for word in line.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let wordWidth = self.width(of: word)
            if current.isEmpty && currentWidth == 0 && wordWidth <= width {
                (current, currentWidth) = (word, wordWidth)
                continue
            }
            if currentWidth + space + wordWidth <= width {
                current += " " + word
                currentWidth += space + wordWidth
                continue
            }
            if !current.isEmpty { lines.append(current) }
            (current, currentWidth) = ("", 0)
            for c in word {
                let w = self.width(of: String(c))
                if !current.isEmpty && currentWidth + w > width {
                    lines.append(current)
                    (current, currentWidth) = ("", 0)
                }
                current.append(c)
                currentWidth += w
            }
        }
        lines.append(current)
        return lines
    }
}
