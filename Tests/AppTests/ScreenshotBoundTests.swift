// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
@testable import Playback
import TestSupport

/// `s` held down (auto-repeat) asks for a video screenshot per press, each a
/// frame decoded again and a PNG written in the background: past
/// `Screenshots.limit` waiting, a press is refused with a line instead of
/// queueing without end (issue 50).
@Suite struct ScreenshotBoundTests {
    @Test func heldScreenshotKeysAreBounded() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let shots = Screenshots(directory: dir.path)
        for _ in 0..<40 {
            shots.takeVideo(Fixtures.asset("demo.mp4"), at: MediaTime(seconds: 1), settings: VideoFilterSettings())
        }
        // Refusals are reported at once; the accepted pictures as each is written.
        var results = shots.takeFinished()
        let refusedAtOnce = results.filter { if case .failure = $0 { true } else { false } }.count
        #expect(refusedAtOnce >= 40 - Screenshots.limit - 1, "\(refusedAtOnce) of 40 refused as they came")
        #expect(eventually(seconds: 30) {
            results += shots.takeFinished()
            return results.count == 40
        }, "\(results.count) of 40 answered")
        let written = results.compactMap { try? $0.get() }
        #expect((1...Screenshots.limit + 1).contains(written.count), "\(written.count) written")
        #expect(written.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
    }
}
