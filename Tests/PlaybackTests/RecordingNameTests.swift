// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Playback
import TestSupport

/// A recording's name: the date and time it started, " (2)"… where taken.
@Suite struct RecordingNameTests {
    static let date = DateComponents(calendar: Calendar.current, year: 2026, month: 3, day: 7, hour: 9, minute: 5, second: 2).date

    @Test func theNameSaysWhenItStarted() throws {
        #expect(RecordingName.base(at: try #require(Self.date)) == "Video 2026-03-07 09-05-02")
    }

    @Test func aTakenNameGetsANumber() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let date = try #require(Self.date)
        let first = RecordingName.free(in: dir, at: date)
        #expect(first.lastPathComponent == "Video 2026-03-07 09-05-02.mp4")
        try Data().write(to: first)
        #expect(RecordingName.free(in: dir, at: date).lastPathComponent == "Video 2026-03-07 09-05-02 (2).mp4")
        try Data().write(to: RecordingName.free(in: dir, at: date))
        #expect(RecordingName.free(in: dir, at: date).lastPathComponent == "Video 2026-03-07 09-05-02 (3).mp4")
    }
}
