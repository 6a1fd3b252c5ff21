// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Analysis
import Playback
import Output
import CSDL2
import Foundation

/// The compared pair's metrics on screen: the current frame's values as an
/// OSD line at the top left, and a strip across the bottom of the window
/// with the whole timeline, filled in as frames are measured (per column
/// the lowest value of SSIM, or PSNR when only it is measured), the worst
/// frames marked in red and the playhead in white; under it two rows, A's
/// and B's coded frame sizes (per column the largest packet, as a bar, on
/// one scale for both; orange where a keyframe is). A click on the strip
/// seeks there. It reads what `LiveMetrics` measured on its own thread;
/// drawing never waits for it. Main thread.
package final class MetricsGraph {
    static let height = 44
    /// Each row of coded sizes under the strip (A's, then B's).
    static let rowHeight = 10

    let metrics: LiveMetrics
    /// The reference's time on screen, from the app each refresh.
    package var playhead = 0.0
    /// What the app last polled (the values at the playhead, the version).
    package var latest: LiveMetrics.Poll?
    /// The graph's data as last taken from the worker.
    private var shown = LiveMetrics.Snapshot()
    /// The version last drawn (the window redraws when it changes).
    private(set) var drawnVersion = -1
    private var drawnText = ""

    package init(metrics: LiveMetrics) { self.metrics = metrics }

    /// What the panel (the values line over the strip) leaves of `bounds`
    /// above it: where the compared pictures and their labels go, so neither
    /// covers the other.
    static func areaAbove(in bounds: Rect, lineHeight: Int) -> Rect {
        let panelTop = strip(in: bounds).y - lineHeight - 14
        return Rect(x: bounds.x, y: bounds.y, width: bounds.width, height: max(panelTop - bounds.y, 1))
    }

    /// The strip's place in a window of `bounds`.
    static func strip(in bounds: Rect) -> Rect {
        Rect(x: bounds.x + 8, y: bounds.y + bounds.height - height - 2 * rowHeight - 10, width: max(bounds.width - 16, 20),
             height: height)
    }

    /// The rows of coded sizes under the strip: A's, then B's.
    static func rows(in bounds: Rect) -> (a: Rect, b: Rect) {
        let s = strip(in: bounds)
        return (Rect(x: s.x, y: s.y + s.height + 1, width: s.width, height: rowHeight),
                Rect(x: s.x, y: s.y + s.height + 2 + rowHeight, width: s.width, height: rowHeight))
    }

    /// Whether something new is to be drawn: more frames measured, other values on the OSD.
    var changed: Bool { (latest?.version ?? drawnVersion) != drawnVersion || currentText != drawnText }

    /// The fraction of the timeline at x, when x, y is on the strip.
    func seekFraction(x: Int, y: Int, bounds: Rect) -> Double? {
        let strip = MetricsGraph.strip(in: bounds)
        guard strip.contains(x: x, y: y) else { return nil }
        return ControlBar.fraction(x: x, along: strip)
    }

    /// "PSNR 38.21 dB (Y 39.55 U 36.18 V 35.85)  SSIM 0.98013" for the frame on screen.
    var currentText: String {
        if let failure = latest?.failure {
            // The reason's first clause ("A is HDR (PQ) and B SDR: not measured").
            return tr("Metrics: ") + (failure.components(separatedBy: ", since").first ?? failure)
        }
        guard let m = latest?.current else { return tr("Metrics: measuring…") }
        if m.isEmpty { return tr("Metrics: no frame of the other side at this time") }
        var parts: [String] = []
        if let avg = m.psnrAverage {
            let dB = { (v: Double?) in v.map { $0.isInfinite ? "inf" : String(format: "%.2f", $0) } ?? "-" }
            parts.append("PSNR \(dB(avg)) dB (Y \(dB(m.psnrY)) U \(dB(m.psnrU)) V \(dB(m.psnrV)))")
        }
        if let all = m.ssimAll { parts.append(String(format: "SSIM %.5f", all)) }
        return parts.joined(separator: "  ")
    }

    func draw(in bounds: Rect, renderer r: OpaquePointer, text: TextRenderer) {
        // Taken without waiting: when the worker holds it, last time's stays.
        if shown.version != latest?.version, let fresh = metrics.trySnapshot() { shown = fresh }
        let snapshot = shown
        drawnVersion = snapshot.version
        drawnText = currentText
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        defer { SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE) }
        // The values of the frame on screen.
        let strip = MetricsGraph.strip(in: bounds)
        let label = Rect(x: strip.x, y: strip.y - text.lineHeight - 10, width: text.width(of: drawnText) + 12,
                         height: text.lineHeight + 6)
        fill(label, (0, 0, 0, 170), renderer: r)
        text.drawLine(drawnText, renderer: r, x: label.x + 6, y: label.y + 3)

        fill(strip, (0, 0, 0, 150), renderer: r)
        let rows = MetricsGraph.rows(in: bounds)
        fill(Rect(x: rows.a.x, y: rows.a.y, width: rows.a.width, height: 2 * MetricsGraph.rowHeight + 1), (0, 0, 0, 150), renderer: r)
        guard let duration = snapshot.duration, duration > 0, !snapshot.columns.isEmpty else { return }
        drawCoded(snapshot.coded, rows: rows, renderer: r)
        // The scale: from the lowest value measured (a little under) to the highest.
        let values = snapshot.columns.compactMap { $0 }.filter { $0.isFinite }
        let low = values.min() ?? 0, high = values.max() ?? 1
        let span = max(high - low, 1e-6)
        let plot = Rect(x: strip.x + 2, y: strip.y + 4, width: strip.width - 4, height: strip.height - 8)
        for x in 0..<plot.width {
            // The lowest value among the columns under this pixel.
            let from = x * snapshot.columns.count / plot.width
            let to = max((x + 1) * snapshot.columns.count / plot.width, from + 1)
            guard let value = snapshot.columns[from..<min(to, snapshot.columns.count)].compactMap({ $0 }).min() else { continue }
            let level = value.isFinite ? (value - low) / span : 1
            let h = max(2, Int(saturating: Double(plot.height) * (0.15 + 0.85 * level)))
            // Green where close to the best, towards red where worst.
            let bad = UInt8(max(0, min(255, 255 * (1 - level))))
            fill(Rect(x: plot.x + x, y: plot.y + plot.height - h, width: 1, height: h), (bad, 255 - bad / 2, 80, 230), renderer: r)
        }
        for frame in snapshot.worst {
            let x = plot.x + Int(saturating: Double(plot.width) * min(max(frame.time / duration, 0), 1))
            fill(Rect(x: x - 1, y: strip.y, width: 3, height: strip.height), (255, 40, 40, 255), renderer: r)
        }
        let x = plot.x + Int(saturating: Double(plot.width) * min(max(playhead / duration, 0), 1))
        fill(Rect(x: x, y: strip.y - 2, width: 2, height: strip.height + 4), (255, 255, 255, 255), renderer: r)
        if let worst = snapshot.worst.first, let value = LiveMetrics.graphed(worst) {
            // (the rows of coded sizes are drawn above, under the strip)
            let name = worst.metrics.ssimAll != nil ? String(format: "worst SSIM %.4f", value) : String(format: "worst PSNR %.2f dB", value)
            let caption = name + String(format: " at %@", DisplayText.clock(worst.time))
            // On the values' line, at its right end.
            text.drawLine(caption, renderer: r, x: strip.x + strip.width - text.width(of: caption) - 6, y: strip.y - text.lineHeight - 7,
                          color: SDL_Color(r: 255, g: 120, b: 120, a: 255))
        }
    }

    /// Each side's largest coded frame per pixel column as a bar from the
    /// row's bottom (one scale for both sides: the largest packet), orange
    /// where a keyframe is among the frames, blue-grey otherwise.
    private func drawCoded(_ coded: [LiveMetrics.CodedColumn?], rows: (a: Rect, b: Rect), renderer r: OpaquePointer) {
        guard !coded.isEmpty else { return }
        let largest = max(coded.compactMap { $0.map { max($0.sizeA, $0.sizeB) } }.max() ?? 0, 1)
        for x in 0..<rows.a.width {
            let from = x * coded.count / rows.a.width
            let to = min(max((x + 1) * coded.count / rows.a.width, from + 1), coded.count)
            let columns = coded[from..<to].compactMap { $0 }
            guard !columns.isEmpty else { continue }
            for (row, size, key) in [(rows.a, columns.map(\.sizeA).max() ?? 0, columns.contains { $0.keyA }),
                                     (rows.b, columns.map(\.sizeB).max() ?? 0, columns.contains { $0.keyB })] where size > 0 {
                let h = max(1, Int(saturating: Double(row.height) * Double(size) / Double(largest)))
                let colour: (UInt8, UInt8, UInt8, UInt8) = key ? (255, 160, 40, 230) : (140, 170, 220, 220)
                fill(Rect(x: row.x + x, y: row.y + row.height - h, width: 1, height: h), colour, renderer: r)
            }
        }
    }
}
