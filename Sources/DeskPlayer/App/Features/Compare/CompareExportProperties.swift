// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import UI

/// The export's properties (`compare-export-progress`, `compare-marks`)
/// and the comparison's labels as text (`compare-label-text`), and
/// `compare-mark`, which marks frames for `compare-export-frames`.
extension PropertyTable {
    /// `compare-export-progress`: the latest export's state (`running`,
    /// `done`, `failed`), frames written, of how many, the file.
    static let compareExportProperties: [Property] = [
        Property("compare-export-progress", scope: .app, get: { t throws(CommandError) in
            guard t.controller.compare != nil, let report = t.controller.compareExport.report else { throw .propertyUnavailable }
            return report
        }),
        // The labels on screen, A's first: what each side shows (time, frame, type and size, HDR tone mapped).
        Property("compare-label-text", scope: .app, get: { t throws(CommandError) in
            guard let state = t.controller.compare else { throw .propertyUnavailable }
            return .array(state.labelTexts.map { .string($0) })
        }),
        // The reference times marked for compare-export-frames.
        Property("compare-marks", scope: .app, get: { t throws(CommandError) in
            guard t.controller.compare != nil else { throw .propertyUnavailable }
            return .array(t.controller.compareMarks.map { .number($0) })
        }),
    ]
}

extension CommandController {
    /// `compare-mark`: the reference's frame on screen joins the marks (or
    /// leaves them, when marked): within half a frame is the same frame.
    func markCompareFrame() throws(CommandError) {
        guard compare != nil, let player = tiles.syncGroup.first?.player else { throw .propertyUnavailable }
        let t = player.shownItemTime?.seconds ?? player.currentTime.seconds
        let half = 0.5 / (player.currentItem?.info?.frameRate ?? 25)
        if let i = compareMarks.firstIndex(where: { abs($0 - t) < half }) {
            compareMarks.remove(at: i)
            osd(String(format: tr("Unmarked %.3f s (marked: %d)"), locale: .display, t, compareMarks.count), seconds: 2, topic: "compare-mark")
        } else {
            compareMarks.append(t)
            compareMarks.sort()
            osd(String(format: tr("Marked %.3f s (marked: %d)"), locale: .display, t, compareMarks.count), seconds: 2, topic: "compare-mark")
        }
    }
}
