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
        }, osd: { t in (try? state(t)).map { "Compare: \($0.mode.rawValue)" } }),
        Property("compare-diff", .choice(CompareState.DiffVariant.allCases.map(\.rawValue)), scope: .app,
                 get: { t throws(CommandError) in .string(try state(t).diffVariant.rawValue) },
                 set: { t, v throws(CommandError) in
                     guard let variant = CompareState.DiffVariant(rawValue: try PropertyValue.word(v)) else { throw .invalidParameter }
                     try state(t).diffVariant = variant
                 }, osd: { t in (try? state(t)).map { "Difference: \($0.diffVariant.rawValue)" } }),
        Property("compare-diff-gain", .number(CompareState.gainRange), scope: .app,
                 get: { t throws(CommandError) in .number(try state(t).diffGain) },
                 set: { t, v throws(CommandError) in try state(t).diffGain = try PropertyValue.number(v, in: CompareState.gainRange) },
                 osd: { t in (try? state(t)).map { "Difference gain: \(number($0.diffGain))" } }),
        // 0 the reference, 1 the other side; add and cycle go round.
        Property("compare-side", .number(0...1), scope: .app, get: { t throws(CommandError) in .number(Double(try state(t).side)) },
                 set: { t, v throws(CommandError) in try state(t).side = try whole(v, in: 0...1) },
                 add: { t, delta throws(CommandError) in .number(Double(wrap(try state(t).side + Int(delta), 0...1))) },
                 osd: { t in (try? state(t)).map { "Showing " + ($0.side == 0 ? "A (the reference)" : "B") } }),
        // Which of the files after the reference is the other side (1, 2, …); add and cycle go round.
        Property("compare-rendition", .number(1...1e6), scope: .app,
                 get: { t throws(CommandError) in .number(Double(try state(t).other)) },
                 set: { t, v throws(CommandError) in
                     let s = try state(t)
                     s.other = try whole(v, in: 1...(s.count - 1))
                 },
                 add: { t, delta throws(CommandError) in
                     let s = try state(t)
                     return .number(Double(wrap(s.other + Int(delta), 1...(s.count - 1))))
                 },
                 osd: { t in
                     guard let s = try? state(t), let tile = t.controller.tiles.tiles.dropFirst(s.other).first else { return nil }
                     return "B: \(DisplayText.shortName(tile.player.currentItem?.name ?? "?")) (\(s.other) of \(s.count - 1))"
                 }),
        Property("compare-wipe", .number(0...1), scope: .app, get: { t throws(CommandError) in .number(try state(t).wipePosition) },
                 set: { t, v throws(CommandError) in try state(t).wipePosition = try PropertyValue.number(v, in: 0...1) }),
        Property("compare-wipe-orientation", .choice(CompareState.WipeOrientation.allCases.map(\.rawValue)), scope: .app,
                 get: { t throws(CommandError) in .string(try state(t).wipeOrientation.rawValue) },
                 set: { t, v throws(CommandError) in
                     guard let o = CompareState.WipeOrientation(rawValue: try PropertyValue.word(v)) else { throw .invalidParameter }
                     try state(t).wipeOrientation = o
                 }, osd: { t in (try? state(t)).map { "Wipe: \($0.wipeOrientation.rawValue)" } }),
        Property("compare-labels", .flag, scope: .app, get: { t throws(CommandError) in .bool(try state(t).showsLabels) },
                 set: { t, v throws(CommandError) in try state(t).showsLabels = try PropertyValue.flag(v) },
                 osd: { t in (try? state(t)).map { $0.showsLabels ? "Labels: on" : "Labels: off" } }),
    ]

    /// A whole number within `range` (a side, a rendition).
    static func whole(_ value: JSONValue, in range: ClosedRange<Int>) throws(CommandError) -> Int {
        let n = try PropertyValue.number(value)
        guard n == n.rounded(), range.contains(Int(n)) else { throw .propertyError }
        return Int(n)
    }

    static func wrap(_ n: Int, _ range: ClosedRange<Int>) -> Int {
        let count = range.count
        return range.lowerBound + ((n - range.lowerBound) % count + count) % count
    }

    static func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.2f", v) }
}
