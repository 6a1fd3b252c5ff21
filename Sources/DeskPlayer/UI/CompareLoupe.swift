import Output
import Playback
import Media
import CSDL2

/// The comparison's loupe: beside the pointer, each side's 15x15 pixels
/// around the pointed one at 8x, A's and B's side by side, and under them
/// each side's values there: RGB as shown, and Y'CbCr code values worked
/// back from them through the video's matrix (BT.709 for HD, else BT.601,
/// limited range), within a code value or two of the decoded ones.
enum CompareLoupe {
    static let radius = 7, zoom = 8

    static func draw(_ reference: PlayerView, _ other: PlayerView, other index: Int, at pointer: (x: Int, y: Int),
                     areas: [Rect], bounds: Rect, renderer r: OpaquePointer, text: TextRenderer) {
        // The pointer's place in the reference's picture, and the same place in the other's.
        let area = areas.first { $0.contains(x: pointer.x, y: pointer.y) } ?? bounds
        let referenceArea = areas.first ?? bounds, otherArea = areas.indices.contains(index) ? areas[index] : bounds
        let ox = pointer.x - area.x, oy = pointer.y - area.y
        let sides = [(reference, referenceArea, "A"), (other, otherArea, CompareView.letter(index))]
        let box = (2 * radius + 1) * zoom
        let lineHeight = text.lineHeight + 4
        let panelW = 2 * box + 30, panelH = box + 20 + 2 * lineHeight
        var x0 = pointer.x + 24, y0 = pointer.y + 24
        if x0 + panelW > bounds.x + bounds.width { x0 = pointer.x - 24 - panelW }
        if y0 + panelH > bounds.y + bounds.height { y0 = pointer.y - 24 - panelH }
        x0 = max(bounds.x, x0)
        y0 = max(bounds.y, y0)
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        fill(Rect(x: x0, y: y0, width: panelW, height: panelH), (0, 0, 0, 200), renderer: r)
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
        for (i, side) in sides.enumerated() {
            let bx = x0 + 10 + i * (box + 10), by = y0 + 10
            guard let picture = side.0.keptPicture, let mapping = side.0.pictureMapping(in: side.1) else { continue }
            let px = pictureX(side.1.x + ox, mapping: mapping, picture: picture.width, vertical: false)
            let py = pictureX(side.1.y + oy, mapping: mapping, picture: picture.height, vertical: true)
            for dy in -radius...radius {
                for dx in -radius...radius {
                    let rect = Rect(x: bx + (dx + radius) * zoom, y: by + (dy + radius) * zoom, width: zoom, height: zoom)
                    guard let c = pixel(picture, px + dx, py + dy) else {
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
            let line: String
            if let c = pixel(picture, px, py) {
                let info = side.0.player.currentItem?.info
                let hd = (info?.displayWidth ?? 0) >= 1280 || (info?.displayHeight ?? 0) >= 720
                let (y, cb, cr) = yCbCr(c, bt709: hd)
                line = "\(side.2) RGB \(c.r) \(c.g) \(c.b)  Y'CbCr \(y) \(cb) \(cr)"
            } else {
                line = "\(side.2) —"
            }
            text.drawLine(line, renderer: r, x: x0 + 10, y: by + box + 6 + i * lineHeight)
        }
    }

    /// A screen coordinate's pixel column (or row) in the picture.
    private static func pictureX(_ screen: Int, mapping: (source: Rect, destination: Rect, pictureWidth: Int, pictureHeight: Int),
                                 picture: Int, vertical: Bool) -> Int {
        let (s0, sLen, d0, dLen, full) = vertical
            ? (mapping.source.y, mapping.source.height, mapping.destination.y, mapping.destination.height, mapping.pictureHeight)
            : (mapping.source.x, mapping.source.width, mapping.destination.x, mapping.destination.width, mapping.pictureWidth)
        let inPicture = Double(s0) + (Double(screen - d0) + 0.5) * Double(sLen) / Double(max(dLen, 1))
        return Int((inPicture * Double(picture) / Double(max(full, 1))).rounded(.down))
    }

    static func pixel(_ p: PictureBuffer, _ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8)? {
        guard x >= 0, y >= 0, x < p.width, y < p.height else { return nil }
        let q = p.pixels + y * p.pitch + x * 4
        return (q[2], q[1], q[0])
    }

    /// Limited-range Y'CbCr code values of an RGB pixel.
    static func yCbCr(_ c: (r: UInt8, g: UInt8, b: UInt8), bt709: Bool) -> (Int, Int, Int) {
        let (kr, kb) = bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let r = Double(c.r) / 255, g = Double(c.g) / 255, b = Double(c.b) / 255
        let y = kr * r + (1 - kr - kb) * g + kb * b
        let cb = (b - y) / (2 * (1 - kb)), cr = (r - y) / (2 * (1 - kr))
        func code(_ v: Double) -> Int { min(255, max(0, Int(v.rounded()))) }
        return (code(16 + 219 * y), code(128 + 224 * cb), code(128 + 224 * cr))
    }
}
