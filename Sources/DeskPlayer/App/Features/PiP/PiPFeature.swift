// SPDX-License-Identifier: GPL-3.0-or-later

/// The Picture in Picture windows draw each turn after the main window.
final class PiPFeature: AppFeature {
    init(_ core: AppCore) {}

    func update(_ core: AppCore, at now: UInt64) {
        let window = core.window
        core.controller.pips?.refresh(at: now, fullscreenMain: window.isFullscreen ? window.window : nil)
    }

    /// Looked at often while one is open: its window's own events and timers are not the loop's.
    func nextDeadline(_ core: AppCore, at now: UInt64) -> Double? { isAtRest(core) ? nil : lookInterval }

    func isAtRest(_ core: AppCore) -> Bool { core.controller.pips?.isEmpty ?? true }

    func finish(_ core: AppCore) { core.controller.pips?.removeAll() }
}
