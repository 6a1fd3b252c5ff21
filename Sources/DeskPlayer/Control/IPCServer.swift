// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// `--input-ipc-server PATH`: a Unix socket speaking mpv's JSON IPC, one
/// message per line. A thread accepts clients and reads their lines; the main
/// thread takes the requests, applies them and writes the replies. The socket
/// file is made 0600 and removed when the server goes.
package final class IPCServer {
    let path: String
    private let listener: Int32
    private let shared = Shared()
    /// Written to stop the socket thread, which waits in poll with no timeout.
    private let stopPipe: (read: Int32, write: Int32)
    /// Signalled by the socket thread as it ends.
    private let finished = DispatchSemaphore(value: 0)

    /// What the socket thread and the main thread share.
    private final class Shared: Sendable {
        struct Connection {
            let fd: Int32
            /// Requests read but not yet answered.
            var unanswered = 0
            /// The client finished sending (`echo … | socat`): it is closed
            /// once its last request is answered.
            var doneSending = false
        }
        struct State {
            var connections: [Int: Connection] = [:]
            var inbox: [IPCRequest] = []
            var nextID = 1
            var stopping = false
        }
        let state = Mutex(State())
    }

    /// `arrived` is called on the socket thread whenever requests arrive
    /// (the app wakes its main thread with it: nothing polls the inbox).
    package init(path: String, arrived: @escaping @Sendable () -> Void = {}) throws {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw MediaError("cannot create socket \(path): \(String(cString: strerror(errno)))") }
        // Bound under a temporary name and renamed onto `path` once it listens: the
        // file appears only when it accepts connections. Clients wait for the file
        // and connect at once (aio-mpv-jsonipc retries only while it is missing);
        // between a bind and a listen they were refused.
        let temporary = path + ".\(getpid()).new"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            close(fd)
            throw MediaError("socket path too long (at most \(capacity - 1) bytes): \(path)")
        }
        // A path with no room for the temporary name is bound directly.
        let bindPath = temporary.utf8.count < capacity ? temporary : path
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bindPath.utf8)
            raw[bindPath.utf8.count] = 0
        }
        // A socket left by a player that crashed would make bind fail: mpv removes it too.
        // Anything else at the path is not ours to replace.
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                close(fd)
                throw MediaError("cannot listen on \(path): \(String(cString: strerror(EADDRINUSE)))")
            }
            unlink(path)
        }
        if bindPath != path, lstat(bindPath, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK { unlink(bindPath) }
        // Created 0600: other users must not drive the player.
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(oldMask)
        guard bound == 0, listen(fd, 8) == 0, bindPath == path || rename(bindPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            if bound == 0 { unlink(bindPath) }
            throw MediaError("cannot listen on \(path): \(reason)")
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(path)
            throw MediaError("cannot listen on \(path): \(reason)")
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        listener = fd
        stopPipe = (pipeEnds[0], pipeEnds[1])
        let shared = self.shared, finished = self.finished, stopRead = pipeEnds[0]
        let thread = Thread {
            IPCServer.serve(listener: fd, stop: stopRead, shared, arrived: arrived)
            finished.signal()
        }
        thread.name = "ipc"
        thread.start()
    }

    deinit {
        shared.state.withLock { $0.stopping = true }
        var byte: UInt8 = 1
        _ = Glibc.write(stopPipe.write, &byte, 1)
        finished.wait()
        close(stopPipe.read)
        close(stopPipe.write)
        for connection in shared.state.withLock({ $0.connections.values }) { close(connection.fd) }
        close(listener)
        unlink(path)
    }

    /// The requests received since the last call, oldest first.
    package func takeRequests() -> [IPCRequest] {
        shared.state.withLock { s in
            defer { s.inbox.removeAll() }
            return s.inbox
        }
    }

    /// An event for one client.
    package func send(_ line: String, to connection: Int) {
        shared.state.withLock { s in
            if let c = s.connections[connection] { IPCServer.write(line, to: c.fd) }
        }
    }

    /// The reply to `request`; a client that finished sending is closed
    /// after its last reply.
    package func reply(_ line: String, to request: IPCRequest) {
        shared.state.withLock { s in
            guard var c = s.connections[request.connection] else { return }
            IPCServer.write(line, to: c.fd)
            c.unanswered -= 1
            if c.doneSending && c.unanswered <= 0 {
                close(c.fd)
                s.connections[request.connection] = nil
            } else {
                s.connections[request.connection] = c
            }
        }
    }

    /// An event goes to every client.
    package func broadcast(_ line: String) {
        shared.state.withLock { s in
            for c in s.connections.values { IPCServer.write(line, to: c.fd) }
        }
    }

    /// Called with the lock held. A client that stopped reading loses the line
    /// rather than stalling the player: the socket is non-blocking.
    private static func write(_ line: String, to fd: Int32) {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// The socket thread: accepts clients and splits what they send into lines.
    private static func serve(listener: Int32, stop: Int32, _ shared: Shared, arrived: @Sendable () -> Void) {
        var pending: [Int: [UInt8]] = [:]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let (done, clients) = shared.state.withLock { s in (s.stopping, s.connections.filter { !$0.value.doneSending }) }
            if done { return }
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            let ids = Array(clients.keys)
            for id in ids { fds.append(pollfd(fd: clients[id]?.fd ?? -1, events: Int16(POLLIN), revents: 0)) }
            fds.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0))
            // A client, a new connection or the stop pipe wakes it, nothing
            // else: the main thread closes only connections done sending,
            // which this thread already left out of the set.
            guard poll(&fds, nfds_t(fds.count), -1) > 0 else { continue }
            if fds[fds.count - 1].revents != 0 { continue }
            if fds[0].revents & Int16(POLLIN) != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                    shared.state.withLock { s in
                        s.connections[s.nextID] = Shared.Connection(fd: client)
                        s.nextID += 1
                    }
                }
            }
            for (i, id) in ids.enumerated() where fds[i + 1].revents != 0 {
                let fd = fds[i + 1].fd
                let n = read(fd, &buffer, buffer.count)
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n <= 0 {
                    // Gone, or done sending: its requests still get their replies.
                    shared.state.withLock { s in
                        // Only a connection still open here: one the main thread
                        // closed may have had its descriptor number reused.
                        guard let c = s.connections[id], c.fd == fd else { return }
                        if c.unanswered > 0 {
                            s.connections[id]?.doneSending = true
                        } else {
                            s.connections[id] = nil
                            close(fd)
                        }
                    }
                    pending[id] = nil
                    continue
                }
                var bytes = pending[id] ?? []
                bytes.append(contentsOf: buffer[0..<n])
                var requests: [IPCRequest] = []
                while let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: bytes[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                    bytes.removeSubrange(...newline)
                    if !line.isEmpty && !line.hasPrefix("#") { requests.append(IPCRequest(connection: id, line: line)) }
                }
                // A client sending megabytes without a newline is cut off.
                pending[id] = bytes.count > 1 << 20 ? [] : bytes
                shared.state.withLock { s in
                    s.inbox.append(contentsOf: requests)
                    s.connections[id]?.unanswered += requests.count
                }
                if !requests.isEmpty { arrived() }
            }
        }
    }
}
