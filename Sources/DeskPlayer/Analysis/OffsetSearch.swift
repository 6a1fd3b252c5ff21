// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Where the other file's content sits in the reference's: `seconds` is the
/// reference's time of the other's time 0 (positive: the other starts
/// later in the content, so it lines up at compare-shift −seconds), with
/// how sure the match is, 0–1.
package struct AlignmentMatch: Sendable, Equatable {
    package enum Method: String, Sendable {
        case audio
        case video
    }

    package var seconds: Double
    package var confidence: Double
    package var method: Method
}

/// The searches behind `compare-align`, on signals `AlignmentSignals` read.
package enum OffsetSearch {
    /// How far either way an offset is looked for.
    package static let maximumSeconds = 10.0
    /// Sound correlates at least this well where two files carry the same
    /// sound; below it the pictures decide (when asked for `auto`).
    package static let audioConfidenceNeeded = 0.5
    /// The best offset's pictures differ at most 3/4 as much as a typical
    /// offset's where two files show the same pictures.
    package static let videoConfidenceNeeded = 0.25

    // MARK: Sound

    /// The lag (in samples of `rate`) at which `other` best matches
    /// `reference`, by FFT cross-correlation normalised by the energy of the
    /// overlap (so it reads as a correlation coefficient): first on both
    /// sounds averaged down by 4 (a quarter of the FFT), then to the sample
    /// at the full rate around that peak, directly.
    package static func audio(reference: [Float], other: [Float], rate: Int, maximumSeconds: Double = maximumSeconds)
        -> AlignmentMatch? {
        let factor = 4
        let coarseA = decimate(reference, by: factor), coarseB = decimate(other, by: factor)
        let coarseLimit = Int(saturating: maximumSeconds * Double(rate) / Double(factor))
        // An overlap of at least a second (or half the shorter sound) counts.
        let shorter = min(coarseA.count, coarseB.count)
        let minimumOverlap = min(max(rate / factor, shorter / 4), shorter)
        guard shorter > 16, let coarse = correlate(coarseA, coarseB, limit: coarseLimit, minimumOverlap: minimumOverlap)
        else { return nil }
        var best = (lag: coarse.lag * factor, r: -2.0)
        let fullOverlap = minimumOverlap * factor
        for lag in (coarse.lag * factor - 2 * factor)...(coarse.lag * factor + 2 * factor) {
            if let r = directCorrelation(reference, other, lag: lag, minimumOverlap: fullOverlap), r > best.r { best = (lag, r) }
        }
        guard best.r > -2 else { return nil }
        return AlignmentMatch(seconds: Double(best.lag) / Double(rate), confidence: max(0, min(1, best.r)), method: .audio)
    }

    /// Means of `factor` samples at a time.
    static func decimate(_ samples: [Float], by factor: Int) -> [Float] {
        let count = samples.count / factor
        var out = [Float](repeating: 0, count: count)
        samples.withUnsafeBufferPointer { s in
            for i in 0..<count {
                var sum: Float = 0
                for k in 0..<factor { sum += s[i * factor + k] }
                out[i] = sum / Float(factor)
            }
        }
        return out
    }

    /// The lag L (a[i + L] against b[i]) of the highest normalised
    /// correlation within ±limit whose overlap is at least `minimumOverlap`.
    static func correlate(_ a: [Float], _ b: [Float], limit: Int, minimumOverlap: Int) -> (lag: Int, r: Double)? {
        let n = FFT.size(atLeast: a.count + b.count)
        // Both real sounds in one complex transform: a the real part, b the imaginary.
        var re = [Double](repeating: 0, count: n), im = [Double](repeating: 0, count: n)
        for i in a.indices { re[i] = Double(a[i]) }
        for i in b.indices { im[i] = Double(b[i]) }
        FFT.transform(&re, &im)
        // A = (X[k] + X*[n−k]) / 2, B = (X[k] − X*[n−k]) / 2i; the
        // correlation's spectrum is A·B*.
        var cr = [Double](repeating: 0, count: n), ci = [Double](repeating: 0, count: n)
        for k in 0..<n {
            let m = (n - k) & (n - 1)
            let (xr, xi, yr, yi) = (re[k], im[k], re[m], -im[m])
            let ar = (xr + yr) / 2, ai = (xi + yi) / 2
            let br = (xi - yi) / 2, bi = -(xr - yr) / 2
            cr[k] = ar * br + ai * bi
            ci[k] = ai * br - ar * bi
        }
        FFT.transform(&cr, &ci, inverse: true)
        let energyA = prefixEnergy(a), energyB = prefixEnergy(b)
        var best: (lag: Int, r: Double)?
        for lag in -limit...limit {
            let start = max(0, lag), end = min(a.count, b.count + lag)
            guard end - start >= minimumOverlap else { continue }
            let ea = energyA[end] - energyA[start], eb = energyB[end - lag] - energyB[start - lag]
            guard ea > 0, eb > 0 else { continue }
            let r = cr[(lag % n + n) % n] / (ea * eb).squareRoot()
            if r > (best?.r ?? -.infinity) { best = (lag, r) }
        }
        return best
    }

    /// Sums of squares: entry i is that of the first i samples.
    private static func prefixEnergy(_ s: [Float]) -> [Double] {
        var sums = [Double](repeating: 0, count: s.count + 1)
        for i in s.indices { sums[i + 1] = sums[i] + Double(s[i]) * Double(s[i]) }
        return sums
    }

    /// The normalised correlation of a[i + lag] against b[i] over their
    /// overlap (its first 8 s at most: enough, and bounded).
    static func directCorrelation(_ a: [Float], _ b: [Float], lag: Int, minimumOverlap: Int) -> Double? {
        let start = max(0, lag), end = min(a.count, b.count + lag, start + 8 * 48_000)
        guard end - start >= min(minimumOverlap, 8 * 48_000) else { return nil }
        var sab = 0.0, saa = 0.0, sbb = 0.0
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                for i in start..<end {
                    let x = Double(pa[i]), y = Double(pb[i - lag])
                    sab += x * y
                    saa += x * x
                    sbb += y * y
                }
            }
        }
        guard saa > 0, sbb > 0 else { return nil }
        return sab / (saa * sbb).squareRoot()
    }

    // MARK: Pictures

    /// The offset at which `other`'s pictures best match `reference`'s: the
    /// mean difference of each of the other's signatures against the
    /// reference's at the same content time (between its two frames
    /// there, linearly), lowest. First on a grid a frame apart over ±10 s
    /// with a sample of the other's frames, then over every offset that
    /// puts one of the other's frames exactly on one of the reference's
    /// within a frame and a half of that, with all of them; the answer is
    /// rounded to whole frames of the other. Confidence: how far the best stands below the typical
    /// (median) offset's difference.
    package static func video(reference: AlignmentSignals.Video, other: AlignmentSignals.Video,
                              maximumSeconds: Double = maximumSeconds) -> AlignmentMatch? {
        let a = Signatures(reference), b = Signatures(other)
        guard a.count >= 2, b.count >= 2 else { return nil }
        let frame = min(a.frameDuration, b.frameDuration)
        let sample = Array(Swift.stride(from: 0, to: b.count, by: max(1, b.count / 60)))
        var costs: [(offset: Double, cost: Double)] = []
        var offset = -maximumSeconds
        while offset <= maximumSeconds {
            if let cost = cost(a, b, offset: offset, frames: sample) { costs.append((offset, cost)) }
            offset += frame
        }
        guard let coarse = costs.min(by: { $0.cost < $1.cost }) else { return nil }
        let window = 1.5 * max(a.frameDuration, b.frameDuration)
        var candidates: [Double] = []
        for k in 0..<b.count {
            let target = b.times[k] + coarse.offset
            guard target >= a.times[0] - window, target <= a.times[a.count - 1] + window else { continue }
            for j in 0..<a.count where abs(a.times[j] - target) <= window {
                let d = a.times[j] - b.times[k]
                if !candidates.contains(where: { abs($0 - d) < 1e-7 }) { candidates.append(d) }
            }
            if candidates.count > 200 { break }
        }
        let all = Array(0..<b.count)
        var best = (offset: coarse.offset, cost: cost(a, b, offset: coarse.offset, frames: all) ?? coarse.cost)
        for d in candidates.sorted() where abs(d) <= maximumSeconds + window {
            if let c = cost(a, b, offset: d, frames: all), c < best.cost - 1e-9 { best = (d, c) }
        }
        let sorted = costs.map(\.cost).sorted()
        let typical = sorted[sorted.count / 2]
        let confidence = typical > 0 ? max(0, min(1, 1 - best.cost / typical)) : 0
        // Pictures tell the offset to a frame, not finer (a 16x9 signature
        // barely changes in a few milliseconds, and two frame rates'
        // instants seldom meet): whole frames of the other, so its frame
        // changes where its content does and compare-shift-frames is whole.
        let seconds = (best.offset / b.frameDuration).rounded() * b.frameDuration
        return AlignmentMatch(seconds: seconds, confidence: confidence, method: .video)
    }

    /// Signatures flat in one buffer, with their times.
    struct Signatures {
        let times: [Double]
        let values: [Float]
        let size: Int
        var count: Int { times.count }
        /// The typical time between frames (the rate said, else the median step).
        let frameDuration: Double

        init(_ video: AlignmentSignals.Video) {
            times = video.times
            size = AlignmentSignals.signatureWidth * AlignmentSignals.signatureHeight
            values = video.signatures.flatMap { $0.count == AlignmentSignals.signatureWidth * AlignmentSignals.signatureHeight ? $0 : [] }
            let steps = zip(video.times.dropFirst(), video.times).map { $0 - $1 }.filter { $0 > 0 }.sorted()
            let duration: Double
            if let rate = video.frameRate, rate > 0, rate.isFinite {
                duration = 1 / rate
            } else {
                duration = steps.isEmpty ? 1.0 / 25 : steps[steps.count / 2]
            }
            // A rate a file claims bounds the search's steps: 240 fps to 1 fps.
            frameDuration = min(max(duration, 1 / AlignmentSignals.maximumFrameRate), 1)
        }
    }

    /// The mean absolute difference of `frames` of b against a at content
    /// time b.time + offset; nil when too few of them fall within a.
    static func cost(_ a: Signatures, _ b: Signatures, offset: Double, frames: [Int]) -> Double? {
        guard a.values.count == a.count * a.size, b.values.count == b.count * b.size else { return nil }
        var total = 0.0, counted = 0
        var j = 0
        a.values.withUnsafeBufferPointer { av in
            b.values.withUnsafeBufferPointer { bv in
                for k in frames {
                    let t = b.times[k] + offset
                    guard t >= a.times[0], t <= a.times[a.count - 1] else { continue }
                    while j + 1 < a.count - 1 && a.times[j + 1] <= t { j += 1 }
                    while j > 0 && a.times[j] > t { j -= 1 }
                    let span = a.times[j + 1] - a.times[j]
                    let w = Float(span > 0 ? min(max((t - a.times[j]) / span, 0), 1) : 0)
                    let p = j * a.size, q = p + a.size, r = k * b.size
                    var sum: Float = 0
                    for i in 0..<a.size {
                        let expected = av[p + i] + w * (av[q + i] - av[p + i])
                        sum += abs(bv[r + i] - expected)
                    }
                    total += Double(sum) / Double(a.size)
                    counted += 1
                }
            }
        }
        // At least a quarter of the frames asked about (and 5) overlap.
        guard counted >= max(5, frames.count / 4) else { return nil }
        return total / Double(counted)
    }
}
