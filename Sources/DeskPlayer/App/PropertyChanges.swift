// SPDX-License-Identifier: GPL-3.0-or-later
import Playback

/// Where property values change, said where it happens (mpv's
/// `mp_notify_property`), so observers (the socket's `observe_property`,
/// MPRIS's PropertiesChanged, the window title) read values again only in
/// a turn after a change, not every turn. A mark is made by a command
/// applied (`CommandController.apply`), by the tiles added, closed,
/// replaced or focused (`TileSet`), and by a player changing on its own
/// (`Player.stateChanges`: an event, a pause or a play), looked at when an
/// observer asks. What changes continuously (the position, counters, the
/// window's state, another thread's work) is a `.polled` property, read at
/// each observer's own rate, as everything was before.
///
/// One count for the whole app, not one per property: properties lean on
/// each other (`pause` and `core-idle`, `playlist-pos` and every property of
/// the item, `aid` and `track-list`'s `selected`), and marks by name would
/// have to list every such tie, where one forgotten is an observer never
/// told. Marks are rare (a person or a client acting, a file starting or
/// ending), so reading every observed value after one costs little; a turn
/// with none reads nothing. Main thread only.
final class PropertyChanges {
    /// Moves with every mark; an observer keeps the one it last read at.
    private var count: UInt64 = 1
    /// Each player's `stateChanges` at the last look, in the tiles' order.
    private var players: [(id: ObjectIdentifier, changes: UInt64)] = []

    /// Something changed here: every observer reads again.
    func mark() { count &+= 1 }

    /// The count now, once the players have been looked at: an observer
    /// that read at another count reads again.
    func generation(_ players: [Player]) -> UInt64 {
        let same = players.count == self.players.count
            && zip(players, self.players).allSatisfy { ObjectIdentifier($0) == $1.id && $0.stateChanges == $1.changes }
        if !same {
            self.players = players.map { (ObjectIdentifier($0), $0.stateChanges) }
            mark()
        }
        return count
    }
}
