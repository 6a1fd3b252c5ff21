// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Output
import Playback
import Media
import Foundation

/// The comparison's properties (`--compare`): the view, the difference's
/// variant and gain, the flip side, the rendition on the other side, the
/// wipe's divider, the labels. App-wide; unavailable without a comparison.
enum CompareProperties {
    static func state(_ t: PropertyTarget) throws(CommandError) -> CompareState {
        guard let state = t.controller.compare else { throw .propertyUnavailable }
        return state
    }

    static let all: [Property] = [
        Property("compare", .choice(CompareState.Mode.allCases.map(\.rawValue)), scope: .app, get: { t throws(CommandError) in
            .string(try state(t).mode.rawValue)
        }, set: { t, v throws(CommandError) in
            guard let mode = CompareState.Mode(rawValue: try PropertyValue.word(v)) else { throw .invalidParameter }
            try state(t).mode = mode
        }, osd: { t in (try? state(t)).map { String(format: tr("Compare: %@"), $0.mode.rawValue) } }),
        Property("compare-diff", .choice(CompareState.DiffVariant.allCases.map(\.rawValue)), scope: .app,
                 get: { t throws(CommandError) in .string(try state(t).diffVariant.rawValue) },
                 set: { t, v throws(CommandError) in
                     guard let variant = CompareState.DiffVariant(rawValue: try PropertyValue.word(v)) else { throw .invalidParameter }
                     try state(t).diffVariant = variant
                 }, osd: { t in (try? state(t)).map { String(format: tr("Difference: %@"), $0.diffVariant.rawValue) } }),
        Property("compare-diff-gain", .number(CompareState.gainRange), scope: .app,
                 get: { t throws(CommandError) in .number(try state(t).diffGain) },
                 set: { t, v throws(CommandError) in try state(t).diffGain = try PropertyValue.number(v, in: CompareState.gainRange) },
                 osd: { t in (try? state(t)).map { String(format: tr("Difference gain: %@"), number($0.diffGain)) } }),
        // 0 the reference, 1 the other side; add and cycle go round.
        Property("compare-side", .number(0...1), scope: .app, get: { t throws(CommandError) in .number(Double(try state(t).side)) },
                 set: { t, v throws(CommandError) in try state(t).side = try whole(v, in: 0...1) },
                 add: { t, delta throws(CommandError) in .number(Double(wrap(try state(t).side, adding: delta, in: 0...1))) },
                 osd: { t in (try? state(t)).map { $0.side == 0 ? tr("Showing A (the reference)") : tr("Showing B") } }),
        // Which of the files after the reference is the other side (1, 2, …); add and cycle go round.
        Property("compare-rendition", .number(1...1e6), scope: .app,
                 get: { t throws(CommandError) in .number(Double(try state(t).other)) },
                 set: { t, v throws(CommandError) in
                     let s = try state(t)
                     s.other = try whole(v, in: 1...(s.count - 1))
                     hear(s, t.controller)
                 },
                 add: { t, delta throws(CommandError) in
                     let s = try state(t)
                     return .number(Double(wrap(s.other, adding: delta, in: 1...(s.count - 1))))
                 },
                 osd: { t in
                     guard let s = try? state(t), let tile = t.controller.tiles.tiles.dropFirst(s.other).first else { return nil }
                     return "B: \(DisplayText.shortName(tile.player.currentItem?.name ?? "?")) (\(s.other) of \(s.count - 1))"
                 }),
        // The side heard: 0 A, 1 B; the switch crossfades over 5 ms (PlayerAudio's gain ramp).
        Property("compare-audio", .number(0...1), scope: .app, get: { t throws(CommandError) in .number(Double(try state(t).audio)) },
                 set: { t, v throws(CommandError) in
                     let s = try state(t)
                     s.audio = try whole(v, in: 0...1)
                     hear(s, t.controller)
                 },
                 add: { t, delta throws(CommandError) in .number(Double(wrap(try state(t).audio, adding: delta, in: 0...1))) },
                 osd: { t in
                     guard let s = try? state(t) else { return nil }
                     let index = s.audio == 0 ? 0 : s.other
                     let name = t.controller.tiles.tiles.dropFirst(index).first?.player.currentItem?.name ?? "?"
                     return String(format: tr("Hearing %@: %@"), CompareView.letter(index), DisplayText.shortName(name))
                 }),
        Property("compare-wipe", .number(0...1), scope: .app, get: { t throws(CommandError) in .number(try state(t).wipePosition) },
                 set: { t, v throws(CommandError) in try state(t).wipePosition = try PropertyValue.number(v, in: 0...1) }),
        Property("compare-wipe-orientation", .choice(CompareState.WipeOrientation.allCases.map(\.rawValue)), scope: .app,
                 get: { t throws(CommandError) in .string(try state(t).wipeOrientation.rawValue) },
                 set: { t, v throws(CommandError) in
                     guard let o = CompareState.WipeOrientation(rawValue: try PropertyValue.word(v)) else { throw .invalidParameter }
                     try state(t).wipeOrientation = o
                 }, osd: { t in (try? state(t)).map { String(format: tr("Wipe: %@"), $0.wipeOrientation.rawValue) } }),
        // B's frame at t + shift beside A's at t; kept through seeks, loops and pauses.
        Property("compare-shift", .number(CompareState.shiftRange), scope: .app,
                 get: { t throws(CommandError) in .number(try state(t).shift) },
                 set: { t, v throws(CommandError) in
                     try setShift(t, seconds: try PropertyValue.number(v, in: CompareState.shiftRange), of: try state(t).other)
                 },
                 osd: { t in (try? state(t)).map { shiftText($0, t.controller) } }),
        // The same in frames of B (its frame rate): the keys step it a frame at a time.
        Property("compare-shift-frames", .number(-1e7...1e7), scope: .app, get: { t throws(CommandError) in
            let s = try state(t)
            return .number((s.shift * frameRate(t.controller) * 1000).rounded() / 1000)
        }, set: { t, v throws(CommandError) in
            try setShift(t, seconds: try PropertyValue.number(v) / frameRate(t.controller), of: try state(t).other)
        }, add: { t, delta throws(CommandError) in
            // From the exact shift, so a fraction of a frame (compare-align's) is kept.
            .number(try state(t).shift * frameRate(t.controller) + delta)
        }, osd: { t in (try? state(t)).map { shiftText($0, t.controller) } }),
        // What compare-align found for each rendition: state (running, done, no-match, failed), method, offset, shift, confidence, seconds.
        Property("compare-align-result", scope: .app, get: { t throws(CommandError) in
            _ = try state(t)
            return t.controller.compareAlignment.resultValue
        }),
        Property("compare-loupe", .flag, scope: .app, get: { t throws(CommandError) in .bool(try state(t).showsLoupe) },
                 set: { t, v throws(CommandError) in try state(t).showsLoupe = try PropertyValue.flag(v) }),
        // What the loupe shows now, A's then B's: read-only, empty while it is off or the pointer is away.
        Property("compare-loupe-values", scope: .app, get: { t throws(CommandError) in
            .array(try state(t).loupeReadings.map(loupeValue))
        }),
        Property("compare-labels", .flag, scope: .app, get: { t throws(CommandError) in .bool(try state(t).showsLabels) },
                 set: { t, v throws(CommandError) in try state(t).showsLabels = try PropertyValue.flag(v) },
                 osd: { t in (try? state(t)).map { $0.showsLabels ? tr("Labels: on") : tr("Labels: off") } }),
    ]

