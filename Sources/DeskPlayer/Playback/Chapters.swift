// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// One chapter on an item's timeline (an entry of mpv's `chapter-list`).
package struct Chapter: Sendable, Equatable {
    /// Where it starts on the item's timeline (the container's start taken off, as for every timestamp).
    package let start: MediaTime
    /// Its title tag; "" without one, as mpv lists it.
    package let title: String
}

/// An item's chapters made from the container's table: what a person can
/// jump between, in time order, each inside the item. A table that breaks
/// that is mended, never trusted: chapters starting before the beginning,
/// after the end or at no time are left out, ones out of order are sorted
/// (as mpv sorts them), and one line says what was done.
package enum ChapterTable {
    /// The chapters of `table` that make sense on a timeline starting at
    /// `offset` (container time) and lasting `duration` (nil: unknown), and
    /// the one warning when some did not.
    static func make(from table: [ContainerChapter], offset: MediaTime,
                     duration: MediaTime?) -> (chapters: [Chapter], warning: String?) {
        var kept: [Chapter] = []
        var untimed = 0, early = 0, late = 0
        for entry in table {
            guard let start = entry.start else { untimed += 1; continue }
            guard start >= .zero else { early += 1; continue }
            let onTimeline = max(start - offset, .zero)
            if let duration, onTimeline > duration { late += 1; continue }
            kept.append(Chapter(start: onTimeline, title: entry.title))
        }
        let inOrder = zip(kept, kept.dropFirst()).allSatisfy { $0.start <= $1.start }
        if !inOrder {
            // Stable: chapters starting together keep the file's order.
            kept = kept.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        }
        var reasons: [String] = []
        if early > 0 { reasons.append("\(early) starting before the beginning") }
        if late > 0 { reasons.append("\(late) starting after the end") }
        if untimed > 0 { reasons.append("\(untimed) with no time") }
        guard !reasons.isEmpty || !inOrder else { return (kept, nil) }
        var warning = "the chapter table is damaged:"
        if !reasons.isEmpty {
            warning += " \(table.count - kept.count) of \(table.count) chapters left out (\(reasons.joined(separator: ", ")))"
        }
        if !inOrder { warning += (reasons.isEmpty ? "" : ";") + " chapters out of order, sorted by time" }
        return (kept, warning)
    }

    /// The chapter playing at `seconds` on the item's timeline: the last
    /// one started, -1 before the first (mpv's `chapter`).
    package static func index(at seconds: Double, in chapters: [Chapter]) -> Int {
        // A seek to a chapter lands on its start within rounding to the microsecond.
        (chapters.lastIndex { $0.start.seconds <= seconds + 1e-6 }) ?? -1
    }
}

private func < (a: (MediaTime, Int), b: (MediaTime, Int)) -> Bool {
    a.0 != b.0 ? a.0 < b.0 : a.1 < b.1
}
