// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// The one place where numbers a container gives (frame rates, time bases,
/// aspect ratios, start times, durations) are added, multiplied or divided.
/// A file can hold any `Int32` in a rational and any `Int64` in a
/// timestamp: a phone that writes a 30000090/1001003 frame rate is enough
/// to overflow `num * den` (issue 50), and Swift traps on overflow. Each
/// function says what it gives on overflow or nonsense; nothing here traps.
/// Outside this file, `.num` and `.den` are only read, copied or handed to
/// FFmpeg (`ContainerMathLintTests` holds the sources to that).
package enum ContainerMath {
    /// `r` as a real number; nil when either part is not positive (an unset
    /// or nonsense rate, aspect or time base).
    package static func value(_ r: AVRational) -> Double? {
        guard r.num > 0, r.den > 0 else { return nil }
        return Double(r.num) / Double(r.den)
    }

    /// `a / b` as FFmpeg reduces it (`av_div_q`: exact when it fits, else
    /// the nearest rational whose parts fit in `Int32`); nil when either is
    /// not positive.
    package static func quotient(_ a: AVRational, _ b: AVRational) -> AVRational? {
        guard a.num > 0, a.den > 0, b.num > 0, b.den > 0 else { return nil }
        let q = av_div_q(a, b)
        return q.num > 0 && q.den > 0 ? q : nil
    }

    /// `a + b`; nil when the sum does not fit (the caller treats it as unknown).
    package static func sum(_ a: Int64, _ b: Int64) -> Int64? {
        let (s, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : s
    }

    /// `a · b`, clamped to `Int64`'s range (a timestamp past it is the farthest one).
    package static func clampedProduct(_ a: Int64, _ b: Int64) -> Int64 {
        let (p, overflow) = a.multipliedReportingOverflow(by: b)
        guard overflow else { return p }
        return (a < 0) == (b < 0) ? .max : .min
    }

    /// `ticks` counted in `from` as the nearest whole number of `to`
    /// (`av_rescale_q_rnd`, 128-bit inside); FFmpeg's unknown stays unknown.
    package static func rescale(_ ticks: Int64, from: AVRational, to: AVRational) -> Int64 {
        guard ticks != DP_AV_NOPTS_VALUE, from.num > 0, from.den > 0, to.num > 0, to.den > 0 else { return ticks }
        return av_rescale_q_rnd(ticks, from, to, AVRounding(rawValue: AV_ROUND_NEAR_INF.rawValue | AV_ROUND_PASS_MINMAX.rawValue))
    }

    /// How many ticks of `timeBase` one frame at `frameRate` lasts, rounded,
    /// at least one; nil when either is unknown.
    package static func ticksPerFrame(frameRate: AVRational, timeBase: AVRational) -> Int64? {
        guard frameRate.num > 0, frameRate.den > 0, timeBase.num > 0, timeBase.den > 0 else { return nil }
        return max(1, rescale(1, from: av_inv_q(frameRate), to: timeBase))
    }

    /// `seconds` as the nearest whole number of ticks of `timeBase`, clamped
    /// to `Int64` (NaN is zero); nil when the time base is unknown.
    package static func ticks(seconds: Double, in timeBase: AVRational) -> Int64? {
        guard let tick = value(timeBase) else { return nil }
        return Int64(saturating: (seconds / tick).rounded())
    }

    /// `ticks` of `timeBase` in seconds; nil when unknown (no timestamp, no time base).
    package static func seconds(_ ticks: Int64, in timeBase: AVRational) -> Double? {
        guard ticks != DP_AV_NOPTS_VALUE, let tick = value(timeBase) else { return nil }
        return Double(ticks) * tick
    }

    /// `ticks` of `timeBase` as an exact time; nil for no timestamp, a time
    /// base that is no time base, or a value no time can hold.
    package static func exactTime(_ ticks: Int64, in timeBase: AVRational) -> MediaTime? {
        guard ticks != DP_AV_NOPTS_VALUE, timeBase.num > 0, timeBase.den > 0,
              let scaled = Int64(exactly: Int128(ticks) * Int128(timeBase.num)) else { return nil }
        return MediaTime(value: scaled, timescale: Int64(timeBase.den))
    }

    /// Whole frames a second, rounded down (a keyframe interval's unit); nil when unknown.
    package static func wholeFramesPerSecond(_ rate: AVRational) -> Int? {
        value(rate).map { Int(saturating: $0) }
    }
}
