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

    /// A number within `range`: mpv refuses one outside rather than clamping a `set`.
    static func number(_ value: JSONValue, in range: ClosedRange<Double>) throws(CommandError) -> Double {
        let n = try number(value)
        guard range.contains(n) else { throw .propertyError }
        return n
    }
}
