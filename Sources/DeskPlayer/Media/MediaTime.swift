// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// A point or length on a media timeline as a rational number of seconds
/// (value / timescale), like CMTime. Arithmetic is exact; no float ever
/// accumulates.
package struct MediaTime: Sendable, Comparable, Hashable, CustomStringConvertible {
    package var value: Int64
    package var timescale: Int64

    package static let zero = MediaTime(value: 0, timescale: 1)

    package init(value: Int64, timescale: Int64) {
        precondition(timescale > 0, "MediaTime needs a positive timescale")
        self.value = value
        self.timescale = timescale
    }

    /// A timestamp in an FFmpeg time base.
    package init(_ timestamp: Int64, _ timeBase: AVRational) {
        // Clamped, not wrapped: a timestamp past Int64 in seconds' ticks is the farthest time.
        self.init(value: ContainerMath.clampedProduct(timestamp, Int64(max(timeBase.num, 1))),
                  timescale: Int64(max(timeBase.den, 1)))
    }

    /// Saturates: a time past what Int64 ticks can hold (some 292,000 years in
    /// microseconds) is the farthest one, NaN is zero, so no outside number traps.
    package init(seconds: Double, timescale: Int64 = 1_000_000) {
        self.init(value: Int64(saturating: (seconds * Double(timescale)).rounded()), timescale: timescale)
    }

    package init(microseconds: Int64) { self.init(value: microseconds, timescale: 1_000_000) }

    package var seconds: Double { Double(value) / Double(timescale) }

    /// The same time in another timescale, rounded to the nearest unit.
    package func converted(to scale: Int64) -> MediaTime {
        if scale == timescale { return self }
        let product = Int128(value) * Int128(scale)
        let divisor = Int128(timescale)
        // Round half away from zero.
        let rounded = product >= 0 ? (product + divisor / 2) / divisor : (product - divisor / 2) / divisor
        return MediaTime(value: Int64(clamping: rounded), timescale: scale)
    }

    /// This length times `factor` (a filter that makes a frame of each
    /// field halves durations): exact while it fits, else in nanoseconds,
    /// clamped; a factor that is not positive leaves it as it is.
    package func scaled(by factor: AVRational) -> MediaTime {
        guard factor.num > 0, factor.den > 0 else { return self }
        // At most 2^94 each: the product and the nanoseconds below fit in 128 bits.
        var v = Int128(value) * Int128(factor.num), s = Int128(timescale) * Int128(factor.den)
        var (x, y) = (v.magnitude, s.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        if x > 1 { (v, s) = (v / Int128(x), s / Int128(x)) }
        if let exactValue = Int64(exactly: v), let exactScale = Int64(exactly: s) {
            return MediaTime(value: exactValue, timescale: exactScale)
        }
        return MediaTime(value: Int64(clamping: v * 1_000_000_000 / s), timescale: 1_000_000_000)
    }

    /// Whole units of `1/scale` seconds, rounded down (e.g. a sample index).
    package func floor(in scale: Int64) -> Int64 {
        let product = Int128(value) * Int128(scale)
        let divisor = Int128(timescale)
        var q = product / divisor
        if product % divisor != 0 && product < 0 { q -= 1 }
        return Int64(clamping: q)
    }

    package var microseconds: Int64 { converted(to: 1_000_000).value }

    /// The nearest whole number of ticks of an FFmpeg time base.
    package func ticks(in timeBase: AVRational) -> Int64 {
        let numerator = Int128(value) * Int128(max(timeBase.den, 1))
        let divisor = Int128(timescale) * Int128(max(timeBase.num, 1))
        let rounded = numerator >= 0 ? (numerator + divisor / 2) / divisor : (numerator - divisor / 2) / divisor
        return Int64(clamping: rounded)
    }

    private static func common(_ a: MediaTime, _ b: MediaTime) -> (Int128, Int128, Int64) {
        if a.timescale == b.timescale { return (Int128(a.value), Int128(b.value), a.timescale) }
        let g = gcd(a.timescale, b.timescale)
        let lcm = Int128(a.timescale / g) * Int128(b.timescale)
        return (Int128(a.value) * (lcm / Int128(a.timescale)), Int128(b.value) * (lcm / Int128(b.timescale)),
                lcm <= Int128(Int64.max) ? Int64(lcm) : 0)
    }

    package static func + (a: MediaTime, b: MediaTime) -> MediaTime { combine(a, b, +) }
    package static func - (a: MediaTime, b: MediaTime) -> MediaTime { combine(a, b, -) }

    private static func combine(_ a: MediaTime, _ b: MediaTime, _ op: (Int128, Int128) -> Int128) -> MediaTime {
        let (x, y, scale) = common(a, b)
        if scale > 0, let v = Int64(exactly: op(x, y)) { return MediaTime(value: v, timescale: scale) }
        // Timescales too far apart to share exactly: fall back to nanoseconds.
        let ns: Int64 = 1_000_000_000
        return MediaTime(value: op(Int128(a.converted(to: ns).value), Int128(b.converted(to: ns).value))
                            .clampedToInt64(), timescale: ns)
    }

    package static func < (a: MediaTime, b: MediaTime) -> Bool {
        Int128(a.value) * Int128(b.timescale) < Int128(b.value) * Int128(a.timescale)
    }

    package static func == (a: MediaTime, b: MediaTime) -> Bool {
        Int128(a.value) * Int128(b.timescale) == Int128(b.value) * Int128(a.timescale)
    }

    package func hash(into hasher: inout Hasher) {
        // On magnitudes: abs(Int64.min) traps. The gcd divides the positive timescale, so it fits Int64.
        var (x, y) = (value.magnitude, UInt64(timescale))
        while y != 0 { (x, y) = (y, x % y) }
        let g = Int64(clamping: max(x, 1))
        hasher.combine(value / max(g, 1))
        hasher.combine(timescale / max(g, 1))
    }

    package static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return max(x, 1)
    }

    package var description: String { String(format: "%.6fs", seconds) }
}

private extension Int128 {
    func clampedToInt64() -> Int64 { Int64(clamping: self) }
}
