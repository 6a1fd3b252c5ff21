// SPDX-License-Identifier: GPL-3.0-or-later
import Collections
import Foundation
import Media

/// What travels from the demux thread to a decode thread. Every entry carries
/// the serial of the seek generation it belongs to; decoders drop stale ones.
enum PacketEntry: @unchecked Sendable {  // the packet is owned by whoever holds the entry
    case packet(Packet, serial: Int)
    /// The input ended for this serial: drain the decoder.
    case endOfStream(serial: Int)
    /// A loop pass ended; the packets after it are the item again from zero.
    case passEnd(serial: Int)
    /// The pass being read ends at this container time (its video's end,
    /// `PassBounds.video`): the audio decoder cuts what it decodes past it.
    /// It comes before the first packet that could reach past it.
    case passEndsAt(MediaTime, serial: Int)

    var serial: Int {
        switch self {
        case .packet(_, let s), .endOfStream(let s), .passEnd(let s), .passEndsAt(_, let s): return s
        }
    }
}

/// A FIFO of packets between the demux thread and one decode thread. Its
/// size in bytes and in stream time lets the demuxer honour the forward
/// buffer. Thread-safe: guarded by its NSCondition.
final class PacketQueue: @unchecked Sendable {  // guarded by `condition`: a decoder waits on it for the next entry
    private let condition = NSCondition()
    private var entries = Deque<PacketEntry>()
    private var aborted = false
    private(set) var serial = 0
    private var bytes = 0
    private var durationTicks: Int64 = 0
    /// Told when an entry is taken: room for the demuxer.
    private let taken: WakeSignal?

    init(taken: WakeSignal? = nil) { self.taken = taken }

    /// Adds an entry; stale entries (older serial) are dropped here.
    func put(_ entry: PacketEntry) {
        condition.lock()
        defer { condition.unlock() }
        guard !aborted, entry.serial == serial else { return }
        if case .packet(let p, _) = entry {
            bytes += p.size
            durationTicks += max(p.duration, 0)
        }
        entries.append(entry)
        condition.signal()
    }

    /// Waits for the next entry; nil once the queue is aborted.
    func get() -> PacketEntry? {
        condition.lock()
        defer { condition.unlock() }
        while entries.isEmpty && !aborted { condition.wait() }
        if aborted { return nil }
        let entry = entries.removeFirst()
        if case .packet(let p, _) = entry {
            bytes -= p.size
            durationTicks -= max(p.duration, 0)
        }
        taken?.signal()
        return entry
    }

    /// Empties the queue and starts a new serial (after a seek).
    func flush(serial newSerial: Int) {
        condition.lock()
        entries.removeAll()
        bytes = 0
        durationTicks = 0
        serial = newSerial
        condition.signal()
        condition.unlock()
    }

    func abort() {
        condition.lock()
        aborted = true
        entries.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// (bytes, summed packet durations in stream ticks, entry count).
    var fill: (bytes: Int, ticks: Int64, count: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (bytes, durationTicks, entries.count)
    }
}
