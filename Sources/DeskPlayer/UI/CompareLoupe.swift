// SPDX-License-Identifier: GPL-3.0-or-later
import Output
import Playback
import Media
import CSDL2

/// The comparison's loupe: beside the pointer, each side's 15x15 pixels
/// around the pointed one at 8x, A's and B's side by side, and under them
/// each side's values there: RGB as shown, and the video's own Y'CbCr
/// code values, read from the decoded picture of the frame on screen (at
/// the video's resolution, the chroma sample the pixel shares, at its bit
/// depth). The views keep that picture only while the loupe is on.
enum CompareLoupe {
    static let radius = 7, zoom = 8

    /// Draws the loupe and returns the values it shows, A's then B's.
    @discardableResult
    static func draw(_ reference: PlayerView, _ other: PlayerView, other index: Int, at pointer: (x: Int, y: Int),
                     areas: [Rect], bounds: Rect, renderer r: OpaquePointer, text: TextRenderer) -> [CompareState.LoupeReading] {
        // The pointer's place in the reference's picture, and the same place in the other's.
        let area = areas.first { $0.contains(x: pointer.x, y: pointer.y) } ?? bounds
        let referenceArea = areas.first ?? bounds, otherArea = areas.indices.contains(index) ? areas[index] : bounds
        let ox = pointer.x - area.x, oy = pointer.y - area.y
        let sides = [(reference, referenceArea, 0), (other, otherArea, index)]
        // Each side's pixel and values first: the panel is as wide as its lines.
        var readings: [CompareState.LoupeReading] = []
        var lines: [String] = []
        var places: [(picture: PictureBuffer, x: Int, y: Int)?] = []
        for side in sides {
            let letter = CompareView.letter(side.2)
            guard let picture = side.0.keptPicture, let mapping = side.0.pictureMapping(in: side.1) else {
                places.append(nil)
                lines.append("\(letter) —")
                continue
            }
            let fx = fraction(side.1.x + ox, mapping: mapping, vertical: false)
            let fy = fraction(side.1.y + oy, mapping: mapping, vertical: true)
            let px = Int(saturating: (fx * Double(picture.width)).rounded(.down)), py = Int(saturating: (fy * Double(picture.height)).rounded(.down))
            places.append((picture, px, py))
            guard let c = pixel(picture, px, py) else {
                lines.append("\(letter) —")
                continue
            }
            // The same point of the decoded picture, at the video's own size.
            let decoded = side.0.shownDecodedPicture
            let (vx, vy) = decoded.map { (Int(saturating: (fx * Double($0.width)).rounded(.down)), Int(saturating: (fy * Double($0.height)).rounded(.down))) }
                ?? (px, py)
            let code = decoded?.codeValues(x: vx, y: vy)
            readings.append(CompareState.LoupeReading(side: side.2, x: vx, y: vy, rgb: [Int(c.r), Int(c.g), Int(c.b)], code: code))
            lines.append("\(letter) \(vx),\(vy)  RGB \(c.r) \(c.g) \(c.b)  " + codeText(code))
        }
        let box = (2 * radius + 1) * zoom
        let lineHeight = text.lineHeight + 4
        let panelW = 2 * box + 30, panelH = box + 20 + 2 * lineHeight
        var x0 = pointer.x + 24, y0 = pointer.y + 24
        if x0 + panelW > bounds.x + bounds.width { x0 = pointer.x - 24 - panelW }
        if y0 + panelH > bounds.y + bounds.height { y0 = pointer.y - 24 - panelH }
        x0 = max(bounds.x, x0)
        y0 = max(bounds.y, y0)
        // The lines under the boxes may be wider than they: their band
        // widens, moved left as far as it must to stay in the window.
        let textW = (lines.map { text.width(of: $0) }.max() ?? 0) + 20
        let textX = max(bounds.x, min(x0, bounds.x + bounds.width - textW))
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        fill(Rect(x: x0, y: y0, width: panelW, height: box + 14), (0, 0, 0, 200), renderer: r)
        fill(Rect(x: min(textX, x0), y: y0 + box + 14, width: max(textW, panelW), height: panelH - box - 14), (0, 0, 0, 200), renderer: r)
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
        for (i, place) in places.enumerated() {
            let bx = x0 + 10 + i * (box + 10), by = y0 + 10
            text.drawLine(lines[i], renderer: r, x: textX + 10, y: by + box + 6 + i * lineHeight)
            guard let place else { continue }
            for dy in -radius...radius {
                for dx in -radius...radius {
                    let rect = Rect(x: bx + (dx + radius) * zoom, y: by + (dy + radius) * zoom, width: zoom, height: zoom)
                    guard let c = pixel(place.picture, place.x + dx, place.y + dy) else {
                        fill(rect, (40, 40, 40, 255), renderer: r)
                        continue
                    }
                    fill(rect, (c.r, c.g, c.b, 255), renderer: r)
                }
            }
            // The pointed pixel, outlined.
            var mark = Rect(x: bx + radius * zoom - 1, y: by + radius * zoom - 1, width: zoom + 2, height: zoom + 2).sdl
            SDL_SetRenderDrawColor(r, 255, 255, 255, 255)
            SDL_RenderDrawRect(r, &mark)
        }
        return readings
    }

    /// "Y'CbCr 502 448 600 (10-bit)": the decoded code values, "full" for a full-range video.
    static func codeText(_ code: DecodedPicture.CodeValues?) -> String {
        guard let code else { return "Y'CbCr —" }
        let chroma = [code.cb, code.cr].compactMap { $0.map(String.init) }.joined(separator: " ")
        return "Y'CbCr \(code.y)\(chroma.isEmpty ? "" : " " + chroma) (\(code.bits)-bit\(code.fullRange ? ", full" : ""))"
    }

    /// A screen coordinate's place across (or down) the whole picture, 0..<1.
    private static func fraction(_ screen: Int, mapping: (source: Rect, destination: Rect, pictureWidth: Int, pictureHeight: Int),
                                 vertical: Bool) -> Double {
        let (s0, sLen, d0, dLen, full) = vertical
            ? (mapping.source.y, mapping.source.height, mapping.destination.y, mapping.destination.height, mapping.pictureHeight)
            : (mapping.source.x, mapping.source.width, mapping.destination.x, mapping.destination.width, mapping.pictureWidth)
        let inPicture = Double(s0) + (Double(screen - d0) + 0.5) * Double(sLen) / Double(max(dLen, 1))
        return inPicture / Double(max(full, 1))
    }

    static func pixel(_ p: PictureBuffer, _ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8)? {
        guard x >= 0, y >= 0, x < p.width, y < p.height else { return nil }
        let q = p.pixels + y * p.pitch + x * 4
        return (q[2], q[1], q[0])
    }
}
