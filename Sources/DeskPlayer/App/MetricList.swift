// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// `--compare-metrics psnr,ssim`: either or both.
struct MetricList: ExpressibleByArgument, Equatable {
    var metrics: Set<VideoMetric>

    init?(argument: String) {
        guard let parsed = VideoMetric.parseList(argument) else { return nil }
        metrics = parsed
    }
}
