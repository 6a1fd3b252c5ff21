// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Foundation
import Media
import Output
import Playback

/// A composition drawn as a timeline: one row per track with its name, its
/// segments as blocks, the track's gain over each block as a line (the ramps
/// show as slopes), and the play head. The geometry is plain values, so it
/// is tested without a window.
struct CompositionTimeline {
    struct Row: Equatable {
        var name: String
        var label: Rect
        var lane: Rect
        var blocks: [Rect]
        /// The gain line over each block: (x, y) points, y = lane bottom at 0.
        var gainLines: [[(x: Int, y: Int)]]

        static func == (a: Row, b: Row) -> Bool {
            a.name == b.name && a.label == b.label && a.lane == b.lane && a.blocks == b.blocks
                && a.gainLines.map { $0.map { [$0.x, $0.y] } } == b.gainLines.map { $0.map { [$0.x, $0.y] } }
        }
    }

    let rows: [Row]
    /// The span of the lanes: timeline 0 at `timeArea.x`, the end at its right edge.
    let timeArea: Rect
    let duration: Double

    init(_ composition: Composition, in area: Rect) {
        duration = max(composition.duration, 1e-6)
        let margin = 16, labelWidth = min(160, area.width / 4), footer = 40
        let count = max(composition.tracks.count, 1)
        let rowHeight = max(8, min(64, (area.height - 2 * margin - footer) / count))
        let top = area.y + max(margin, (area.height - footer - rowHeight * count) / 2)
        let laneX = area.x + margin + labelWidth
        timeArea = Rect(x: laneX, y: top, width: max(1, area.width - 2 * margin - labelWidth), height: rowHeight * count)
        let span = timeArea
        let total = duration, rate = AudioFormat.device.sampleRate
        func x(_ t: Double) -> Int { span.x + Int(saturating: (t / total * Double(span.width)).rounded()) }
        rows = composition.tracks.enumerated().map { i, track in
            let y = top + i * rowHeight
            let lane = Rect(x: span.x, y: y + 2, width: span.width, height: rowHeight - 4)
            var blocks: [Rect] = [], lines: [[(x: Int, y: Int)]] = []
            for segment in track.segments {
                let x0 = x(segment.at), x1 = max(x(segment.end), x0 + 1)
                blocks.append(Rect(x: x0, y: lane.y, width: x1 - x0, height: lane.height))
                // One point per pixel column: ramps are straight or curved as they sound.
                let peak = max(track.mix.volume, 1)
                lines.append((x0...x1).map { px in
                    let t = min(max(Double(px - span.x) / Double(span.width) * total, segment.at), segment.end)
                    let gain = track.mix.gain(at: Int64(saturating: (t * Double(rate)).rounded()), rate: rate) / peak
                    return (px, lane.y + lane.height - 1 - Int(saturating: Double(gain) * Double(lane.height - 3)))
                })
            }
            return Row(name: track.name, label: Rect(x: area.x + margin, y: y, width: labelWidth - 8, height: rowHeight),
                       lane: lane, blocks: blocks, gainLines: lines)
        }
    }

    /// The play head's column at timeline time `t` (seconds within the pass).
    func playHeadX(at t: Double) -> Int {
        timeArea.x + Int(saturating: (min(max(t, 0), duration) / duration * Double(timeArea.width)).rounded())
    }

    func draw(playHead t: Double, renderer: OpaquePointer, text: TextRenderer, area: Rect) {
        func fill(_ r: Rect, _ c: (UInt8, UInt8, UInt8)) { UI.fill(r, (c.0, c.1, c.2, 255), renderer: renderer) }
        fill(area, (16, 16, 20))
        for row in rows {
            fill(row.lane, (28, 28, 36))
            text.drawCentered(row.name, renderer: renderer, cx: row.label.x + row.label.width / 2,
                              cy: row.label.y + row.label.height / 2, maxWidth: row.label.width)
            for block in row.blocks { fill(block, (52, 84, 132)) }
            SDL_SetRenderDrawColor(renderer, 250, 210, 90, 255)
            for line in row.gainLines {
                var points = line.map { SDL_Point(x: Int32($0.x), y: Int32($0.y)) }
                SDL_RenderDrawLines(renderer, &points, Int32(points.count))
            }
        }
        let x = playHeadX(at: t)
        fill(Rect(x: x - 1, y: timeArea.y - 6, width: 2, height: timeArea.height + 12), (235, 80, 70))
        text.drawCentered("\(DisplayText.clock(t)) / \(DisplayText.clock(duration))", renderer: renderer,
                          cx: area.x + area.width / 2, cy: timeArea.y + timeArea.height + 24, maxWidth: area.width)
    }
}
