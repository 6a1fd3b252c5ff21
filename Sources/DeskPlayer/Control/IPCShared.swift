// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Synchronization

/// What the control socket's thread and the main thread share: the clients,
/// what each has not been answered or sent yet, and a pipe that wakes the
/// socket thread from its poll (the main thread never waits on it or on a
/// client: every write is non-blocking).
final class IPCShared: Sendable {
    struct Connection {
        let fd: Int32
        /// Requests read but not yet answered.
        var unanswered = 0
        /// The client finished sending (`echo … | socat`): it is closed
        /// once its last request is answered and its replies are sent.
        var doneSending = false
        /// Lines not sent yet: the socket thread sends them when the client reads.
        var outbox: IPCOutbox
        /// Gone, or disconnected for not reading: the socket thread closes it.
        var dropped = false

        /// Closed by the socket thread on its next turn.
        var finished: Bool { dropped || (doneSending && unanswered <= 0 && outbox.isEmpty) }
    }

    struct State {
        var connections: [Int: Connection] = [:]
        var inbox: [IPCRequest] = []
        /// The bytes of the lines in `inbox`.
        var inboxBytes = 0
        var nextID = 1
        var stopping = false
        /// Connections closed since the main thread last asked.
        var closed: [Int] = []
    }

    let state = Mutex(State())
    let limits: IPCServer.Limits
    /// Writes a line on stderr (`deskplayer: …`); never called with the lock held.
    let say: @Sendable (String) -> Void
    /// The socket thread polls `wakeRead`; anyone writes a byte to `wakeWrite`.
    let wakeRead: Int32, wakeWrite: Int32

    init(limits: IPCServer.Limits, say: @escaping @Sendable (String) -> Void, wake: (read: Int32, write: Int32)) {
        self.limits = limits
        self.say = say
        (wakeRead, wakeWrite) = wake
    }

    /// Wakes the socket thread (the pipe is non-blocking: a full pipe already wakes it).
    func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    /// Queues `line` for connection `id` and sends what the socket takes now.
    /// Called with the lock held; returns whether the socket thread must look
    /// again (lines wait, or the client is to be closed) and a line for stderr.
    static func enqueue(_ line: String, to id: Int, in s: inout State,
                        limits: IPCServer.Limits) -> (wake: Bool, message: String?) {
        guard var c = s.connections[id], !c.dropped else { return (false, nil) }
        defer { s.connections[id] = c }
        let waiting = !c.outbox.isEmpty
        guard c.outbox.append(line) else {
            c.outbox.discard()
            c.dropped = true
            return (true, "control socket: client \(id) is not reading its replies (over \(limits.outbox >> 20) MiB waiting): disconnected")
        }
        // Lines already waiting go first: the socket thread sends them when it can.
        if waiting { return (false, nil) }
        switch c.outbox.flush(to: c.fd) {
        case .empty: return (false, nil)
        case .waiting: return (true, nil)
        case .failed:
            c.outbox.discard()
            c.dropped = true
            return (true, nil)
        }
    }
}
