// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Output
import Playback
import Media
import Foundation

/// `--compare-metrics-out FILE.csv`: one row per reference frame under the
/// header `frame,time,psnr_y,psnr_u,psnr_v,psnr_avg,ssim_y,ssim_u,ssim_v,ssim_all,size_a,size_b,type_a,type_b`
/// (sizes: each side's coded packet in bytes; types: I, P or B, the
/// other side's of the frame paired with the reference's).
/// Values keep the precision FFmpeg's filters give (six decimals); an
/// infinite PSNR (identical planes) is `inf`, a value not measured is empty.
/// Owns the open file (a C stream, closed in deinit). One thread.
final class MetricsCSV {
    static let header = "frame,time,psnr_y,psnr_u,psnr_v,psnr_avg,ssim_y,ssim_u,ssim_v,ssim_all,size_a,size_b,type_a,type_b"

    let path: String
    private let file: UnsafeMutablePointer<FILE>
    /// Where the rows go until `finish` puts the whole file in `path`'s place:
    /// an old CSV stays whole until the new one is.
    private let temporary: URL
    private var failed = false
    private var committed = false

    /// Creates the temporary file beside `path` and writes the header; the
    /// error is the system's reason ("Permission denied", "No such file or directory").
    init(path: String) throws(MediaError) {
        self.path = path
        let (fd, temporary) = try AtomicFile.createTemporary(beside: URL(fileURLWithPath: path))
        guard let opened = fdopen(fd, "w") else {
            close(fd)
            unlink(temporary.path)
            throw MediaError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        self.temporary = temporary
        file = opened
        write(MetricsCSV.header)
    }

    deinit {
        fclose(file)
        if !committed { unlink(temporary.path) }
    }

    func append(_ frame: MeasuredFrame) { write(MetricsCSV.row(frame)) }

    /// Writes what is buffered and puts the file in place; the error when
    /// anything could not be written (a full disk): the old file stays then.
    func finish() throws(MediaError) {
        if fflush(file) != 0 || failed || ferror(file) != 0 || fsync(fileno(file)) != 0 {
            throw MediaError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        try AtomicFile.commit(temporary, to: URL(fileURLWithPath: path))
        committed = true
    }

    static func row(_ frame: MeasuredFrame) -> String {
        let m = frame.metrics
        let values = [m.psnrY, m.psnrU, m.psnrV, m.psnrAverage, m.ssimY, m.ssimU, m.ssimV, m.ssimAll].map(MetricsCSV.format)
        let coded = [frame.coded?.size.description ?? "", frame.otherCoded?.size.description ?? "",
                     frame.coded?.type ?? "", frame.otherCoded?.type ?? ""]
        return ([String(frame.index), String(format: "%.6f", frame.time)] + values + coded).joined(separator: ",")
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
