// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Synchronization
import Testing
@testable import Control
import TestSupport

/// The control socket's server on its own, driven by raw Unix-socket clients:
/// every client holds a bounded share (issue 50), and no client's slowness
/// reaches the main thread or another client.
@Suite struct IPCServerTests {
    /// A raw client: bytes in, lines out, with a 10 s receive timeout.
    final class RawClient {
        let fd: Int32
        private var buffer: [UInt8] = []

        init(path: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: path.utf8)
                raw[path.utf8.count] = 0
            }
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard ok == 0 else {
                close(fd)
                throw CocoaError(.fileReadUnknown)
            }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(fd) }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return }
                sent += n
            }
        }

        /// The next line; nil at the end of the stream or after 10 s without a byte.
        func readLine() -> String? { Self.readLine(from: fd, &buffer) }

        static func readLine(from fd: Int32, _ buffer: inout [UInt8]) -> String? {
            var chunk = [UInt8](repeating: 0, count: 65536)
            var scanned = 0
            while true {
                if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    return line
                }
                scanned = buffer.count
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return nil }
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }

    /// Lines written on stderr by the server.
    final class Said: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func say(_ line: String) { lines.withLock { $0.append(line) } }
    }

    static func socketPath(_ dir: URL) -> String { dir.appendingPathComponent("ipc.sock").path }

    /// The requests that arrive, up to `count` of them, within 10 s.
    static func requests(_ server: IPCServer, _ count: Int) -> [IPCRequest] {
        var taken: [IPCRequest] = []
        _ = eventually {
            taken += server.takeRequests()
            return taken.count >= count
        }
        return taken
    }

    /// The process's umask as /proc says it (umask(2) cannot read it without changing it).
    static func processUmask() -> mode_t? {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        return line.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) }
    }

    /// The socket is made 0600 without touching the umask, which is the
    /// whole process's: while it was narrowed to 0177 around bind, a folder
    /// another thread made came out 0600, without the bit that lets anyone
    /// into it (the thumbnail store's, beside a test's socket). Folders made
    /// on a second thread while servers start and stop all keep their x bits,
    /// and every socket is 0600.
    @Test func listeningLeavesTheProcessUmaskAlone() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let mask = try #require(Self.processUmask())
        let expected = 0o755 & ~mask
        let stop = Atomic<Bool>(false)
        let made = Atomic<Int>(0), wrong = Atomic<Int>(0)
        let folders = dir.appendingPathComponent("folders").path
        mkdir(folders, 0o755)
        let maker = Thread {
            var i = 0
            while !stop.load(ordering: .relaxed) {
                let path = "\(folders)/\(i)"
                if mkdir(path, 0o755) == 0 {
                    var info = stat()
                    if stat(path, &info) == 0, info.st_mode & 0o777 != expected { wrong.add(1, ordering: .relaxed) }
                    made.add(1, ordering: .relaxed)
                    rmdir(path)
                }
                i += 1
            }
        }
        maker.start()
        #expect(eventually { made.load(ordering: .relaxed) > 0 })
        for n in 0..<2000 {
            let path = dir.appendingPathComponent("s\(n % 4).sock").path
            let server = try IPCServer(path: path)
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
            _ = server
        }
        stop.store(true, ordering: .relaxed)
        #expect(eventually { maker.isFinished })
        #expect(made.load(ordering: .relaxed) > 0)
        #expect(wrong.load(ordering: .relaxed) == 0, "\(wrong.load(ordering: .relaxed)) of \(made.load(ordering: .relaxed)) folders made while servers bound lacked their mode's bits")
    }

    @Test func aReplyLargerThanTheSocketBufferReachesALateReaderWhole() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try IPCServer(path: Self.socketPath(dir))
        let client = try RawClient(path: Self.socketPath(dir))
        client.send(#"{"command":["get_property","playlist"],"request_id":1}"# + "\n")
        let request = try #require(Self.requests(server, 1).first)
        // Four replies of 1 MiB, far past what the socket holds, written
        // before the client reads a byte: reply returns at once and keeps the rest.
        let big = String(repeating: "x", count: 1 << 20)
        for _ in 0..<4 { server.reply(request.reply(.success(.string(big))), to: request) }
        server.send(ipcEvent("after"), to: request.connection)
        for i in 0..<4 {
            let line = try #require(client.readLine(), "reply \(i)")
            let value = JSONValue.parse(line)
            #expect(value?["data"]?.string?.count == big.count, "reply \(i) is whole: \(line.utf8.count) bytes")
        }
        #expect(client.readLine().flatMap(JSONValue.parse)?["event"] == .string("after"))
    }

    @Test func aClientThatStopsReadingIsDisconnectedAndTheOthersGetEveryLine() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var limits = IPCServer.Limits()
        limits.outbox = 1 << 20
        let said = Said()
        let server = try IPCServer(path: Self.socketPath(dir), limits: limits, say: said.say)
        let sleeper = try RawClient(path: Self.socketPath(dir))
        let reader = try RawClient(path: Self.socketPath(dir))
        #expect(eventually { server.connectionCount == 2 })
        // The reader reads on a thread of its own while events go out, at
        // most four lines (256 KiB) behind: however slowly it runs, its
        // outbox stays under the limit, while the sleeper's passes it.
        let count = 80, size = 64 << 10
        let received = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0), progress = DispatchSemaphore(value: 0)
        let readerFD = reader.fd
        Thread.detachNewThread {
            var buffer: [UInt8] = []
            for _ in 0..<count {
                guard let line = RawClient.readLine(from: readerFD, &buffer) else { break }
                received.withLock { $0.append(line) }
                progress.signal()
            }
            done.signal()
        }
        let payload = String(repeating: "y", count: size)
        for i in 0..<count {
            if i >= 4 { guard progress.wait(timeout: .now() + 10) == .success else { break } }
            server.broadcast(ipcEvent("tick", [("n", .number(Double(i))), ("data", .string(payload))]))
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        let lines = received.withLock { $0 }
        #expect(lines.count == count, "the reader got \(lines.count) of \(count) lines")
        for (i, line) in lines.enumerated() {
            let value = JSONValue.parse(line)
            #expect(value?["n"] == .number(Double(i)) && value?["data"]?.string?.count == size, "line \(i) whole and in order")
        }
        // The sleeper gets what the socket held, then the end of the stream.
        while sleeper.readLine() != nil {}
        #expect(eventually { server.takeClosedConnections().count == 1 })
        #expect(server.connectionCount == 1)
        let disconnected = said.all.filter { $0.contains("disconnected") }
        #expect(disconnected.count == 1, "said once: \(said.all)")
    }

    @Test func clientsPastTheLimitGetOneLineAndAreClosed() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let said = Said()
        let server = try IPCServer(path: Self.socketPath(dir), say: said.say)
        let limit = IPCServer.Limits().clients
        var clients: [RawClient] = []
        for _ in 0..<100 { clients.append(try RawClient(path: Self.socketPath(dir))) }
        // Every client sends a request: the accepted ones are answered, the others were refused.
        for (i, client) in clients.enumerated() { client.send(#"{"command":["client_name"],"request_id":\#(i)}"# + "\n") }
        for request in Self.requests(server, limit) { server.reply(request.reply(.success(.null)), to: request) }
        var answered = 0, refused = 0
        for (i, client) in clients.enumerated() {
            let reply = client.readLine().flatMap(JSONValue.parse)
            if reply?["request_id"] == .number(Double(i)) && reply?["error"] == .string("success") {
                answered += 1
            } else if reply?["error"] == .string("too many clients") {
                refused += 1
                #expect(client.readLine() == nil, "closed after its line")
            }
        }
        #expect(answered == limit && refused == 100 - limit, "\(answered) answered, \(refused) refused")
        #expect(said.all.filter { $0.contains("refused") }.count == 1, "said once: \(said.all)")
        // A client that leaves makes room for another.
        clients.removeFirst()
        #expect(eventually { server.connectionCount == limit - 1 })
        let late = try RawClient(path: Self.socketPath(dir))
        late.send(#"{"command":["client_name"],"request_id":7}"# + "\n")
        let request = try #require(Self.requests(server, 1).first)
        server.reply(request.reply(.success(.null)), to: request)
        #expect(late.readLine().flatMap(JSONValue.parse)?["request_id"] == .number(7))
    }

    @Test func aLineTooLongIsDroppedWholeAndTheNextIsRead() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try IPCServer(path: Self.socketPath(dir))
        let client = try RawClient(path: Self.socketPath(dir))
        client.send("{\"command\":[\"show-text\",\"" + String(repeating: "z", count: 3 << 20) + "\"],\"request_id\":1}\n")
        client.send(#"{"command":["get_property","pause"],"request_id":2}"# + "\r\n")
        let requests = Self.requests(server, 2)
        #expect(requests.count == 2)
        #expect(requests.first?.name == "", "the long line is answered as unreadable")
        #expect(requests.last?.name == "get_property" && requests.last?.reply(.success(.null)).contains("\"request_id\":2") == true)
    }

    @Test func splittingIsOneScanAndBounded() {
        var splitter = IPCLineSplitter(maximum: 16)
        func feed(_ text: String, room: Int = .max) -> IPCLineSplitter.Lines {
            Array(text.utf8).withUnsafeBytes { splitter.feed($0, room: room) }
        }
        var result = feed("ab\ncd")
        #expect(result.lines == [Array("ab".utf8)] && splitter.pending == Array("cd".utf8))
        result = feed("e\n\nf")
        #expect(result.lines == [Array("cde".utf8), []] && splitter.pending == Array("f".utf8))
        // Past the maximum the line is dropped up to its newline, once.
        result = feed(String(repeating: "g", count: 20))
        #expect(result.dropped == 1 && splitter.pending.isEmpty)
        result = feed("gggg\nok\n")
        #expect(result.dropped == 0 && result.lines == [Array("ok".utf8)])
        // The room left by other clients bounds it too.
        result = feed("12345678", room: 4)
        #expect(result.dropped == 1)
        result = feed("\n")
        #expect(result.lines.isEmpty)
        // 2 MiB of short lines in one chunk: one pass.
        var big = IPCLineSplitter(maximum: 1 << 20)
        let lines = Array(String(repeating: "{}\n", count: 700_000).utf8)
        let started = ContinuousClock.now
        let split = lines.withUnsafeBytes { big.feed($0, room: .max) }
        #expect(split.lines.count == 700_000)
        #expect(ContinuousClock.now - started < .seconds(10), "linear, not quadratic")
    }

    @Test func rawControlCharactersInsideStringsAreRead() {
        let tab = IPCRequest(connection: 1, line: "{\"command\":[\"show-text\",\"a\tb\"],\"request_id\":1}")
        guard case .success(.positional(let parts)) = tab.body else {
            Issue.record("a raw tab inside a string: \(tab.body)")
            return
        }
        #expect(parts.last == .string("a\tb"))
        let cr = IPCRequest(connection: 1, line: "{\"command\":[\"show-text\",\"12:00\r\"],\"request_id\":2}")
        guard case .success(.positional(let crParts)) = cr.body else {
            Issue.record("a raw carriage return inside a string: \(cr.body)")
            return
        }
        #expect(crParts.last == .string("12:00\r"))
        // Escapes keep their meaning; a quote after a backslash does not end the string.
        #expect(JSONValue.parse("[\"\\\"\u{1}\\\\\",\"\\n\"]") == .array([.string("\"\u{1}\\"), .string("\n")]))
        // Outside strings only JSON's whitespace is allowed, and NUL nowhere.
        #expect(JSONValue.parse("[1,\u{1}2]") == nil)
        #expect(JSONValue.parse("[\"a\u{0}\"]") == nil)
        #expect(JSONValue.parse("[1,\t2]\r") == .array([.number(1), .number(2)]))
    }
}
