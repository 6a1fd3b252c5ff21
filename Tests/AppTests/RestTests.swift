// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Control
@testable import Media
import TestSupport

/// At rest DeskPlayer sleeps as mpv does: paused, nothing of it wakes (no
/// polling thread, no main-loop timer, no sound device playing silence),
/// and playing again brings the sound device back with the clock where it was.
/// One at a time: each measures one process's wake-ups on a display of its own.
@Suite(.serialized) struct RestTests {
    /// Voluntary context switches of every thread of `pid`: one per wake-up.
    static func wakeUps(_ pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { sum, task in
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            return sum + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
        }
    }

    /// SDL's audio threads ("SDLAudioP2" and the like): there while a device is open.
    static func soundDeviceThreads(_ pid: Int32) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.filter { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? "").hasPrefix("SDLAudio")
        }.count
    }

    @Test(.timeLimit(.minutes(2)))
    func aPausedPlayerClosesItsSoundDeviceAndWakesForNothing() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc").path
        let sockets = ControlSocketTests()
        // A real X11 window (SDL's dummy video driver cannot wait for events
        // and would poll), on a display of its own with a window manager:
        // on the suite's shared display other tests' windows and pointer
        // moves pass over it, and each is rightly a wake-up.
        let display = try WindowManagerTests.ManagedDisplay()
        let app = try sockets.startPlayer([Fixtures.asset("demo.mp4"), "--loop=inf", "--geometry", "320x180"],
                                          socket: socket, environment: ["SDL_VIDEODRIVER": "x11", "DISPLAY": display.name])
        defer { app.terminate(); kill(app.processIdentifier, SIGKILL) }
        let pid = app.processIdentifier
        let client = try ControlSocketTests.Client(path: socket)
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > 0.2 }, "it plays")
        #expect(Self.soundDeviceThreads(pid) > 0, "a sound device plays")

        #expect(client.error([.string("set_property"), .string("pause"), .bool(true)]) == "success")
        let closed = eventually(seconds: 15) {
            client.get("window-settled") == .bool(true) && Self.soundDeviceThreads(pid) == 0
        }
        #expect(closed, "paused, the sound device closes (window-unsettled-by: \(client.get("window-unsettled-by") ?? .null))")
        let pausedAt = client.get("time-pos")?.number ?? -1

        // Two seconds with nobody talking to it: mpv paused wakes about
        // once a second; DeskPlayer had 74 wake-ups a second before.
        let before = Self.wakeUps(pid)
        Thread.sleep(forTimeInterval: 2)  // measuring: the wake-ups of 2 s paused
        let woke = Self.wakeUps(pid) - before
        #expect(woke <= 4, "\(woke) wake-ups in 2 s while paused")

        #expect(client.error([.string("set_property"), .string("pause"), .bool(false)]) == "success")
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > pausedAt + 0.5 }, "it plays on from \(pausedAt)")
        #expect(Self.soundDeviceThreads(pid) > 0, "the sound device is back")
        // The clock went on from where it stopped (not from where the host time would have it).
        let resumedAt = client.get("time-pos")?.number ?? 0
        #expect(resumedAt < pausedAt + 2, "no jump: \(pausedAt) -> \(resumedAt)")
    }
}
