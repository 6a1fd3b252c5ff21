// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// `--input-ipc-server PATH`: a Unix socket speaking mpv's JSON IPC, one
/// message per line. A thread (IPCSocketThread) accepts clients, reads their
/// lines and sends what they have not read yet; the main thread takes the
/// requests, applies them and queues the replies, never waiting on a client.
/// Every client holds a bounded share (`Limits`). The socket file is made
/// 0600 and removed when the server goes.
package final class IPCServer {
    /// What one client, and all of them together, may hold.
    package struct Limits: Sendable {
        /// Clients connected at once; one more gets an error line and is closed.
        package var clients = 64
        /// Replies and events a client has not read; past it the client is disconnected.
        package var outbox = 16 << 20
        /// A line without its newline yet; past it the line is dropped (an error reply).
        package var line = 1 << 20
        /// Unfinished lines of every client together; past it as `line`.
        package var pendingInput = 16 << 20
        /// Requests of one client read but not answered: it is not read further until answered.
        package var unanswered = 1000
        /// Requests of every client not yet taken by the main thread, in bytes: as `unanswered`.
        package var inbox = 16 << 20
        /// How long the listener rests after `accept` fails (out of descriptors).
        package var acceptPause: Duration = .milliseconds(100)

        package init() {}
    }

    let path: String
    private let listener: Int32
    private let shared: IPCShared
    /// Signalled by the socket thread as it ends.
    private let finished = DispatchSemaphore(value: 0)

    /// `arrived` is called on the socket thread whenever requests arrive or
    /// clients go (the app wakes its main thread with it: nothing polls the
    /// inbox). `say` writes a line on stderr.
    package init(path: String, limits: Limits = Limits(),
                 say: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data("deskplayer: \($0)\n".utf8)) },
                 arrived: @escaping @Sendable () -> Void = {}) throws {
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
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // Made 0600 before it listens (no one can connect before that): other users must
        // not drive the player. Not by narrowing the umask around bind: the umask is the
        // process's, and a folder another thread made meanwhile came out without its x bits.
        guard bound == 0, chmod(bindPath, 0o600) == 0, listen(fd, 8) == 0, bindPath == path || rename(bindPath, path) == 0 else {
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
        for end in pipeEnds + [fd] {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        listener = fd
        let shared = IPCShared(limits: limits, say: say, wake: (pipeEnds[0], pipeEnds[1]))
        self.shared = shared
        let finished = self.finished
        let thread = Thread {
            var socketThread = IPCSocketThread(listener: fd, shared: shared, arrived: arrived)
            socketThread.run()
            finished.signal()
        }
        thread.name = "ipc"
        thread.start()
    }

    deinit {
        shared.state.withLock { $0.stopping = true }
        shared.wake()
        finished.wait()
        close(shared.wakeRead)
        close(shared.wakeWrite)
        for connection in shared.state.withLock({ $0.connections.values }) { close(connection.fd) }
        close(listener)
        unlink(path)
    }

    /// The requests received since the last call, oldest first.
    package func takeRequests() -> [IPCRequest] {
        let (requests, wasFull) = shared.state.withLock { s in
            defer {
                s.inbox.removeAll()
                s.inboxBytes = 0
            }
            return (s.inbox, s.inboxBytes >= shared.limits.inbox)
        }
        // The socket thread stopped reading while the inbox was full.
        if wasFull { shared.wake() }
        return requests
    }

    /// The connections closed since the last call: what the app keeps for
    /// them (observed properties) can go.
    package func takeClosedConnections() -> [Int] {
        shared.state.withLock { s in
            defer { s.closed.removeAll() }
            return s.closed
        }
    }

    /// The number of clients connected.
    package var connectionCount: Int { shared.state.withLock { $0.connections.count } }

    /// An event for one client.
    package func send(_ line: String, to connection: Int) {
        let limits = shared.limits
        let (wake, message) = shared.state.withLock { s in IPCShared.enqueue(line, to: connection, in: &s, limits: limits) }
        finish(wake: wake, message: message)
    }

    /// The reply to `request`; a client that finished sending is closed
    /// after its last reply is sent.
    package func reply(_ line: String, to request: IPCRequest) {
        let limits = shared.limits
        let (wake, message) = shared.state.withLock { s -> (Bool, String?) in
            guard s.connections[request.connection] != nil else { return (false, nil) }
            let result = IPCShared.enqueue(line, to: request.connection, in: &s, limits: limits)
            guard var c = s.connections[request.connection] else { return result }
            c.unanswered -= 1
            s.connections[request.connection] = c
            // The socket thread closes it, or reads it again (it stopped at the limit).
            let look = c.finished || c.unanswered == limits.unanswered - 1
            return (result.wake || look, result.message)
        }
        finish(wake: wake, message: message)
    }

    /// An event goes to every client.
    package func broadcast(_ line: String) {
        let limits = shared.limits
        let (wake, messages) = shared.state.withLock { s -> (Bool, [String]) in
            var wake = false, messages: [String] = []
            for id in s.connections.keys {
                let result = IPCShared.enqueue(line, to: id, in: &s, limits: limits)
                wake = wake || result.wake
                if let message = result.message { messages.append(message) }
            }
            return (wake, messages)
        }
        for message in messages { shared.say(message) }
        if wake { shared.wake() }
    }

    private func finish(wake: Bool, message: String?) {
        if let message { shared.say(message) }
        if wake { shared.wake() }
    }
}
