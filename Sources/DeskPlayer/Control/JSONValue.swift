// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A JSON value as mpv's IPC protocol carries it. Sendable, so requests can
/// cross from the socket thread to the main thread.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys in the order they are written.
    case object([(String, JSONValue)])

    package static func == (a: JSONValue, b: JSONValue) -> Bool { a.text == b.text }

    /// Parses one JSON document; nil when it is not valid JSON. A control
    /// character written raw inside a string (a tab, a carriage return) is
    /// taken as itself, as mpv's reader takes it: a shell client's `\r`
    /// status line is a request, not an error.
    static func parse(_ text: String) -> JSONValue? {
        guard let any = try? JSONSerialization.jsonObject(with: escapingRawControlCharacters(text),
                                                          options: [.fragmentsAllowed]) else { return nil }
        return JSONValue(any)
    }

    /// `text`'s UTF-8 with each control character inside a string written
    /// as a `\u00XX` escape, which JSONSerialization reads (it refuses them
    /// raw, as strict JSON does). One pass; outside strings nothing changes,
    /// and NUL stays refused (mpv reads a line as a C string).
    static func escapingRawControlCharacters(_ text: String) -> Data {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 < 0x20 }) else { return Data(utf8) }
        var out = Data(capacity: utf8.count + 16)
        var inString = false, escaped = false
        for byte in utf8 {
            if inString && !escaped && byte < 0x20 && byte != 0 {
                out.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
                continue
            }
            out.append(byte)
            if escaped {
                escaped = false
            } else if inString && byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString.toggle()
            }
        }
        return out
    }

    private init?(_ any: Any) {
        switch any {
        case is NSNull: self = .null
        case let n as NSNumber:
            // JSONSerialization gives booleans as NSNumber too, of C type char
            // (numbers come as int, long or double).
            self = String(cString: n.objCType) == "c" ? .bool(n.boolValue) : .number(n.doubleValue)
        case let s as String: self = .string(s)
        case let a as [Any]:
            var values: [JSONValue] = []
            for element in a {
                guard let v = JSONValue(element) else { return nil }
                values.append(v)
            }
            self = .array(values)
        case let d as [String: Any]:
            var pairs: [(String, JSONValue)] = []
            for key in d.keys.sorted() {
                guard let element = d[key], let v = JSONValue(element) else { return nil }
                pairs.append((key, v))
            }
            self = .object(pairs)
        default: return nil
        }
    }

    package subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    package var string: String? { if case .string(let s) = self { return s } else { return nil } }
    package var number: Double? { if case .number(let n) = self { return n } else { return nil } }

    /// Compact JSON text on one line (the protocol is one message per line).
    package var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n):
            guard n.isFinite else { return "null" }
            return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .string(let s): return JSONValue.quote(s)
        case .array(let a): return "[" + a.map(\.text).joined(separator: ",") + "]"
        case .object(let pairs):
            return "{" + pairs.map { JSONValue.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    private static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
