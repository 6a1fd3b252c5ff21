import CSDL2
import Foundation

/// Owns a TTF font (SDL2_ttf) and draws short lines of text. Without a font
/// file on the system it draws nothing; messages still go to stderr.
final class TextRenderer {
    private let font: OpaquePointer?
    let lineHeight: Int

    static let fontCandidates = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    ]

    init(pointSize: Int32 = 18) {
        if TTF_WasInit() == 0 { TTF_Init() }
        let path = TextRenderer.fontCandidates.first { FileManager.default.fileExists(atPath: $0) }
        font = path.flatMap { TTF_OpenFont($0, pointSize) }
        lineHeight = font.map { Int(TTF_FontLineSkip($0)) } ?? Int(pointSize)
    }

    deinit {
        if let font { TTF_CloseFont(font) }
    }

    var isAvailable: Bool { font != nil }

    /// Draws `text` centred on (cx, cy), wrapped to `maxWidth`.
    func drawCentered(_ text: String, renderer: OpaquePointer, cx: Int, cy: Int, maxWidth: Int,
                      color: SDL_Color = SDL_Color(r: 230, g: 230, b: 230, a: 255)) {
        guard let font, !text.isEmpty else { return }
        guard let surface = TTF_RenderUTF8_Blended_Wrapped(font, text, color, UInt32(max(maxWidth, 50))) else { return }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return }
        defer { SDL_DestroyTexture(texture) }
        let w = surface.pointee.w, h = surface.pointee.h
        var dst = SDL_Rect(x: Int32(cx) - w / 2, y: Int32(cy) - h / 2, w: w, h: h)
        SDL_RenderCopy(renderer, texture, nil, &dst)
    }
}
