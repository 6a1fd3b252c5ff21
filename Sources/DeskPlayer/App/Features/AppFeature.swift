// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Playback

/// The one face every feature shows the main loop, as mpv's core calls each
/// subsystem and sleeps until the earliest deadline any of them gave: the
/// loop asks the features `FeatureRegistry` lists and names none of them.
/// Each method but `init` has a default that does nothing, so a feature writes only
/// what it needs. Main thread only.
protocol AppFeature: AnyObject {
    /// The window is open and the tiles are not made yet, nor input.conf
    /// read: what must be in place before them (a comparison's view, keys
    /// and kind of pictures).
    static func windowOpening(_ core: AppCore)
    /// Made once the window is open and the tiles made; nil when the options leave it out.
    init?(_ core: AppCore)
    /// Its properties, in the one table `set`, `cycle`, the socket and MPRIS share.
    static var properties: [Property] { get }
    /// Its commands, in the one command table: each parses to
    /// `Command.feature` and runs here, whatever sent it.
    static var commands: [FeatureCommand] { get }
    /// The default keys of its commands (after the table's own; input.conf rebinds them as any).
    static var keys: [KeyBinding] { get }
    /// Its items of the context menu (`FeatureRegistry.menuTable` places them).
    static var menu: [FeatureMenu] { get }
    /// Before the window draws in this turn (the players have ticked and their events are taken).
    func prepare(_ core: AppCore, at now: UInt64)
    /// This turn's work once the window drew: serve what arrived, take what other threads finished.
    func update(_ core: AppCore, at now: UInt64)
    /// Last in the turn, after the events of this turn's commands: tell
    /// whoever watches what changed (at rest the next turn may be long in coming).
    func announce(_ core: AppCore, at now: UInt64)
    /// Seconds from `now` until it needs a turn though nothing wakes it; nil: never.
    func nextDeadline(_ core: AppCore, at now: UInt64) -> Double?
    /// Nothing of its own is on its way: the loop may wait with no end.
    func isAtRest(_ core: AppCore) -> Bool
    /// The loop is about to wait with no end: say now what is left to say.
    /// False when it has more to write (the loop then turns again soon).
    func settle(_ core: AppCore, at now: UInt64) -> Bool
    /// The loop is about to wait; `resting`: with no end.
    func willWait(_ core: AppCore, resting: Bool)
    /// The loop ended: stop its work and free what belongs to the window.
    func finish(_ core: AppCore)
}

extension AppFeature {
    static var properties: [Property] { [] }
    static var commands: [FeatureCommand] { [] }
    static var keys: [KeyBinding] { [] }
    static var menu: [FeatureMenu] { [] }
    static func windowOpening(_ core: AppCore) {}
    func prepare(_ core: AppCore, at now: UInt64) {}
    func update(_ core: AppCore, at now: UInt64) {}
    func announce(_ core: AppCore, at now: UInt64) {}
    func nextDeadline(_ core: AppCore, at now: UInt64) -> Double? { nil }
    func isAtRest(_ core: AppCore) -> Bool { true }
    func settle(_ core: AppCore, at now: UInt64) -> Bool { true }
    func willWait(_ core: AppCore, resting: Bool) {}
    func finish(_ core: AppCore) {}

    /// How often a feature whose threads do not wake the loop is looked at while it works.
    var lookInterval: Double { Player.lookInterval }
}
