// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Foundation

/// Owns a TTF font (SDL2_ttf) and draws short lines of text. Without a font
/// file on the system it draws nothing; messages still go to stderr.
package final class TextRenderer {
    private let font: OpaquePointer?
    package let lineHeight: Int

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
        let path = TextRenderer.fontCandidates.first { FileManager.default.fileExists(atPath: $0) }
        font = path.flatMap { TTF_OpenFont($0, pointSize) }
        lineHeight = font.map { Int(TTF_FontLineSkip($0)) } ?? Int(pointSize)
    }

    deinit {
        if let font { TTF_CloseFont(font) }
    }

    /// Draws one line with its top-left corner at (x, y); returns its width.
    @discardableResult
    package func drawLine(_ text: String, renderer: OpaquePointer, x: Int, y: Int,
                  color: SDL_Color = SDL_Color(r: 230, g: 230, b: 230, a: 255)) -> Int {
        guard let font, !text.isEmpty, let surface = TTF_RenderUTF8_Blended(font, text, color) else { return 0 }
        defer { SDL_FreeSurface(surface) }
        let w = surface.pointee.w, h = surface.pointee.h
        if let texture = SDL_CreateTextureFromSurface(renderer, surface) {
            var dst = SDL_Rect(x: Int32(x), y: Int32(y), w: w, h: h)
            SDL_RenderCopy(renderer, texture, nil, &dst)
            SDL_DestroyTexture(texture)
        }
        return Int(w)
    }

    /// The width `text` takes on one line.
    package func width(of text: String) -> Int {
        guard let font else { return 0 }
        var w: Int32 = 0, h: Int32 = 0
        TTF_SizeUTF8(font, text, &w, &h)
        return Int(w)
    }

    /// Draws `text` centred on (cx, cy), each line centred, long lines wrapped to `maxWidth`.
    package func drawCentered(_ text: String, renderer: OpaquePointer, cx: Int, cy: Int, maxWidth: Int,
                      color: SDL_Color = SDL_Color(r: 230, g: 230, b: 230, a: 255)) {
        guard let font, !text.isEmpty else { return }
        let wrap = Int32(max(maxWidth, 50))
        let surfaces = text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line in
            var w: Int32 = 0, h: Int32 = 0
            let s = String(line.isEmpty ? " " : line)
            TTF_SizeUTF8(font, s, &w, &h)
            return w <= wrap ? TTF_RenderUTF8_Blended(font, s, color)
                : TTF_RenderUTF8_Blended_Wrapped(font, s, color, UInt32(wrap))
        }
        defer { surfaces.forEach { SDL_FreeSurface($0) } }
        var y = Int32(cy) - surfaces.reduce(0) { $0 + $1.pointee.h } / 2
        for surface in surfaces {
            guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { continue }
            let w = surface.pointee.w, h = surface.pointee.h
            var dst = SDL_Rect(x: Int32(cx) - w / 2, y: y, w: w, h: h)
            SDL_RenderCopy(renderer, texture, nil, &dst)
            SDL_DestroyTexture(texture)
            y += h
        }
    }
}
