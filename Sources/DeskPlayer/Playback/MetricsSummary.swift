/// Running figures over the frames measured: for each metric its mean
/// and its lowest value with the frame where it fell. An infinite PSNR
/// (a frame identical to the reference) has no place in a mean of dB: such
/// frames are counted apart.
struct MetricsSummary: Sendable {
    struct Figure: Sendable {
        var sum = 0.0
        var count = 0
        /// Frames whose value was infinite (identical).
        var identical = 0
        var minimum: Double?
        var worst: MeasuredFrame?

        var mean: Double? { count > 0 ? sum / Double(count) : (identical > 0 ? .infinity : nil) }

        mutating func add(_ value: Double?, _ frame: MeasuredFrame) {
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

    private(set) var frames = 0
    private(set) var psnr = Figure()
    private(set) var ssim = Figure()

    mutating func add(_ frame: MeasuredFrame) {
        frames += 1
        psnr.add(frame.metrics.psnrAverage, frame)
        ssim.add(frame.metrics.ssimAll, frame)
    }

    /// The frame that differs most: lowest SSIM when it was measured, else lowest PSNR.
    var worst: MeasuredFrame? { ssim.worst ?? psnr.worst }
}
