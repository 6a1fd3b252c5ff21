// SPDX-License-Identifier: GPL-3.0-or-later

/// The sound device follows the loop's rest (closed a second into one:
/// SDL's audio thread wakes for every buffer, silence or not; open again
/// the turn anything moves), and its notices (lost, back) are said.
final class SoundFeature: AppFeature {
    init(_ core: AppCore) {}

    func update(_ core: AppCore, at now: UInt64) {
        for notice in core.controller.audioOutput?.takeNotices() ?? [] {
            core.report(notice.line, shown: notice.short)
        }
    }

    func willWait(_ core: AppCore, resting: Bool) {
        core.controller.audioOutput?.setResting(resting)
    }
}
