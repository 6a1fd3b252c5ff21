// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Playback
@testable import UI

/// The Picture in Picture state machine, every event order (no window).
@Suite struct PiPControllerTests {
    struct NoWindow: Error, CustomStringConvertible { var description: String { "no window could be created" } }

    @Test func startThenRestore() {
        let pip = PiPController(player: Player())
        var opened = false, closed = false
        pip.start { opened = true }
        #expect(opened && pip.state == .active)
        #expect(pip.takeEvents() == [.willStart, .didStart])
        pip.stop(restore: true) { closed = true }
        #expect(closed && pip.state == .stopped)
        #expect(pip.takeEvents() == [.willStop, .restoreUserInterface, .didStop])
    }

    @Test func startThenClose() {
        let pip = PiPController(player: Player())
        pip.start {}
        _ = pip.takeEvents()
        pip.stop(restore: false) {}
        #expect(pip.takeEvents() == [.willStop, .didStop])
    }

    @Test func failureLeavesThePlayerWhereItWas() {
        let player = Player()
        let pip = PiPController(player: player)
        pip.start { throw NoWindow() }
        #expect(pip.state == .inactive)
        #expect(pip.takeEvents() == [.willStart, .failedToStart("no window could be created")])
        // Stopping what never started says nothing; starting again is allowed.
        pip.stop(restore: true) {}
        #expect(pip.takeEvents().isEmpty)
        pip.start {}
        #expect(pip.takeEvents() == [.willStart, .didStart])
        #expect(pip.player === player)
    }

    @Test func startAndStopAreIdempotent() {
        let pip = PiPController(player: Player())
        var windows = 0
        pip.start { windows += 1 }
        pip.start { windows += 1 }
        #expect(windows == 1)
        pip.stop(restore: false) {}
        pip.stop(restore: false) {}
        #expect(pip.takeEvents() == [.willStart, .didStart, .willStop, .didStop])
    }
}
