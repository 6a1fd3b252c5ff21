import Foundation

/// A JSON value as mpv's IPC protocol carries it. Sendable, so requests can
/// cross from the socket thread to the main thread.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Keys in the order they are written.
    case object([(String, JSONValue)])

    static func == (a: JSONValue, b: JSONValue) -> Bool { a.text == b.text }

    /// Parses one JSON document; nil when it is not valid JSON.
    static func parse(_ text: String) -> JSONValue? {
        guard let data = text.data(using: .utf8),
              let any = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        return JSONValue(any)
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

    subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var number: Double? { if case .number(let n) = self { return n } else { return nil } }

    /// Compact JSON text on one line (the protocol is one message per line).
    var text: String {
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

/// One request line from a client: `{"command": ["name", args...], "request_id": N}`,
/// or mpv's named form `{"command": {"name": "seek", "target": 5}}`.
struct IPCRequest: Sendable {
    enum Body: Sendable {
        /// The command's name and arguments, by position.
        case positional([JSONValue])
        /// mpv's named arguments, with the name under "name".
        case named(JSONValue)
    }

    let connection: Int
    /// The command, or why the line could not be read.
    let body: Result<Body, CommandError>
    let requestID: JSONValue

    init(connection: Int, line: String) {
        self.connection = connection
        guard let value = JSONValue.parse(line) else {
            body = .failure(.invalidParameter)
            requestID = .number(0)
            return
        }
        requestID = value["request_id"] ?? .number(0)
        switch value["command"] {
        case .array(let parts)? where parts.first?.string != nil: body = .success(.positional(parts))
        case .object? where value["command"]?["name"]?.string != nil:
            body = .success(.named(value["command"] ?? .null))
        default: body = .failure(.invalidParameter)
        }
    }

    /// The command's name ("" when unreadable).
    var name: String {
        switch body {
        case .success(.positional(let parts)): return parts.first?.string ?? ""
        case .success(.named(let object)): return object["name"]?.string ?? ""
        case .failure: return ""
        }
    }

    /// The reply line for this request.
    func reply(_ result: Result<JSONValue, CommandError>) -> String {
        switch result {
        case .success(let data):
            return JSONValue.object([("data", data), ("request_id", requestID), ("error", .string("success"))]).text
        case .failure(let error):
            return JSONValue.object([("request_id", requestID), ("error", .string(error.rawValue))]).text
        }
    }
}

/// An event line: `{"event": "pause"}`, with optional fields.
func ipcEvent(_ name: String, _ fields: [(String, JSONValue)] = []) -> String {
    JSONValue.object([("event", .string(name))] + fields).text
}
