// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Output
import Analysis
import Playback
import Media
import Foundation

/// `--compare-metrics psnr,ssim` (and the `compare-metrics` property) and
/// `--compare-metrics-out FILE.csv` while two files play compared: the
/// second measured against the first (the reference) by `LiveMetrics` at
/// idle priority, the values and the timeline strip on screen
/// (`MetricsGraph`), each notice said once on stderr and the OSD, the CSV
/// written at exit with every frame measured by then. Main thread.
final class CompareMetrics {
    let reference: String
    let other: String
    let csvPath: String?
    private weak var window: MainWindow?
    private var live: LiveMetrics?
    /// What the CSV gets when the metrics shown were turned off before the end.
    private var lastFrames: [MeasuredFrame] = []
    /// What the measuring said at the last refresh.
    private var latest: LiveMetrics.Poll?

    init(reference: String, other: String, csvPath: String?, window: MainWindow) {
        self.reference = reference
        self.other = other
        self.csvPath = csvPath
        self.window = window
    }

    deinit { live?.stop() }

    /// Every frame measured so far (or by the time the metrics were turned off).
    var measured: [MeasuredFrame] { live?.measuredFrames ?? lastFrames }

    /// The metrics measured now (empty: off).
    var metrics: Set<VideoMetric> { live?.metrics ?? [] }

    /// Frames measured so far and how many the reference has (when known); nil while off.
    var progress: (measured: Int, expected: Int?)? {
        guard live != nil else { return nil }
        return (latest?.measuredFrames ?? 0, latest?.expectedFrames)
    }

    /// Starts (again) with `metrics`, or stops with none. A CSV asked for needs both.
    func measure(_ metrics: Set<VideoMetric>) {
        let wanted = metrics.isEmpty ? metrics : metrics.union(csvPath == nil ? [] : Set(VideoMetric.allCases))
        guard wanted != self.metrics else { return }
        if let live {
            live.stop()
            lastFrames = live.measuredFrames
        }
        live = nil
        latest = nil
        window?.metricsGraph = nil
        guard !wanted.isEmpty else { return }
        let started = LiveMetrics(reference: reference, other: other, metrics: wanted)
        started.start()
        live = started
        window?.metricsGraph = MetricsGraph(metrics: started)
    }

    /// Each refresh: the reference's time on screen to the scan and the strip; notices out.
    func update(playhead seconds: Double) {
        guard let live else { return }
        window?.metricsGraph?.playhead = seconds
        guard let poll = live.poll(playhead: seconds) else { return }
        latest = poll
        window?.metricsGraph?.latest = poll
        for line in poll.notices {
            PlayerApp.printError("compare metrics: " + line)
            window?.showMessage(line, seconds: 4)
        }
    }

    /// At exit: the CSV, with every frame measured (said when not all were).
    func finish() {
        live?.stop()
        guard let csvPath else { return }
        let frames = live?.measuredFrames ?? lastFrames
        do {
            let csv = try MetricsCSV(path: csvPath)
            for frame in frames { csv.append(frame) }
            try csv.finish()
            let expected = live?.measuredTotal
            if let expected, frames.count < expected {
                PlayerApp.printError("compare metrics: \(frames.count) of \(expected) frames measured by the end; \(csvPath) has those")
            }
        } catch {
            PlayerApp.printError("compare metrics: \(error)")
        }
    }
}
