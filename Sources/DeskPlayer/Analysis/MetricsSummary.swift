// SPDX-License-Identifier: GPL-3.0-or-later
import Media
/// Running figures over the frames measured: for each metric its mean
/// and its lowest value with the frame where it fell. An infinite PSNR
/// (a frame identical to the reference) has no place in a mean of dB: such
/// frames are counted apart.
package struct MetricsSummary: Sendable {
    package struct Figure: Sendable {
        package var sum = 0.0
        package var count = 0
        /// Frames whose value was infinite (identical).
        package var identical = 0
        package var minimum: Double?
        package var worst: MeasuredFrame?

        package var mean: Double? { count > 0 ? sum / Double(count) : (identical > 0 ? .infinity : nil) }

        package mutating func add(_ value: Double?, _ frame: MeasuredFrame) {
            guard let value, !value.isNaN else { return }
            if value.isInfinite {
                identical += 1
                if minimum == nil { (minimum, worst) = (value, frame) }
                return
            }
            sum += value
            count += 1
            if minimum.map({ value < $0 }) ?? true { (minimum, worst) = (value, frame) }
        }
    }

    package init() {}

    package private(set) var frames = 0
    package private(set) var psnr = Figure()
    package private(set) var ssim = Figure()

    package mutating func add(_ frame: MeasuredFrame) {
        frames += 1
        psnr.add(frame.metrics.psnrAverage, frame)
        ssim.add(frame.metrics.ssimAll, frame)
    }

    /// The frame that differs most: lowest SSIM when it was measured, else lowest PSNR.
    package var worst: MeasuredFrame? { ssim.worst ?? psnr.worst }
}
