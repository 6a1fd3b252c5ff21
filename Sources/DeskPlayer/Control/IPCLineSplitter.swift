// SPDX-License-Identifier: GPL-3.0-or-later

/// Splits what one control-socket client sends into lines, in time linear in
/// the bytes: each chunk is scanned once, from where the last scan stopped,
/// and only the unfinished line is kept. That line is bounded: one longer
/// than `maximum` (or than the room `feed` is given) is dropped whole, up to
/// its newline.
struct IPCLineSplitter {
    /// What a chunk held.
    struct Lines {
        /// The complete lines, without their newline.
        var lines: [[UInt8]] = []
        /// Lines dropped for being too long (each gets an error reply).
        var dropped = 0
    }

    let maximum: Int
    /// The unfinished line so far.
    private(set) var pending: [UInt8] = []
    /// Inside a line that was too long: bytes are skipped up to its newline.
    private var discarding = false

    init(maximum: Int) { self.maximum = maximum }

    /// Adds `chunk`; `room` is how many bytes the unfinished line may hold
    /// (the total bound over every client leaves less than `maximum`).
    mutating func feed(_ chunk: UnsafeRawBufferPointer, room: Int) -> Lines {
        var result = Lines()
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            if discarding {
                discarding = false
            } else if pending.isEmpty {
                result.lines.append(Array(bytes[start..<newline]))
            } else {
                pending.append(contentsOf: bytes[start..<newline])
                result.lines.append(pending)
                pending = []
            }
            start = newline + 1
        }
        if !discarding && start < bytes.count {
            if pending.count + (bytes.count - start) > min(maximum, room) {
                pending = []
                discarding = true
                result.dropped += 1
            } else {
                pending.append(contentsOf: bytes[start...])
            }
        }
        return result
    }
}
