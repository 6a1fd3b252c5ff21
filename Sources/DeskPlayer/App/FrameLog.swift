// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Playback

/// `--frame-log`: each frame the first tile presents, and when, written as CSV at exit.
final class FrameLog {
    private let path: String
    private var entries: [(MediaTime, UInt64)] = []

    init?(path: String?, player: Player?) {
        guard let path, let player else { return nil }
        self.path = path
        entries.reserveCapacity(1 << 16)
        player.onFramePresented = { [unowned self] time, host in entries.append((time, host)) }
    }

    func write() {
        let origin = entries.first?.1 ?? 0
        let lines = entries.map { String(format: "%.6f,%.3f", $0.0.seconds, Double($0.1 &- origin) / 1e6) }
        let text = "pts_s,presented_ms\n" + lines.joined(separator: "\n") + "\n"
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            PlayerApp.printError("cannot write \(path): \(error)")
        }
    }
}
