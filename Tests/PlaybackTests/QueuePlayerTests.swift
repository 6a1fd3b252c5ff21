// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import Playback
import TestSupport

/// AVQueuePlayer's verbs on real items (no device: the player is driven headless).
@Suite struct QueuePlayerTests {
    func item(_ name: String) -> PlayerItem { PlayerItem(Fixtures.asset(name)) }

    @Test func queueVerbsKeepTheOrderAndPrerollTheNextItem() throws {
        let a = item("tone.wav"), b = item("tone.flac"), c = item("tone.mp3"), d = item("tone.opus")
        let queue = QueuePlayer(items: [a, b, c]) { PlayerItem($0.name) }
        #expect(queue.player.currentItem === a)
        #expect(queue.player.upcomingItem === b)
        // The upcoming item opens in the background before its turn.
        #expect(b.waitUntilLoaded() == .readyToPlay)
        queue.insert(d, after: a)
        #expect(queue.items.map(\.name) == [a, d, b, c].map(\.name))
        #expect(queue.player.upcomingItem === d)
        queue.remove(b)
        #expect(queue.items.map(\.name) == [a, d, c].map(\.name))
        queue.advanceToNextItem()
        #expect(queue.player.currentItem === d && queue.player.upcomingItem === c)
        queue.playPrevious()
        #expect(queue.player.currentItem?.name == a.name)
        let e = item("tone-aac48.m4a")
        queue.replaceCurrentItem(with: e)
        #expect(queue.player.currentItem === e && queue.items.count == 3)
        queue.removeAllItems()
        #expect(queue.items.isEmpty && queue.player.currentItem == nil && queue.player.upcomingItem == nil)
    }

    @Test func anUpcomingItemThatFailsIsReportedAndSkipped() throws {
        let a = item("tone.wav"), bad = PlayerItem("/nonexistent/x.mp4"), c = item("tone.flac")
        let queue = QueuePlayer(items: [a, bad, c]) { PlayerItem($0.name) }
        #expect(bad.waitUntilLoaded() != .readyToPlay)
        var failed: [String] = []
        for event in queue.takeEvents() {
            if case .itemFailed(let item, _) = event { failed.append(item.name) }
        }
        #expect(failed == ["/nonexistent/x.mp4"])
        #expect(queue.items.map(\.name) == [a.name, c.name])
        #expect(queue.player.upcomingItem === c)
    }

    @Test func playlistLoopRefillsTheQueue() throws {
        let queue = QueuePlayer(items: [item("tone.wav"), item("tone.flac")]) { PlayerItem($0.name) }
        queue.loopsQueue = true
        queue.advanceToNextItem()
        #expect(queue.items.map { DisplayText.shortName($0.name) } == ["tone.flac", "tone.wav", "tone.flac"])
        #expect(queue.player.upcomingItem?.name == Fixtures.asset("tone.wav"))
    }
}