    /// Sets the shift of the rendition at `index` (nil: every rendition's):
    /// it seeks to the group's time plus it (the reference does not move).
    /// A shift past either end is clamped to it, and that is said on the
    /// OSD and stderr.
    static func setShift(_ t: PropertyTarget, seconds: Double, of index: Int? = nil) throws(CommandError) {
        let s = try state(t)
        let group = t.controller.tiles.syncGroup
        guard let reference = group.first else { throw .propertyUnavailable }
        let referenceDuration = reference.player.currentItem?.duration?.seconds
        let now = reference.player.currentTime
        for (i, tile) in group.enumerated().dropFirst() where index == nil || index == i {
            var shift = seconds
            let letter = CompareView.letter(i)
            if let d = tile.player.currentItem?.duration?.seconds, shift > d {
                say("compare-shift \(number(shift)) s is beyond the end of \(letter) (\(number(d)) s): clamped to \(number(d)) s", t)
                shift = d
            }
            if let r = referenceDuration, shift < -r {
                say("compare-shift \(number(shift)) s is before the start of A (\(number(r)) s long): clamped to -\(number(r)) s", t)
                shift = -r
            }
            if s.shifts.indices.contains(i) { s.shifts[i] = shift }
            tile.player.syncOffset = shift
            tile.player.seek(to: now)
        }
    }

