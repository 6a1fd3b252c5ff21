// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// Chapters as FFmpeg reads them from Matroska, MP4 and Ogg that ffmpeg
/// wrote, mended when the table is damaged, and driven as mpv drives them:
/// `chapter`, `chapters`, `chapter-list`, `add chapter`, PGUP/PGDWN, the
/// OSD, a sync group.
@Suite struct ChapterTests {
    func media() throws -> TaggedMedia { try #require(TaggedMedia.shared, "could not make the test media with ffmpeg") }

    /// ffprobe's reading of a file's chapters: (start seconds, title).
    static func probe(_ path: String) throws -> [(Double, String)] {
        let out = try runTool("ffprobe", ["-v", "error", "-show_chapters", "-of", "compact=p=0:nk=0", path]).stdout
        return out.split(separator: "\n").map { line in
            let fields = Dictionary(line.split(separator: "|").compactMap { field -> (String, String)? in
                let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }, uniquingKeysWith: { $1 })
            return (Double(fields["start_time"] ?? "") ?? -1, fields["tag:title"] ?? "")
        }
    }

    func open(_ path: String) throws -> PlayerItem {
        try openItem(path, size: nil).0
    }

    @Test(arguments: ["mkv", "mp4"])
    func chaptersAreReadAsFFprobeReadsThem(_ kind: String) throws {
        let path = kind == "mkv" ? try media().mkv : try media().mp4
        let item = try open(path)
        defer { item.cancel() }
        let chapters = try #require(item.info?.chapters)
        let probed = try ChapterTests.probe(path)
        #expect(probed.map(\.1) == TaggedMedia.chapterTitles, "ffprobe: \(probed)")
        #expect(chapters.map(\.title) == probed.map(\.1))
        #expect(chapters.map(\.start.seconds) == probed.map(\.0))
        #expect(item.takeWarnings().isEmpty)
    }

    /// Ogg's CHAPTERxxx comments out of order, one an hour before the
    /// start, one after the end: the sane three, sorted, and one warning.
    @Test func aDamagedTableKeepsTheSaneChaptersWithOneWarning() throws {
        let item = try open(try media().badChapters)
        defer { item.cancel() }
        let chapters = try #require(item.info?.chapters)
        #expect(chapters.map(\.title) == ["First", "Back", "Late"])
        #expect(chapters.map(\.start.seconds) == [0, 3, 6])
        #expect(item.takeWarnings() == ["the chapter table is damaged: 2 of 5 chapters left out (1 starting before the "
                                        + "beginning, 1 starting after the end); chapters out of order, sorted by time"])
    }

    @Test func theTableIsMadeOnTheItemsTimeline() {
        func entry(_ ms: Int64?, _ title: String) -> ContainerChapter {
            ContainerChapter(start: ms.map { MediaTime(value: $0, timescale: 1000) }, end: nil, title: title)
        }
        let ten = MediaTime(value: 10, timescale: 1)
        // A sane table: as it is, no warning; the container's start taken off (never below zero).
        let sane = ChapterTable.make(from: [entry(1400, "a"), entry(3400, "b")], offset: MediaTime(value: 1400, timescale: 1000),
                                     duration: ten)
        #expect(sane.chapters.map(\.start.seconds) == [0, 2] && sane.warning == nil)
        #expect(ChapterTable.make(from: [], offset: .zero, duration: nil) == ([], nil))
        // A time no time can hold (a damaged time base): left out.
        #expect(ContainerChapter.time(Int64.max, AVRational(num: 3, den: 1)) == nil)
        #expect(ContainerChapter.time(5, AVRational(num: 1, den: 0)) == nil)
        let untimed = ChapterTable.make(from: [entry(nil, "x"), entry(0, "y")], offset: .zero, duration: ten)
        #expect(untimed.chapters.map(\.title) == ["y"] && untimed.warning?.contains("1 with no time") == true)
        // Without a duration nothing is "after the end".
        #expect(ChapterTable.make(from: [entry(50_000, "far")], offset: .zero, duration: nil).chapters.count == 1)
        // Which chapter plays: -1 before the first, the last started otherwise.
        let chapters = ChapterTable.make(from: [entry(1000, "a"), entry(3000, "b")], offset: .zero, duration: ten).chapters
        #expect([0.5, 1.0, 2.999, 3.0, 9.0].map { ChapterTable.index(at: $0, in: chapters) } == [-1, 0, 0, 1, 1])
    }

    /// Properties, keys and the OSD in-process, as CommandTests drive them.
    @Test func chaptersAreListedSetAndSteppedAsMpvDoes() throws {
        let m = try media()
        let rig = try CommandTests.Rig([m.mkv, Fixtures.asset("tone.wav")])
        let player = rig.players[0]
        func value(_ name: String) throws -> JSONValue { try rig.controller.value(of: name) }
        func at(_ seconds: Double) -> Bool { abs(player.currentTime.seconds - seconds) < 1e-6 }

        #expect(try value("chapters") == .number(3))
        #expect(try value("chapter") == .number(0))
        #expect(try value("chapter-list") == .array(zip(TaggedMedia.chapterTitles, TaggedMedia.chapterStarts).map {
            .object([("title", .string($0.0)), ("time", .number($0.1))])
        }))

        // Set: a seek to its start; out of range refused, nothing moves.
        try rig.apply("set chapter 2")
        #expect(at(5))
        #expect(try value("chapter") == .number(2))
        #expect(throws: CommandError.propertyError) { try rig.apply("set chapter 7") }
        #expect(throws: CommandError.propertyError) { try rig.apply("set chapter 1.5") }
        #expect(at(5))

        // PGDWN early in a chapter: the one before; more than 5 s into it: its own start.
        try rig.controller.handleKey("PGDWN")
        #expect(at(2), "\(player.currentTime.seconds)")
        #expect(rig.screen.messages.last?.text == "Chapter: (2) Middle Part")
        try rig.apply("seek 8.5 absolute")
        try rig.controller.handleKey("PGDWN")
        #expect(at(2), "3.5 s into Ending: back to Middle Part")
        try rig.apply("seek 11 absolute")
        try rig.controller.handleKey("PGDWN")
        #expect(at(5), "6 s into Ending: back to its own start")

        // At the first chapter, previous goes to its start (mpv: chapter -1 is the item's start).
        try rig.apply("set time-pos 1")
        try rig.controller.handleKey("PGDWN")
        #expect(at(0))
        #expect(try value("chapter") == .number(0))
        #expect(rig.screen.messages.filter { $0.topic == "chapter" }.map(\.text) == ["Chapter: (1) Opening"], "one line, replaced")

        // PGUP: the next; past the last, the end (with keep-open the last frame stays).
        try rig.controller.handleKey("PGUP")
        #expect(at(2))
        try rig.controller.apply(.keypress("PGUP"), from: .socket)
        #expect(at(5))
        try rig.controller.handleKey("PGUP")
        #expect(abs(player.currentTime.seconds - (player.currentItem?.duration?.seconds ?? -1)) < 1e-6, "at the end")
        // Absurd steps from a script: the ends, never a trap.
        try rig.apply("add chapter -1e300")
        #expect(at(0))
        try rig.apply("add chapter 1e300")
        #expect(abs(player.currentTime.seconds - (player.currentItem?.duration?.seconds ?? -1)) < 1e-6)

        // A file without chapters: unavailable, as in mpv; 0 of them; the key does nothing.
        try rig.apply("tile-focus 1")
        #expect(throws: CommandError.propertyUnavailable) { try value("chapter") }
        #expect(try value("chapters") == .number(0))
        #expect(try value("chapter-list") == .array([]))
        #expect(throws: CommandError.propertyUnavailable) { try rig.controller.handleKey("PGUP") }
    }

    /// In a sync group a chapter seek moves every tile to the leader's chapter start.
    @Test func aChapterSeekMovesTheSyncGroup() throws {
        let m = try media()
        let rig = try CommandTests.Rig([m.mkv, Fixtures.asset("demo.mp4"), m.mp4], synced: 2)
        let (chaptered, plain, outside) = (rig.players[0], rig.players[1], rig.players[2])
        try rig.controller.handleKey("PGUP")
        #expect(abs(chaptered.currentTime.seconds - 2) < 1e-6 && abs(plain.currentTime.seconds - 2) < 1e-6)
        #expect(outside.currentTime.seconds == 0, "a tile outside the group stays")
        try rig.controller.apply(.set(property: "chapter", value: .number(2)), from: .socket)
        #expect(abs(plain.currentTime.seconds - 5) < 1e-6)
        // From the member without chapters: it has none to say, so the group's chapter is unavailable there.
        #expect(throws: CommandError.propertyUnavailable) {
            try rig.controller.apply(.add(property: "chapter", by: 1), to: .tile(rig.tiles.tiles[1]), from: .socket)
        }
    }

    /// The OSD names the chapter a seek lands in (a key says it at once;
    /// playback crossing into one is the same path, seen by ScreenTests).
    @Test func theOSDSaysWhenTheChapterChanges() throws {
        let rig = try CommandTests.Rig([try media().mkv])
        let announcer = ChapterAnnouncer()
        announcer.update(rig.controller)
        #expect(rig.screen.messages.isEmpty, "not said when the item starts")
        try rig.apply("seek 1")
        announcer.update(rig.controller)
        #expect(rig.screen.messages.isEmpty, "the same chapter")
        try rig.apply("seek 2.5 absolute")
        announcer.update(rig.controller)
        #expect(rig.screen.messages.map(\.text) == ["Chapter: (2) Middle Part"])
        try rig.apply("seek 6 absolute")
        announcer.update(rig.controller)
        #expect(rig.screen.messages.map(\.text) == ["Chapter: (3) Ending"], "one chapter line at a time")
    }
}
