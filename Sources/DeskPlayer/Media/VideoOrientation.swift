// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// How a picture is turned for display: one of the eight quarter turns and
/// flips, as the display matrix phones and cameras write says (a phone held
/// upright records landscape pixels and a 90° matrix). Kept as the 2x2
/// matrix that maps a source pixel (x, y) to where it is shown, in screen
/// coordinates (y down): x' = xx·x + xy·y, y' = yx·x + yy·y; every entry is
/// 0 or ±1.
package struct VideoOrientation: Equatable, Sendable, CustomStringConvertible {
    package let xx: Int, xy: Int, yx: Int, yy: Int

    package static let upright = VideoOrientation(xx: 1, xy: 0, yx: 0, yy: 1)

    /// Turned clockwise by `degrees` (a multiple of 90; others round to one).
    package static func clockwise(_ degrees: Int) -> VideoOrientation {
        let quarters = ((Int(saturating: (Double(degrees) / 90).rounded()) % 4) + 4) % 4
        var o = upright
        // A quarter turn clockwise on screen (y down): (x, y) → (−y, x).
        for _ in 0..<quarters { o = o.then(VideoOrientation(xx: 0, xy: -1, yx: 1, yy: 0)) }
        return o
    }

    /// The orientation FFmpeg's display matrix (AV_PKT_DATA_DISPLAYMATRIX:
    /// nine 32-bit values, a b u / c d v / x y w, the 2x2 part in 16.16
    /// fixed point) describes, which maps (p, q) to (a·p + c·q, b·p + d·q).
    /// Nil when it is not a quarter turn or flip (a shear, a scale, 45°):
    /// such a matrix is not followed.
    package init?(displayMatrix m: UnsafePointer<Int32>) {
        func unit(_ v: Int32) -> Int? {
            let x = Double(v) / 65536
            for candidate in [-1, 0, 1] where abs(x - Double(candidate)) < 0.01 { return candidate }
            return nil
        }
        guard let a = unit(m[0]), let b = unit(m[1]), let c = unit(m[3]), let d = unit(m[4]) else { return nil }
        let o = VideoOrientation(xx: a, xy: c, yx: b, yy: d)
        // A turn or flip moves each axis onto exactly one axis.
        guard abs(o.xx) + abs(o.xy) == 1, abs(o.yx) + abs(o.yy) == 1, abs(o.xx) + abs(o.yx) == 1 else { return nil }
        self = o
    }

    private init(xx: Int, xy: Int, yx: Int, yy: Int) {
        self.xx = xx
        self.xy = xy
        self.yx = yx
        self.yy = yy
    }

    /// This orientation, then `next` applied to its result.
    package func then(_ next: VideoOrientation) -> VideoOrientation {
        VideoOrientation(xx: next.xx * xx + next.xy * yx, xy: next.xx * xy + next.xy * yy,
                         yx: next.yx * xx + next.yy * yx, yy: next.yx * xy + next.yy * yy)
    }

    /// Width and height trade places (a quarter turn or a transpose).
    package var swapsAxes: Bool { xx == 0 }

    package var isUpright: Bool { self == .upright }

    /// FFmpeg's filters that turn a picture this way (what ffplay's
    /// autorotate inserts): transpose for the quarter turns and the two
    /// diagonal flips, hflip and vflip for the rest.
    package var filters: [String] {
        switch (xx, xy, yx, yy) {
        case (1, 0, 0, 1): return []
        case (0, -1, 1, 0): return ["transpose=clock"]
        case (0, 1, -1, 0): return ["transpose=cclock"]
        case (-1, 0, 0, -1): return ["hflip", "vflip"]
        case (-1, 0, 0, 1): return ["hflip"]
        case (1, 0, 0, -1): return ["vflip"]
        case (0, 1, 1, 0): return ["transpose=cclock_flip"]  // the main diagonal: (x, y) → (y, x)
        default: return ["transpose=clock_flip"]              // the other diagonal: (x, y) → (−y, −x)
        }
    }

    package var description: String {
        switch (xx, xy, yx, yy) {
        case (1, 0, 0, 1): return "upright"
        case (0, -1, 1, 0): return "turned 90° clockwise"
        case (0, 1, -1, 0): return "turned 90° counter-clockwise"
        case (-1, 0, 0, -1): return "turned 180°"
        case (-1, 0, 0, 1): return "flipped left to right"
        case (1, 0, 0, -1): return "flipped upside down"
        case (0, 1, 1, 0): return "transposed"
        default: return "transposed across the other diagonal"
        }
    }
}
