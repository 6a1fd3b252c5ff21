// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Output
import Playback
import Media
import Foundation

/// `--compare-metrics-out FILE.csv`: one row per reference frame under the
/// header `frame,time,psnr_y,psnr_u,psnr_v,psnr_avg,ssim_y,ssim_u,ssim_v,ssim_all`.
/// Values keep the precision FFmpeg's filters give (six decimals); an
/// infinite PSNR (identical planes) is `inf`, a value not measured is empty.
/// Owns the open file (a C stream, closed in deinit). One thread.
final class MetricsCSV {
    static let header = "frame,time,psnr_y,psnr_u,psnr_v,psnr_avg,ssim_y,ssim_u,ssim_v,ssim_all"

    let path: String
    private let file: UnsafeMutablePointer<FILE>
    private var failed = false

    /// Creates (or empties) the file and writes the header; the error is
    /// the system's reason ("Permission denied", "No such file or directory").
    init(path: String) throws(MediaError) {
        self.path = path
        guard let opened = fopen(path, "w") else {
            throw MediaError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        file = opened
        write(MetricsCSV.header)
    }

    deinit { fclose(file) }

    func append(_ frame: MeasuredFrame) { write(MetricsCSV.row(frame)) }

    /// Writes what is buffered; the error when anything could not be written (a full disk).
    func finish() throws(MediaError) {
        if fflush(file) != 0 || failed || ferror(file) != 0 {
            throw MediaError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    static func row(_ frame: MeasuredFrame) -> String {
        let m = frame.metrics
        let values = [m.psnrY, m.psnrU, m.psnrV, m.psnrAverage, m.ssimY, m.ssimU, m.ssimV, m.ssimAll].map(MetricsCSV.format)
        return ([String(frame.index), String(format: "%.6f", frame.time)] + values).joined(separator: ",")
    }

    static func format(_ value: Double?) -> String {
        guard let value else { return "" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        return String(format: "%.6f", value)
    }

    private func write(_ line: String) {
        if fputs(line + "\n", file) < 0 { failed = true }
    }
}
