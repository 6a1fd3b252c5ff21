// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import Analysis
import TestSupport

/// The playlist panel's previews queue a bounded number of names: asked
/// for thousands while the worker is busy, it keeps the newest and drops
/// the oldest not yet started, and still makes what is asked for last.
@Suite struct PlaylistPreviewTests {
    @Test func theQueueKeepsOnlyTheNewestRequests() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A FIFO with no writer: opening it holds the worker until the test opens the other end.
        let fifo = folder.appendingPathComponent("held.mkv").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let previews = PlaylistPreviews()
        #expect(previews.preview(of: fifo) == nil)
        #expect(eventually { previews.waiting.isEmpty }, "the worker took the FIFO and is held opening it")

        let demo = Fixtures.asset("demo.mp4")
        let early = Fixtures.asset("compare.mp4")
        #expect(previews.preview(of: early) == nil)
        for i in 0..<1000 { _ = previews.preview(of: folder.appendingPathComponent("missing-\(i).mkv").path) }
        #expect(previews.preview(of: demo) == nil)
        let waiting = previews.waiting
        #expect(waiting.count == PlaylistPreviews.queueLimit)
        #expect(waiting.last == demo && !waiting.contains(early), "the newest are kept, the oldest dropped")

        // Let the worker go: the FIFO opens, gives nothing, and the queue drains to the newest request.
        let writer = open(fifo, O_WRONLY)
        #expect(writer >= 0)
        close(writer)
        var made: PlaylistPreviews.Preview?
        #expect(eventually { made = previews.preview(of: demo); return made != nil })
        #expect((made?.duration ?? 0) > 1, "its duration was read from the file")
        #expect(made?.picture != nil, "the newest request was decoded into a picture")
    }
}
