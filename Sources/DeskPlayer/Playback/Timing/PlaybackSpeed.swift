// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// How fast a player plays (mpv's `speed`): media seconds per real second,
/// from a quarter to four times, and whether its audio keeps its pitch
/// (time-stretched) or is resampled (mpv's `audio-pitch-correction=no`).
package struct PlaybackSpeed: Sendable, Equatable {
    /// What the stretcher and the clock can do well (mpv allows more; the
    /// issue asks for this range, and the socket refuses values outside it).
    package static let range: ClosedRange<Double> = 0.25...4

    package var value: Double = 1
    package var keepsPitch = true

    package init(value: Double = 1, keepsPitch: Bool = true) { (self.value, self.keepsPitch) = (value, keepsPitch) }

    static let normal = PlaybackSpeed()

    var isNormal: Bool { value == 1 }
}

/// The exact media length one output sample stands for, as a fraction of
/// the output's own sample period: `num/den` (1/1 at normal speed). Stretched
/// or resampled audio carries it in the ring's markers, so media time is
/// still counted exactly from whole samples, never by adding up floats.
struct StretchRatio: Sendable, Equatable {
    let num: Int64
    let den: Int64

    static let one = StretchRatio(1, 1)

    init(_ num: Int64, _ den: Int64) {
        let g = MediaTime.gcd(abs(num), abs(den))
        self.num = num / g
        self.den = max(den / g, 1)
    }

    /// The media time `frames` output samples at `sampleRate` stand for.
    func duration(of frames: Int64, sampleRate: Int64) -> MediaTime {
        MediaTime(value: frames * num, timescale: sampleRate * den)
    }

    /// How many output samples cover `time` of media (rounded down).
    func frames(covering time: MediaTime, sampleRate: Int64) -> Int64 {
        time.floor(in: sampleRate * den) / max(num, 1)
    }

    var value: Double { Double(num) / Double(den) }
}
