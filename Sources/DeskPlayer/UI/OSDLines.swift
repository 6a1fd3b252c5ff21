// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// The lines the OSD holds: each until its time is up, a line with a topic
/// replacing the one before on it, and never more than `limit` (the newest
/// kept), so a client sending `show-text` without end does not grow a list
/// the window sorts through every refresh. Main thread only.
struct OSDLines {
    /// Lines kept; the window shows the newest three of them.
    static let limit = 8

    private(set) var lines: [(text: String, topic: String?, until: UInt64)] = []

    var isEmpty: Bool { lines.isEmpty }

    /// Adds `text` (bounded to a line's length) until `until`; the oldest go past `limit`.
    mutating func add(_ text: String, topic: String?, until: UInt64) {
        if let topic { lines.removeAll { $0.topic == topic } }
        lines.append((DisplayText.bounded(text), topic, until))
        if lines.count > Self.limit { lines.removeFirst(lines.count - Self.limit) }
    }

    /// Drops the lines whose time is up at `now`; true when any went.
    mutating func expire(at now: UInt64) -> Bool {
        let before = lines.count
        lines.removeAll { $0.until <= now }
        return lines.count != before
    }
}
