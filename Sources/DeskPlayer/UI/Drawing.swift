// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2

extension Rect {
    var sdl: SDL_Rect { SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height)) }
}

/// Fills `rect` with an RGBA colour (blended when the renderer's blend mode
/// is set: the overlays' panels and bars).
func fill(_ rect: Rect, _ color: (UInt8, UInt8, UInt8, UInt8), renderer: OpaquePointer) {
    var box = rect.sdl
    SDL_SetRenderDrawColor(renderer, color.0, color.1, color.2, color.3)
    SDL_RenderFillRect(renderer, &box)
}
