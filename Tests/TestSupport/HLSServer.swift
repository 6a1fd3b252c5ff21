// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// The HLS tests' server (hls_server.py beside this file): serves a folder
/// over HTTP on 127.0.0.1, logs each request and the bytes it sent, and
/// answers the faults it is given (`path=404`, `path=stall5`…).
package final class HLSServer {
    let process = Process()
    package let port: Int
    package let log: URL

    package init(serving folder: URL, faults: String = "") throws {
        log = folder.deletingLastPathComponent().appendingPathComponent("requests-\(UUID().uuidString).log")
        try Data().write(to: log)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("hls_server.py")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, folder.path, log.path, faults]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw MediaError("the test server did not start") }
        self.port = port
    }

    // SIGKILL: a child of Foundation's Process starts with SIGTERM blocked.
    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }

    package func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// The paths requested so far.
    package var requests: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }
}
