// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// One request line from a client: `{"command": ["name", args...], "request_id": N}`,
/// or mpv's named form `{"command": {"name": "seek", "target": 5}}`.
package struct IPCRequest: Sendable {
    package enum Body: Sendable {
        /// The command's name and arguments, by position.
        case positional([JSONValue])
        /// mpv's named arguments, with the name under "name".
        case named(JSONValue)
    }

    package let connection: Int
    /// The command, or why the line could not be read.
    package let body: Result<Body, CommandError>
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
    package var name: String {
        switch body {
        case .success(.positional(let parts)): return parts.first?.string ?? ""
        case .success(.named(let object)): return object["name"]?.string ?? ""
        case .failure: return ""
        }
    }

    /// The reply line for this request.
    package func reply(_ result: Result<JSONValue, CommandError>) -> String {
        switch result {
        case .success(let data):
            return JSONValue.object([("data", data), ("request_id", requestID), ("error", .string("success"))]).text
        case .failure(let error):
            return JSONValue.object([("request_id", requestID), ("error", .string(error.rawValue))]).text
        }
    }
}

/// An event line: `{"event": "pause"}`, with optional fields.
package func ipcEvent(_ name: String, _ fields: [(String, JSONValue)] = []) -> String {
    JSONValue.object([("event", .string(name))] + fields).text
}
