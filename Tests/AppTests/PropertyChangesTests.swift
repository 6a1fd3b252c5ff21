// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Playback
import TestSupport

/// Observers are told of a change where it happens (`PropertyChanges`,
/// mpv's `mp_notify_property`): a turn where nothing changed reads no
/// observed property, and a change from a command or from the player
/// itself still reaches the socket's observers as `property-change`.
/// In-process, with a real player decoding the demo.
@Suite struct PropertyChangesTests {
    typealias Client = ControlSocketTests.Client

    /// Properties that do not change while a paused player sits still.
    static let unchanging = ["volume", "mute", "speed", "pause", "filename", "media-title", "loop-file", "playlist-pos",
                             "aid", "content-mode", "path", "playlist/0/filename"]

    /// A paused demo behind an in-process control socket, one client
    /// observing every name in `unchanging` four times over and `time-pos`
    /// once; each observation's first value received.
    final class Watched {
        let rig: CommandTests.Rig
        let dir = Fixtures.temporaryDirectory()
        let socket: ControlSocket
        let watcher: Client
        var observed: Int { PropertyChangesTests.unchanging.count * 4 + 1 }

        init() throws {
            rig = try CommandTests.Rig([Fixtures.asset("demo.mp4")])
            let path = dir.appendingPathComponent("ipc.sock").path
            socket = try ControlSocket(path: path, arrived: {})
            watcher = try Client(path: path)
            var id = 0
            for _ in 0..<4 {
                for name in PropertyChangesTests.unchanging {
                    id += 1
                    watcher.sendLine(#"{"command":["observe_property",\#(id),"\#(name)"]}"#)
                }
            }
            watcher.sendLine(#"{"command":["observe_property",999,"time-pos"]}"#)
        }

        deinit { try? FileManager.default.removeItem(at: dir) }

        /// One turn of the loop as far as observers go: the players tick,
        /// their events are taken, requests are served, changes announced.
        func turn() {
            let now = HostTime.now()
            for tile in rig.tiles.tiles {
                tile.player.tick(at: now)
                _ = tile.playlist.takeEvents()
            }
            socket.serve(rig.controller)
            socket.announce(rig.controller)
        }

        /// The `property-change` for `name` carrying `value`, among what
        /// the turns so far sent (nil when the socket closed or went quiet).
        func heard(_ name: String, _ value: JSONValue) -> Bool {
            while let message = watcher.readMessage() {
                if message["event"] == .string("property-change"), message["name"] == .string(name) {
                    return message["data"] == value
                }
            }
            return false
        }
    }

    @Test func aTurnWithNoChangeReadsOnlyThePolledPropertyAndChangesStillArrive() throws {
        let watched = try Watched()
        let controller = watched.rig.controller
        #expect(eventually { watched.turn(); return watched.socket.observationCount == watched.observed },
                "\(watched.socket.observationCount) of \(watched.observed) observed")
        // Each observation's first value: one property-change apiece.
        var first = 0
        while first < watched.observed, let message = watched.watcher.readMessage() {
            if message["event"] == .string("property-change") { first += 1 }
        }
        #expect(first == watched.observed)
        // The player at rest (its first picture shown, nothing on its way):
        // from here on nothing changes.
        let player = try #require(watched.rig.players.first)
        #expect(eventually { watched.turn(); return player.isAtRest }, "the paused player never came to rest")

        // Twenty turns with nothing changed: the one polled property (the
        // position moves with the clock) is read each turn, the 48 others never.
        let before = controller.propertyReads
        for _ in 0..<20 { watched.turn() }
        #expect(controller.propertyReads - before == 20, "\(controller.propertyReads - before) getters ran in 20 turns")

        // A change by a command, from another client: the turn that applies
        // it tells the observer.
        let other = try Client(path: watched.dir.appendingPathComponent("ipc.sock").path)
        other.sendLine(#"{"command":["set_property","volume",50]}"#)
        #expect(eventually { watched.turn(); return player.volume == 0.5 }, "the request was applied")
        #expect(watched.heard("volume", .number(50)), "set volume 50 reached the observer")

        // A change the player makes on its own, with no command: it plays.
        player.play()
        watched.turn()
        #expect(watched.heard("pause", .bool(false)), "the player's own play reached the observer")
    }
}
