// SPDX-License-Identifier: GPL-3.0-or-later

/// MPRIS on the session bus: calls answered each turn (a watch thread wakes
/// the loop when one arrives), changes announced before the loop rests.
final class MPRISFeature: AppFeature {
    /// Nil without a session bus; let go at the end (it leaves the bus).
    private var service: MPRISService?

    init(_ core: AppCore) {
        service = MPRISService.start(controller: core.controller, verbose: core.options.verbose)
    }

    func update(_ core: AppCore, at now: UInt64) { service?.serve(at: now) }

    func settle(_ core: AppCore, at now: UInt64) -> Bool { service?.settle(at: now) != true }

    func finish(_ core: AppCore) { service = nil }
}
