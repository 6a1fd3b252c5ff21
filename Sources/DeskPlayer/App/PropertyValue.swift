// SPDX-License-Identifier: GPL-3.0-or-later
import Control

/// Reading property values the way mpv's clients write them.
enum PropertyValue {
    static func flag(_ value: JSONValue) throws(CommandError) -> Bool {
        switch value {
        case .bool(let b): return b
        case .string("yes"), .string("true"): return true
        case .string("no"), .string("false"): return false
        default: throw .invalidParameter
        }
    }

    static func number(_ value: JSONValue) throws(CommandError) -> Double {
        if let n = value.number ?? value.string.flatMap(Double.init), n.isFinite { return n }
        throw .invalidParameter
    }

    static func word(_ value: JSONValue) throws(CommandError) -> String {
        guard case .string(let s) = value else { throw .invalidParameter }
        return s
    }

    /// A time as mpv writes one: seconds ("90", "-5", "1.5") or a clock
    /// ("1:30", "01:02:03.5").
    static func seconds(_ text: String) -> Double? {
        let negative = text.hasPrefix("-")
        let body = negative || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (i, part) in parts.enumerated() {
            guard let n = Double(part), n.isFinite, n >= 0, i == parts.count - 1 || n == n.rounded() else { return nil }
            total = total * 60 + n
        }
        return negative ? -total : total
    }

    /// A time property's value: a number, or text as `seconds` reads it.
    static func seconds(_ value: JSONValue) throws(CommandError) -> Double {
        if case .string(let s) = value, let n = seconds(s) { return n }
        return try number(value)
    }

    /// A whole number, as `playlist-pos` and `playlist-pos-1` take it.
    static func integer(_ value: JSONValue) throws(CommandError) -> Int {
        let n = try number(value)
        guard n == n.rounded(), abs(n) < 1e9 else { throw .invalidParameter }
        return Int(n)
    }

    /// A number within `range`: mpv refuses one outside rather than clamping a `set`.
    static func number(_ value: JSONValue, in range: ClosedRange<Double>) throws(CommandError) -> Double {
        let n = try number(value)
        guard range.contains(n) else { throw .propertyError }
        return n
    }
}
