// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport

/// What the control socket says while a gapless queue hands over.
@Suite struct QueueHandOverTests {
    /// Three 2 s items in a gapless queue played on a sound device (SDL's
    /// disk driver, paced like a real one): the queue's position, asked as
    /// fast as the socket answers, never goes back. playlist-pos and
    /// time-pos describe the same item also in the tens of milliseconds
    /// after the audio has moved on to the next item and before the seam
    /// is heard (time-pos read 0 s there, with the old playlist-pos).
    @Test func theQueuePositionNeverGoesBackAcrossAHandOver() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc").path
        let tone = Fixtures.asset("tone.wav")
        let sockets = ControlSocketTests()
        let player = try sockets.startPlayer([tone, tone, tone, "--no-config"], socket: socket,
                                             environment: ["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": "/dev/null"])
        defer { if player.isRunning { player.terminate() } }
        let client = try ControlSocketTests.Client(path: socket)
        // (playlist-pos, time-pos), read with playlist-pos on both sides of time-pos.
        var samples: [(pos: Double, time: Double)] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            guard let pos = client.get("playlist-pos")?.number, let time = client.get("time-pos")?.number,
                  client.get("playlist-pos")?.number == pos else { continue }
            samples.append((pos, time))
            if pos == 2 && time > 0.5 { break }  // both hand-overs are behind
        }
        _ = client.command([.string("quit")])
        #expect(Set(samples.map(\.pos)) == [0, 1, 2], "the queue did not play through: \(samples.last.map { "\($0)" } ?? "nothing")")
        let queueTimes = samples.map { 2 * $0.pos + $0.time }
        let backwards = zip(queueTimes, queueTimes.dropFirst()).filter { $1 < $0 - 0.005 }
        #expect(backwards.isEmpty, "the queue's position went back \(backwards.count) times in \(samples.count) answers: \(backwards.prefix(5))")
    }
}
