// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Output
import Playback
import Media
/// `compare-metrics`: which metrics are measured while two files play
/// compared, as `--compare-metrics` takes them ("psnr,ssim", "psnr",
/// "ssim"), or "no". Unavailable outside `--compare`. And
/// `compare-metrics-measured`: how many frames have been measured, of how many.
extension PropertyTable {
    static let compareMetricsChoices = ["psnr,ssim", "psnr", "ssim", "no"]

    static let compareMetricsProperties: [Property] = [
        Property("compare-metrics", .choice(compareMetricsChoices), scope: .app, get: { t throws(CommandError) in
            guard let compare = t.controller.compareMetrics else { throw .propertyUnavailable }
            return .string(PropertyTable.metricsWord(compare.metrics))
        }, set: { t, v throws(CommandError) in
            guard let compare = t.controller.compareMetrics else { throw .propertyUnavailable }
            switch v {
            case .bool(let on): compare.measure(on ? Set(VideoMetric.allCases) : [])
            case .string("no"), .string("false"): compare.measure([])
            case .string("yes"), .string("true"): compare.measure(Set(VideoMetric.allCases))
            default:
                guard let metrics = VideoMetric.parseList(try PropertyValue.word(v)) else { throw .invalidParameter }
                compare.measure(metrics)
            }
        }, osd: { t in
            t.controller.compareMetrics.map { "Compare metrics: " + PropertyTable.metricsWord($0.metrics) }
        }),
        // How far the measuring has come: frames measured, of how many.
        Property("compare-metrics-measured", scope: .app, get: { t throws(CommandError) in
            guard let compare = t.controller.compareMetrics, let progress = compare.progress else { throw .propertyUnavailable }
            return .object([("frames", .number(Double(progress.measured))),
                            ("of", progress.expected.map { .number(Double($0)) } ?? .null)])
        }),
    ]

    static func metricsWord(_ metrics: Set<VideoMetric>) -> String {
        metrics.isEmpty ? "no" : VideoMetric.allCases.filter(metrics.contains).map(\.rawValue).joined(separator: ",")
    }
}
