// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// What the player wrote to one control-socket client and the client has not
/// read yet. Whole lines go in; `flush` sends what the socket takes without
/// waiting (the descriptor is non-blocking) and keeps the rest for the next
/// time the socket is writable, so a client that reads late still gets every
/// line whole. Bounded: a line that would take it past `capacity` is refused
/// and the owner disconnects the client.
struct IPCOutbox {
    enum Flush {
        /// Everything was sent.
        case empty
        /// The socket is full: the rest waits for it to be writable.
        case waiting
        /// The client is gone (EPIPE, ECONNRESET…).
        case failed
    }

    let capacity: Int
    private var bytes: [UInt8] = []
    /// Bytes of `bytes` already sent.
    private var head = 0

    init(capacity: Int) { self.capacity = capacity }

    /// Bytes not sent yet.
    var count: Int { bytes.count - head }
    var isEmpty: Bool { count == 0 }

    /// Adds `line` and its newline; false (and nothing added) when that would
    /// pass the capacity.
    mutating func append(_ line: String) -> Bool {
        let size = line.utf8.count + 1
        guard count + size <= capacity else { return false }
        bytes.append(contentsOf: line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return true
    }

    /// Sends what `fd` takes now.
    mutating func flush(to fd: Int32) -> Flush {
        while head < bytes.count {
            let n = bytes[head...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                head += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // Sent bytes are let go once they are most of the buffer: each
                // byte is moved at most once more, however slowly the client reads.
                if head >= bytes.count / 2 {
                    bytes.removeFirst(head)
                    head = 0
                }
                return .waiting
            }
            return .failed
        }
        bytes = []
        head = 0
        return .empty
    }

    /// Forgets everything (the client is being disconnected).
    mutating func discard() {
        bytes = []
        head = 0
    }
}
