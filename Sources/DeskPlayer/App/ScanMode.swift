// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Output
import Analysis
import Playback
import Media
import Foundation

/// `--scan A B --compare-metrics-out FILE.csv`: no window. Both files are
/// decoded in parallel as fast as the cores allow, PSNR and SSIM computed
/// by FFmpeg's filters for every frame of A (the reference), the CSV
/// written, a progress bar drawn on a terminal's stderr and a summary
/// printed at the end. Returns the exit code: 0 when every frame of the
/// reference was measured, 1 when the scan could not start (the line names
/// the file) or stopped on a failure.
enum ScanMode {
    static func run(_ options: DeskPlayerCommand) -> Int32 {
        guard options.files.count == 2, let path = options.compareMetricsOut else {
            PlayerApp.printError("--scan needs two files and --compare-metrics-out FILE.csv")
            return 1
        }
        let (referencePath, otherPath) = (options.files[0], options.files[1])
        let csv: MetricsCSV
        let scan: MetricsScan
        do {
            scan = try MetricsScan(reference: referencePath, other: otherPath, metrics: Set(VideoMetric.allCases))
            csv = try MetricsCSV(path: path)
        } catch {
            PlayerApp.printError("cannot scan: \(error)")
            return 1
        }
        let started = HostTime.now()
        var progress = ProgressBar(total: scan.reference.expectedFrames)
        var summary = MetricsSummary()
        let outcome = scan.run(notice: { line in
            progress.clear()
            PlayerApp.printError(line)
        }, measured: { frames in
            for frame in frames {
                csv.append(frame)
                summary.add(frame)
            }
            progress.show(done: summary.frames, at: HostTime.now())
        })
        progress.clear()
        var code: Int32 = 0
        if case .failed(let reason) = outcome {
            PlayerApp.printError(reason)
            code = 1
        }
        do { try csv.finish() } catch {
            PlayerApp.printError("\(error)")
            code = 1
        }
        let seconds = Double(HostTime.now() &- started) / 1e9
        print(report(summary, reference: referencePath, other: otherPath, seconds: seconds, csv: path))
        if summary.frames == 0 {
            PlayerApp.printError("no frame of \(referencePath) could be measured")
            code = 1
        }
        return code
    }

    /// The summary: frames and speed, each metric's mean and minimum with
    /// where it fell, and the worst frame's time.
    static func report(_ summary: MetricsSummary, reference: String, other: String, seconds: Double, csv: String) -> String {
        var lines = [String(format: "Measured %d frames of %@ against %@ in %.2f s (%.1f frames/s)", summary.frames,
                            reference, other, seconds, Double(summary.frames) / max(seconds, 1e-9))]
        func line(_ name: String, _ figure: MetricsSummary.Figure, unit: String, digits: Int) {
            guard let mean = figure.mean, let minimum = figure.minimum, let worst = figure.worst else { return }
            let value = { (v: Double) in v.isInfinite ? "inf" : String(format: "%.\(digits)f", v) + unit }
            var text = "\(name): mean \(value(mean)), min \(value(minimum)) at frame \(worst.index) ("
                + String(format: "%.3f s", worst.time) + ")"
            if figure.identical > 0 { text += ", \(figure.identical) frames identical (inf, left out of the mean)" }
            lines.append(text)
        }
        line("PSNR (average of Y, U, V)", summary.psnr, unit: " dB", digits: 2)
        line("SSIM (all)", summary.ssim, unit: "", digits: 6)
        if let worst = summary.worst {
            lines.append(String(format: "Worst frame: %d at %.3f s", worst.index, worst.time))
        }
        lines.append("CSV: \(csv)")
        return lines.joined(separator: "\n")
    }
}

/// A one-line progress bar on stderr, redrawn in place at most ten times a
/// second, and only when stderr is a terminal.
struct ProgressBar {
    let total: Int?
    /// What the bar says is going on.
    var word = "Scanning"
    private let terminal = isatty(STDERR_FILENO) != 0
    private var lastDrawn: UInt64 = 0
    private var shown = false
    private var started: UInt64 = HostTime.now()

    init(total: Int?) { self.total = total }

    mutating func show(done: Int, at now: UInt64) {
        guard terminal, now &- lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        shown = true
        let rate = Double(done) / max(Double(now &- started) / 1e9, 1e-9)
        let text: String
        if let total, total > 0 {
            let fraction = min(Double(done) / Double(total), 1)
            let width = 30, filled = Int(saturating: fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            text = String(format: "\r%@ [%@] %3d %% %d/%d frames, %.0f frames/s ", word, bar, Int(saturating: fraction * 100), done, total, rate)
        } else {
            text = String(format: "\r%@: %d frames, %.0f frames/s ", word, done, rate)
        }
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Ends the bar's line (before another line is said, and at the end).
    mutating func clear() {
        guard shown else { return }
        shown = false
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