    private static func say(_ line: String, _ t: PropertyTarget) {
        PlayerApp.printError(line)
        t.controller.osd(line, seconds: 4)
    }

    /// The other side's frame rate (the reference's when it has none; 30 before either is known).
    static func frameRate(_ controller: CommandController) -> Double {
        let tiles = controller.tiles.syncGroup
        let other = controller.compare.flatMap { tiles.dropFirst($0.other).first }
        for tile in [other, tiles.first].compactMap({ $0 }) {
            if let fps = tile.player.currentItem?.info?.frameRate, fps > 0, fps.isFinite { return fps }
        }
        return 30
    }

    static func shiftText(_ s: CompareState, _ controller: CommandController) -> String {
        let frames = s.shift * frameRate(controller)
        return String(format: "B shifted %+.3f s (%+.1f frames)", s.shift, frames)
    }

    /// The heard side is the focused tile (the one TileSet makes audible),
    /// so a change of rendition takes the sound along when B is heard.
    static func hear(_ s: CompareState, _ controller: CommandController) {
        let index = s.audio == 0 ? 0 : s.other
        if controller.tiles.tiles.indices.contains(index) { controller.tiles.focus(index) }
    }

    /// One side's loupe values: {"side": "A", "x", "y" (the pixel in the
    /// decoded picture), "rgb": [r, g, b] as shown, "ycbcr": [y, cb, cr]
    /// code values, "bits", "range": "limited" | "full"} (no ycbcr, bits
    /// and range without a decoded Y′CbCr picture).
    static func loupeValue(_ reading: CompareState.LoupeReading) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("side", .string(CompareView.letter(reading.side))),
            ("x", .number(Double(reading.x))), ("y", .number(Double(reading.y))),
            ("rgb", .array(reading.rgb.map { .number(Double($0)) })),
        ]
        if let code = reading.code {
            pairs.append(("ycbcr", .array(([code.y] + [code.cb, code.cr].compactMap { $0 }).map { .number(Double($0)) })))
            pairs.append(("bits", .number(Double(code.bits))))
            pairs.append(("range", .string(code.fullRange ? "full" : "limited")))
        }
        return .object(pairs)
    }

    /// A whole number within `range` (a side, a rendition).
    /// (`Int(exactly:)`: a client's 1e300 is refused, not converted with a trap.)
    static func whole(_ value: JSONValue, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        guard let n = Int(exactly: try PropertyValue.number(value)), range.contains(n) else { throw .propertyError }
        return n
    }

    /// `n` moved `delta` whole steps round `range` (add and cycle go round).
    /// The steps are taken modulo the range's size while still a Double, so
    /// an `add` of 1e300 is a number of turns plus a remainder, never an
    /// `Int` sum that overflows.
    static func wrap(_ n: Int, adding delta: Double, in range: ClosedRange<Int>) -> Int {
        let count = range.count
        let steps = Int(delta.rounded(.towardZero).truncatingRemainder(dividingBy: Double(count)))
        let from = min(max(n, range.lowerBound), range.upperBound) - range.lowerBound
        return range.lowerBound + ((from + steps) % count + count) % count
    }

    static func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.2f", v) }
}
