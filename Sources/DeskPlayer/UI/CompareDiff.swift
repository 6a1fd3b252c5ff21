// SPDX-License-Identifier: GPL-3.0-or-later
import Output
import Playback
import Media
/// The difference view's pixels, made on the CPU from the two sides'
/// already-scaled BGRA pictures (the size they are shown at, so a 1080p
/// pair in a 720p window costs a 720p pass): exact, and no renderer
/// feature needed (SDL's software renderer has no subtracting blend).
enum CompareDiff {
    /// Writes the difference of `a` and `b` (their common top-left part)
    /// into `out`, BGRA with opaque alpha.
    static func compute(_ a: PictureBuffer, _ b: PictureBuffer, variant: CompareState.DiffVariant, gain: Double,
                        into out: PictureBuffer) {
        let w = min(a.width, b.width), h = min(a.height, b.height)
        out.resize(width: w, height: h)
        let scale = gainTable(gain)
        for y in 0..<h {
            let pa = UnsafeRawPointer(a.pixels + y * a.pitch), pb = UnsafeRawPointer(b.pixels + y * b.pitch)
            let po = UnsafeMutableRawPointer(out.pixels + y * out.pitch)
            switch variant {
            case .rgb: rgbRow(pa, pb, po, width: w, scale: gain == 1 ? nil : scale)
            case .luma: lumaRow(pa, pb, po, width: w, scale: scale)
            case .heat: heatRow(pa, pb, po, width: w, scale: scale)
            }
        }
    }

    /// min(255, gain·d) for every byte difference d.
    static func gainTable(_ gain: Double) -> [UInt8] {
        (0..<256).map { UInt8(min(255, max(0, (Double($0) * gain).rounded()))) }
    }

    /// |A − B| per byte, 16 bytes at a time; alpha forced opaque.
    private static func rgbRow(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ out: UnsafeMutableRawPointer, width: Int,
                               scale: [UInt8]?) {
        let bytes = width * 4
        let alpha = SIMD16<UInt8>(0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255)
        var i = 0
        while i + 16 <= bytes {
            let x = a.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            let y = b.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            out.storeBytes(of: (pointwiseMax(x, y) &- pointwiseMin(x, y)) | alpha, toByteOffset: i, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < bytes {
            let x = a.load(fromByteOffset: i, as: UInt8.self), y = b.load(fromByteOffset: i, as: UInt8.self)
            out.storeBytes(of: i % 4 == 3 ? 255 : max(x, y) - min(x, y), toByteOffset: i, as: UInt8.self)
            i += 1
        }
        guard let scale else { return }
        scale.withUnsafeBufferPointer { lut in
            let o = out.assumingMemoryBound(to: UInt8.self)
            for p in 0..<width {
                o[p * 4] = lut[Int(o[p * 4])]
                o[p * 4 + 1] = lut[Int(o[p * 4 + 1])]
                o[p * 4 + 2] = lut[Int(o[p * 4 + 2])]
            }
        }
    }

    /// BT.601 luma of a BGRA pixel, 8-bit fixed point.
    @inline(__always) private static func luma(_ p: UnsafePointer<UInt8>, _ i: Int) -> Int {
        (29 * Int(p[i]) + 150 * Int(p[i + 1]) + 77 * Int(p[i + 2]) + 128) >> 8
    }

    private static func lumaRow(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ out: UnsafeMutableRawPointer, width: Int,
                                scale: [UInt8]) {
        let pa = a.assumingMemoryBound(to: UInt8.self), pb = b.assumingMemoryBound(to: UInt8.self)
        let o = out.assumingMemoryBound(to: UInt32.self)
        scale.withUnsafeBufferPointer { lut in
            for p in 0..<width {
                let v = UInt32(lut[abs(luma(pa, p * 4) - luma(pb, p * 4))])
                o[p] = 0xFF00_0000 | v << 16 | v << 8 | v
            }
        }
    }

    private static func heatRow(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ out: UnsafeMutableRawPointer, width: Int,
                                scale: [UInt8]) {
        let pa = a.assumingMemoryBound(to: UInt8.self), pb = b.assumingMemoryBound(to: UInt8.self)
        let o = out.assumingMemoryBound(to: UInt32.self)
        scale.withUnsafeBufferPointer { lut in
            heatColours.withUnsafeBufferPointer { colours in
                for p in 0..<width {
                    let i = p * 4
                    let d = max(abs(Int(pa[i]) - Int(pb[i])), abs(Int(pa[i + 1]) - Int(pb[i + 1])),
                                abs(Int(pa[i + 2]) - Int(pb[i + 2])))
                    o[p] = colours[Int(lut[d])]
                }
            }
        }
    }

    /// Black (no difference) through blue, red and yellow to white, as
    /// ARGB8888 values: small differences stay dark, large ones glare.
    static let heatColours: [UInt32] = (0..<256).map { v in
        let stops: [(Double, Double, Double)] = [(0, 0, 0), (0, 0, 255), (255, 0, 0), (255, 255, 0), (255, 255, 255)]
        let x = Double(v) / 255 * Double(stops.count - 1)
        let i = min(Int(x), stops.count - 2), f = x - Double(i)
        func mix(_ p: Double, _ q: Double) -> UInt32 { UInt32((p + (q - p) * f).rounded()) }
        let (s, e) = (stops[i], stops[i + 1])
        return 0xFF00_0000 | mix(s.0, e.0) << 16 | mix(s.1, e.1) << 8 | mix(s.2, e.2)
    }
}
