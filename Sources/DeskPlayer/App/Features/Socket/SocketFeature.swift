// SPDX-License-Identifier: GPL-3.0-or-later

/// The control socket: requests answered each turn (its server wakes the
/// loop when one arrives), replies owed by file jobs sent once they ran,
/// and observers told last in the turn what changed.
final class SocketFeature: AppFeature {
    init(_ core: AppCore) {}

    func update(_ core: AppCore, at now: UInt64) {
        core.socket?.serve(core.controller)
        // The file jobs' outcomes are said whether or not a client waits for them.
        let fileJobs = core.controller.finishFileJobs()
        core.socket?.replyToFileJobs(fileJobs)
    }

    func announce(_ core: AppCore, at now: UInt64) { core.socket?.announce(core.controller) }
}
