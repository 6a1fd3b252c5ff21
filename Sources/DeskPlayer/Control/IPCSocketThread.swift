// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The control socket's thread: accepts clients up to the limit, reads their
/// lines while they have room, sends what they have not read when they can
/// take it, and closes the ones that finished or went. It sleeps in poll;
/// clients, the listener and the wake pipe wake it, and nothing else but the
/// end of a pause after `accept` failed.
struct IPCSocketThread {
    let listener: Int32
    let shared: IPCShared
    let arrived: @Sendable () -> Void
    private var splitters: [Int: IPCLineSplitter] = [:]
    private var buffer = [UInt8](repeating: 0, count: 65536)
    /// When the listener is polled again after `accept` failed.
    private var listenerRests: ContinuousClock.Instant?
    /// Said once until the next client is accepted.
    private var saidRefusing = false, saidAcceptFailing = false

    init(listener: Int32, shared: IPCShared, arrived: @escaping @Sendable () -> Void) {
        self.listener = listener
        self.shared = shared
        self.arrived = arrived
    }

    private var limits: IPCServer.Limits { shared.limits }
    /// A client to poll, and for what.
    private typealias Watched = (id: Int, fd: Int32, events: Int16)

    mutating func run() {
        while true {
            guard let watched = closeFinishedAndWatch() else { return }
            if let rest = listenerRests, ContinuousClock.now >= rest { listenerRests = nil }
            var fds = [pollfd(fd: shared.wakeRead, events: Int16(POLLIN), revents: 0)]
            if listenerRests == nil { fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
            let first = fds.count
            for client in watched { fds.append(pollfd(fd: client.fd, events: client.events, revents: 0)) }
            var timeout: Int32 = -1
            if let rest = listenerRests {
                // Whole milliseconds, rounded up, at least one and at most a minute.
                let milliseconds = (ContinuousClock.now.duration(to: rest) / .milliseconds(1)).rounded(.up)
                timeout = Int32(min(max(milliseconds, 1), 60_000))
            }
            guard poll(&fds, nfds_t(fds.count), timeout) > 0 else { continue }
            if fds[0].revents != 0 { drainWakePipe() }
            if first == 2 && fds[1].revents != 0 { accept() }
            for (i, client) in watched.enumerated() where fds[first + i].revents != 0 {
                let revents = fds[first + i].revents
                if client.events & Int16(POLLOUT) != 0 && revents & Int16(POLLOUT | POLLHUP | POLLERR) != 0 { flush(client.id) }
                if client.events & Int16(POLLIN) != 0 && revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    read(client.id, client.fd)
                }
            }
        }
    }

    /// Closes the connections that are finished and lists what to poll the
    /// others for; nil when the server stops.
    private mutating func closeFinishedAndWatch() -> [Watched]? {
        let limits = self.limits
        let result = shared.state.withLock { s -> (watched: [Watched], closed: [Int])? in
            if s.stopping { return nil }
            var closed: [Int] = []
            for (id, c) in s.connections where c.finished {
                close(c.fd)
                s.connections[id] = nil
                closed.append(id)
            }
            s.closed.append(contentsOf: closed)
            // Past the inbox's bound nobody is read until the main thread takes it.
            let reading = s.inboxBytes < limits.inbox
            var watched: [Watched] = []
            for (id, c) in s.connections {
                var events: Int16 = 0
                if reading && !c.doneSending && c.unanswered < limits.unanswered { events |= Int16(POLLIN) }
                if !c.outbox.isEmpty { events |= Int16(POLLOUT) }
                if events != 0 { watched.append((id, c.fd, events)) }
            }
            return (watched, closed)
        }
        guard let result else { return nil }
        for id in result.closed { splitters[id] = nil }
        // The app lets go of what it kept for them (observed properties).
        if !result.closed.isEmpty { arrived() }
        return result.watched
    }

    private func drainWakePipe() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while Glibc.read(shared.wakeRead, &bytes, bytes.count) > 0 {}
    }

    /// Takes one client from the listener: refused with a line past the
    /// limit; when `accept` fails for want of descriptors, the listener
    /// rests instead of waking the thread again at once.
    private mutating func accept() {
        let client = Glibc.accept(listener, nil, nil)
        guard client >= 0 else {
            let error = errno
            if error == EAGAIN || error == EWOULDBLOCK || error == EINTR || error == ECONNABORTED { return }
            listenerRests = ContinuousClock.now + limits.acceptPause
            if !saidAcceptFailing {
                saidAcceptFailing = true
                shared.say("control socket: cannot accept clients (\(String(cString: strerror(error)))); trying again every \(limits.acceptPause)")
            }
            return
        }
        saidAcceptFailing = false
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        let limits = self.limits
        let accepted = shared.state.withLock { s -> Bool in
            guard s.connections.count < limits.clients else { return false }
            s.connections[s.nextID] = IPCShared.Connection(fd: client, outbox: IPCOutbox(capacity: limits.outbox))
            s.nextID += 1
            return true
        }
        if accepted {
            saidRefusing = false
            return
        }
        // One line into an empty socket buffer: it fits.
        var refusal = IPCOutbox(capacity: 4096)
        _ = refusal.append(JSONValue.object([("request_id", .number(0)), ("error", .string("too many clients"))]).text)
        _ = refusal.flush(to: client)
        close(client)
        if !saidRefusing {
            saidRefusing = true
            shared.say("control socket: \(limits.clients) clients are connected; more are refused")
        }
    }

    /// Sends what the client's outbox holds and the socket takes.
    private func flush(_ id: Int) {
        shared.state.withLock { s in
            guard var c = s.connections[id], !c.dropped else { return }
            if c.outbox.flush(to: c.fd) == .failed {
                c.outbox.discard()
                c.dropped = true
            }
            s.connections[id] = c
        }
    }

    /// Reads what the client sent and passes its complete lines on as requests.
    private mutating func read(_ id: Int, _ fd: Int32) {
        let n = Glibc.read(fd, &buffer, buffer.count)
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return }
        guard n > 0 else {
            // Gone, or done sending: its requests still get their replies.
            shared.state.withLock { s in s.connections[id]?.doneSending = true }
            splitters[id] = nil
            return
        }
        var splitter = splitters[id] ?? IPCLineSplitter(maximum: limits.line)
        let othersPending = splitters.reduce(0) { $0 + ($1.key == id ? 0 : $1.value.pending.count) }
        let chunk = buffer[0..<n].withUnsafeBytes { splitter.feed($0, room: limits.pendingInput - othersPending) }
        splitters[id] = splitter
        var requests: [IPCRequest] = []
        var bytes = 0
        for line in chunk.lines {
            bytes += line.count
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty && !text.hasPrefix("#") { requests.append(IPCRequest(connection: id, line: text)) }
        }
        // A line too long to keep is answered as one that is not JSON.
        for _ in 0..<chunk.dropped { requests.append(IPCRequest(connection: id, line: "")) }
        guard !requests.isEmpty else { return }
        shared.state.withLock { s in
            s.inbox.append(contentsOf: requests)
            s.inboxBytes += bytes
            s.connections[id]?.unanswered += requests.count
        }
        arrived()
    }
}
