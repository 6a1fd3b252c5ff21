// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Media
import Playback

/// The chapter properties (`chapter`, `chapters`, `chapter-list`) as mpv
/// has them (`player/command.c`'s mp_property_chapter): the current
/// chapter is the last one started (-1 before the first); setting it seeks
/// to its start; `add chapter -1` more than 5 s into a chapter goes back to
/// its start rather than the one before (mpv's chapter-seek-threshold), and
/// before the first chapter to 0; past the last chapter goes to the end.
enum ChapterProperties {
    /// mpv's `--chapter-seek-threshold` default, in seconds.
    static let seekThreshold = 5.0

    /// `chapter`, `chapters`, `chapter-list`.
    static let all: [Property] = [
        // A seek, so the whole sync group moves (to the leader's chapter start).
        Property("chapter", .number(-1...1e9), format: .integer, scope: .group, get: { t throws(CommandError) in
            .number(Double(try ChapterProperties.current(t)))
        }, set: { t, v throws(CommandError) in try ChapterProperties.seek(t, to: v) },
           add: { t, delta throws(CommandError) in try ChapterProperties.step(t, by: delta) },
           osd: { t in ChapterProperties.osd(t) }),
        Property("chapters", format: .integer, get: { t throws(CommandError) in
            guard let info = try t.item().info else { throw .propertyUnavailable }
            return .number(Double(info.chapters.count))
        }),
        Property("chapter-list", get: { t throws(CommandError) in try ChapterProperties.list(t) }),
    ]

    /// The item's chapters; unavailable while it opens or when it has none.
    static func chapters(_ target: PropertyTarget) throws(CommandError) -> [Chapter] {
        guard let chapters = try target.item().info?.chapters, !chapters.isEmpty else { throw .propertyUnavailable }
        return chapters
    }

    /// The chapter playing (mpv's `chapter`).
    static func current(_ target: PropertyTarget) throws(CommandError) -> Int {
        ChapterTable.index(at: try target.player().currentTime.seconds, in: try chapters(target))
    }

    /// mpv's `chapter-list`: title and start time of each.
    static func list(_ target: PropertyTarget) throws(CommandError) -> JSONValue {
        guard let info = try target.item().info else { throw .propertyUnavailable }
        return .array(info.chapters.map { .object([("title", .string($0.title)), ("time", .number($0.start.seconds))]) })
    }

    /// The chapter `add chapter N` goes to: from the one playing, N on, with
    /// mpv's threshold going back; -1 (the start) below the first; the
    /// chapter count (the end) past the last.
    static func step(_ target: PropertyTarget, by delta: Double) throws(CommandError) -> JSONValue {
        let chapters = try chapters(target)
        let now = try target.player().currentTime.seconds
        let current = ChapterTable.index(at: now, in: chapters)
        guard delta.isFinite else { throw .invalidParameter }
        // Any step past the table is the same as one just past it (and fits an Int).
        var step = Int(min(max(delta, -1e9), 1e9).rounded())
        if step < 0, current >= 0, now - chapters[current].start.seconds > seekThreshold { step += 1 }
        return .number(Double(min(max(current + step, -1), chapters.count)))
    }

    /// Seeks the target's player to chapter `value`'s start, the chapter
    /// read from the group's leader when a sync group moves (one position
    /// for all, as `time-pos`). -1 is the item's start, the chapter count its end.
    static func seek(_ target: PropertyTarget, to value: JSONValue) throws(CommandError) {
        let reference = PropertyTarget(tile: target.leader ?? target.tile, controller: target.controller)
        let chapters = try chapters(reference)
        let n = try PropertyValue.number(value)
        guard n == n.rounded(), n >= -1, n <= Double(chapters.count) else { throw .propertyError }
        let index = Int(saturating: n)
        let time: MediaTime
        if index < 0 {
            time = .zero
        } else if index == chapters.count {
            time = try reference.item().duration ?? chapters[chapters.count - 1].start
        } else {
            time = chapters[index].start
        }
        try target.player().seek(to: time)
    }

    /// What the OSD says of chapter `index`: mpv's "Chapter: (2) Title",
    /// "(2) of 5" without a title.
    static func osdLine(_ index: Int, of chapters: [Chapter]) -> String {
        guard chapters.indices.contains(index) else { return "Chapter: (\(index + 1)) of \(chapters.count)" }
        let title = chapters[index].title
        return "Chapter: (\(index + 1)) " + (title.isEmpty ? "of \(chapters.count)" : title)
    }

    static func osd(_ target: PropertyTarget) -> String? {
        guard let chapters = try? chapters(target), let index = try? current(target) else { return nil }
        return osdLine(index, of: chapters)
    }
}
