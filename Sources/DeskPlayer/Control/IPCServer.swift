import Foundation

/// `--input-ipc-server PATH`: a Unix socket speaking mpv's JSON IPC, one
/// message per line. A thread accepts clients and reads their lines; the main
/// thread takes the requests, applies them and writes the replies. The socket
/// file is made 0600 and removed when the server goes.
final class IPCServer {
    let path: String
    private let listener: Int32
    private let shared = Shared()
    private var thread: Thread?

    /// What the socket thread and the main thread share, behind one lock.
    private final class Shared: @unchecked Sendable {  // guarded by lock
        let lock = NSLock()
        var connections: [Int: Int32] = [:]
        var inbox: [IPCRequest] = []
        var nextID = 1
        var stopping = false
    }

    init(path: String) throws {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw MediaError("cannot create socket \(path): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else {
            close(fd)
            throw MediaError("socket path too long (at most \(capacity - 1) bytes): \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        // A socket left by a player that crashed would make bind fail: mpv removes it too.
        var info = stat()
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK { unlink(path) }
        // Created 0600: other users must not drive the player.
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(oldMask)
        guard bound == 0, listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw MediaError("cannot listen on \(path): \(reason)")
        }
        listener = fd
        let shared = self.shared
        let thread = Thread { IPCServer.serve(listener: fd, shared) }
        thread.name = "ipc"
        self.thread = thread
        thread.start()
    }

    deinit {
        shared.lock.lock()
        shared.stopping = true
        shared.lock.unlock()
        while thread?.isFinished == false { Thread.sleep(forTimeInterval: 0.01) }
        for fd in shared.connections.values { close(fd) }
        close(listener)
        unlink(path)
    }

    /// The requests received since the last call, oldest first.
    func takeRequests() -> [IPCRequest] {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        let taken = shared.inbox
        shared.inbox.removeAll()
        return taken
    }

    func send(_ line: String, to connection: Int) {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        if let fd = shared.connections[connection] { write(line, to: fd) }
    }

    /// An event goes to every client.
    func broadcast(_ line: String) {
        shared.lock.lock()
        defer { shared.lock.unlock() }
        for fd in shared.connections.values { write(line, to: fd) }
    }

    /// Called with the lock held. A client that stopped reading loses the line
    /// rather than stalling the player: the socket is non-blocking.
    private func write(_ line: String, to fd: Int32) {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// The socket thread: accepts clients and splits what they send into lines.
    private static func serve(listener: Int32, _ shared: Shared) {
        var pending: [Int: [UInt8]] = [:]
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            shared.lock.lock()
            let done = shared.stopping
            let clients = shared.connections
            shared.lock.unlock()
            if done { return }
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            let ids = Array(clients.keys)
            for id in ids { fds.append(pollfd(fd: clients[id] ?? -1, events: Int16(POLLIN), revents: 0)) }
            // A short timeout so the thread notices it should stop.
            guard poll(&fds, nfds_t(fds.count), 100) > 0 else { continue }
            if fds[0].revents & Int16(POLLIN) != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                    shared.lock.lock()
                    shared.connections[shared.nextID] = client
                    shared.nextID += 1
                    shared.lock.unlock()
                }
            }
            for (i, id) in ids.enumerated() where fds[i + 1].revents != 0 {
                let fd = fds[i + 1].fd
                let n = read(fd, &buffer, buffer.count)
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n <= 0 {
                    shared.lock.lock()
                    shared.connections[id] = nil
                    close(fd)
                    shared.lock.unlock()
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
                shared.lock.lock()
                shared.inbox.append(contentsOf: requests)
                shared.lock.unlock()
            }
        }
    }
}
