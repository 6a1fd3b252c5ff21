// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Analysis
import Playback
import Output
import CSDL2

/// The scope panel (`scope` property, `h` key): FFmpeg's histogram,
/// waveform or vectorscope of the focused tile's picture, in a panel at the
/// window's top right, redrawn as `LiveScope` makes new ones. Owns the
/// texture it uploads to (freed with the panel, before the renderer).
/// Main thread.
package final class ScopePanel {
    static let maxWidth = 384
    static let maxHeight = 300

    let scope: LiveScope
    let title: String
    private var texture: VideoTexture?
    private(set) var drawnVersion = -1
    /// The time of the frame whose scope was drawn last (`scope-time`: what tests wait for).
    package private(set) var drawnTime: Double?

    package init(scope: LiveScope, title: String) {
        self.scope = scope
        self.title = title
    }

    /// A new scope picture to show.
    var changed: Bool { scope.latest.version != drawnVersion }

    /// Where the panel goes in a window of `bounds` for a picture of this size.
    static func frame(in bounds: Rect, pictureWidth: Int, pictureHeight: Int, titleHeight: Int) -> Rect {
        let scale = min(Double(maxWidth) / Double(max(pictureWidth, 1)), Double(maxHeight) / Double(max(pictureHeight, 1)),
                        Double(bounds.width) / 3 / Double(max(pictureWidth, 1)))
        let w = max(Int(saturating: Double(pictureWidth) * scale), 64), h = max(Int(saturating: Double(pictureHeight) * scale), 48)
        return Rect(x: bounds.x + bounds.width - w - 12, y: bounds.y + 12 + titleHeight, width: w, height: h)
    }

    func draw(in bounds: Rect, renderer r: OpaquePointer, text: TextRenderer) {
        let (picture, time, version, problem) = scope.latest
        drawnVersion = version
        drawnTime = time
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        defer { SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE) }
        let caption = scope.kind.rawValue.capitalized + ": " + title + (problem.map { " (\($0))" } ?? "")
        guard let picture else {
            let w = min(text.width(of: caption) + 12, bounds.width - 24)
            fill(Rect(x: bounds.x + bounds.width - w - 12, y: bounds.y + 12, width: w, height: text.lineHeight + 6), (0, 0, 0, 190),
                 renderer: r)
            text.drawLine(caption, renderer: r, x: bounds.x + bounds.width - w - 6, y: bounds.y + 15)
            return
        }
        if texture.map({ !$0.fits(picture) }) ?? true {
            texture = try? VideoTexture(renderer: r, width: picture.width, height: picture.height)
        }
        guard let texture else { return }
        texture.upload(picture)
        let area = ScopePanel.frame(in: bounds, pictureWidth: picture.width, pictureHeight: picture.height,
                                    titleHeight: text.lineHeight + 6)
        fill(Rect(x: area.x - 4, y: area.y - text.lineHeight - 10, width: area.width + 8, height: area.height + text.lineHeight + 14),
             (0, 0, 0, 190), renderer: r)
        text.drawLine(caption, renderer: r, x: area.x, y: area.y - text.lineHeight - 6)
        var destination = area.sdl
        SDL_RenderCopy(r, texture.texture, nil, &destination)
    }
}
