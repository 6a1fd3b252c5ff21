// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Playback

/// `--frame-log`: each frame the first tile presents, when, and how many of
/// its item's frames were left out just before it (dropped late or skipped
/// by schedule: a step across a seam is told from a frame lost there),
/// written as CSV at exit.
final class FrameLog {
    private let path: String
    private var entries: [(time: MediaTime, host: UInt64, leftOut: Int)] = []

    init?(path: String?, player: Player?) {
        guard let path, let player else { return nil }
        self.path = path
        entries.reserveCapacity(1 << 16)
        player.onFramePresented = { [unowned self] time, host, leftOut in entries.append((time, host, leftOut)) }
    }

    func write() {
        let origin = entries.first?.host ?? 0
        let lines = entries.map { String(format: "%.6f,%.3f,%d", $0.time.seconds, Double($0.host &- origin) / 1e6, $0.leftOut) }
        let text = "pts_s,presented_ms,left_out_before\n" + lines.joined(separator: "\n") + "\n"
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            PlayerApp.printError("cannot write \(path): \(error)")
        }
    }
}
