// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Output

/// The control bar's button faces, drawn as shapes (crisp at any UI
/// scale, and independent of which symbols the font has).
enum BarIcons {
    static let ink = SDL_Color(r: 240, g: 240, b: 240, a: 255)

    /// A filled triangle pointing right (or left) inside `r`.
    static func triangle(_ r: Rect, right: Bool, renderer: OpaquePointer) {
        let tip = Float(right ? r.x + r.width : r.x), back = Float(right ? r.x : r.x + r.width)
        let vertices = [SDL_FPoint(x: back, y: Float(r.y)), SDL_FPoint(x: back, y: Float(r.y + r.height)),
                        SDL_FPoint(x: tip, y: Float(r.y) + Float(r.height) / 2)].map {
            SDL_Vertex(position: $0, color: ink, tex_coord: SDL_FPoint(x: 0, y: 0))
        }
        _ = vertices.withUnsafeBufferPointer { SDL_RenderGeometry(renderer, nil, $0.baseAddress, 3, nil, 0) }
    }

    /// What `button` shows, inside its rectangle `b`.
    static func draw(_ button: ControlBar.Button, in b: Rect, paused: Bool, recording: Bool = false, scale u: UIScale,
                     renderer r: OpaquePointer, text: TextRenderer) {
        let cx = b.x + b.width / 2, cy = b.y + b.height / 2
        let s = u(12), bar = max(u(2), 1)
        let white: (UInt8, UInt8, UInt8, UInt8) = (240, 240, 240, 255)
        switch button {
        case .play:
            if paused {
                triangle(Rect(x: cx - s / 2 + u(1), y: cy - s / 2, width: s, height: s), right: true, renderer: r)
            } else {
                fill(Rect(x: cx - s / 2, y: cy - s / 2, width: s / 3, height: s), white, renderer: r)
                fill(Rect(x: cx + s / 2 - s / 3, y: cy - s / 2, width: s / 3, height: s), white, renderer: r)
            }
        case .previous:
            fill(Rect(x: cx - s / 2, y: cy - s / 2, width: bar, height: s), white, renderer: r)
            triangle(Rect(x: cx - s / 2 + bar, y: cy - s / 2, width: s - bar, height: s), right: false, renderer: r)
        case .next:
            triangle(Rect(x: cx - s / 2, y: cy - s / 2, width: s - bar, height: s), right: true, renderer: r)
            fill(Rect(x: cx + s / 2 - bar, y: cy - s / 2, width: bar, height: s), white, renderer: r)
        case .record:
            // A red dot, as cameras have it; while recording, a red square: stop.
            let red: (UInt8, UInt8, UInt8, UInt8) = (230, 40, 40, 255)
            if recording {
                fill(Rect(x: cx - s / 2 + u(1), y: cy - s / 2 + u(1), width: s - u(2), height: s - u(2)), red, renderer: r)
            } else {
                // A disc, row by row.
                let radius = s / 2 + u(1)
                for dy in -radius...radius {
                    let half = Int((Double(radius * radius - dy * dy)).squareRoot())
                    fill(Rect(x: cx - half, y: cy + dy, width: 2 * half + 1, height: 1), red, renderer: r)
                }
            }
        case .audio, .subtitles:
            text.drawCentered(button == .audio ? "♪" : "CC", renderer: r, cx: cx, cy: cy, maxWidth: b.width * 2)
        case .camera:
            // A camera: a body, a lens (a dark square in it), a bump on top.
            let body = Rect(x: cx - s / 2, y: cy - s / 3, width: s, height: s * 2 / 3 + 1)
            fill(body, white, renderer: r)
            fill(Rect(x: cx - s / 6, y: cy - s / 3 - bar, width: s / 3, height: bar), white, renderer: r)
            let lens = max(s / 3, 2)
            fill(Rect(x: cx - lens / 2, y: body.y + (body.height - lens) / 2, width: lens, height: lens), (40, 40, 40, 255), renderer: r)
        case .playlist:
            // A list: three rows, each a dot and a line.
            for row in 0..<3 {
                let y = cy - s / 2 + row * (s - bar) / 2
                fill(Rect(x: cx - s / 2, y: y, width: bar * 2, height: bar), white, renderer: r)
                fill(Rect(x: cx - s / 2 + bar * 3, y: y, width: s - bar * 3, height: bar), white, renderer: r)
            }
        case .fullscreen:
            // Four corners.
            let arm = s / 3
            for (x, y, dx, dy) in [(cx - s / 2, cy - s / 2, 1, 1), (cx + s / 2, cy - s / 2, -1, 1),
                                   (cx - s / 2, cy + s / 2, 1, -1), (cx + s / 2, cy + s / 2, -1, -1)] {
                fill(Rect(x: dx > 0 ? x : x - arm, y: dy > 0 ? y : y - bar, width: arm, height: bar), white, renderer: r)
                fill(Rect(x: dx > 0 ? x : x - bar, y: dy > 0 ? y : y - arm, width: bar, height: arm), white, renderer: r)
            }
        }
    }
}
