// SPDX-License-Identifier: GPL-3.0-or-later
import UI

/// The Picture in Picture windows draw each turn after the main window.
final class PiPFeature: AppFeature {
    private let window: MainWindow

    /// Nil without an SDL window: the mini windows stay above it.
    init?(_ core: AppCore) {
        guard let window = core.window else { return nil }
        self.window = window
    }

    func update(_ core: AppCore, at now: UInt64) {
        core.controller.pips?.refresh(at: now, fullscreenMain: window.isFullscreen ? window.window : nil)
    }

    /// Looked at often while one is open: its window's own events and timers are not the loop's.
    func nextDeadline(_ core: AppCore, at now: UInt64) -> Double? { isAtRest(core) ? nil : lookInterval }

    func isAtRest(_ core: AppCore) -> Bool { core.controller.pips?.isEmpty ?? true }

    func finish(_ core: AppCore) { core.controller.pips?.removeAll() }
}
