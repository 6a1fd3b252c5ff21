// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Output
import Synchronization

/// Commands' file work (a frame decoded again, pictures encoded as PNG and
/// written: `screenshot-to-file`, `compare-export-frames`) on one thread of
/// its own, so the main thread keeps playing while it runs. At most `limit`
/// jobs wait or run; one more is refused at once, so a client sending a
/// thousand of them gets errors, not a frozen player. Each job's outcome
/// comes back to the main thread (`takeFinished`), the socket's reply with
/// it. Thread-safe (Mutex).
final class FileWorker: Sendable {
    /// Jobs waiting or running at most.
    static let limit = 4

    /// What a job made.
    struct Outcome: Sendable {
        /// The socket's `data`.
        var reply: JSONValue = .null
        /// Files written, each said on stdout ("Saved: PATH").
        var saved: [String] = []
        /// A line for the OSD.
        var osd: String?
    }

    /// A job done: its ticket (from `submit`), what it was, and how it went.
    struct Finished: Sendable {
        let ticket: Int
        let what: String
        let result: Result<Outcome, MediaError>
    }

    private struct State {
        var waiting = 0
        var lastTicket = 0
        var finished: [Finished] = []
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "deskplayer.file-work", qos: .utility)

    /// Runs `job` after those before it; returns its ticket, or nil (and
    /// nothing runs) when `limit` jobs are waiting already.
    func submit(_ what: String, _ job: @escaping @Sendable () throws(MediaError) -> Outcome) -> Int? {
        let ticket = state.withLock { s -> Int? in
            guard s.waiting < Self.limit else { return nil }
            s.waiting += 1
            s.lastTicket += 1
            return s.lastTicket
        }
        guard let ticket else { return nil }
        queue.async { [self] in
            let result: Result<Outcome, MediaError>
            do throws(MediaError) { result = .success(try job()) } catch { result = .failure(error) }
            state.withLock { s in
                s.waiting -= 1
                s.finished.append(Finished(ticket: ticket, what: what, result: result))
            }
            MainThreadWake.post()
        }
        return ticket
    }

    /// Jobs waiting or running now.
    var waiting: Int { state.withLock { $0.waiting } }

    /// The jobs finished since the last call, in order.
    func takeFinished() -> [Finished] {
        state.withLock { s in
            defer { s.finished.removeAll() }
            return s.finished
        }
    }

    /// Waits until the jobs submitted so far have run, at most `seconds`
    /// (at quit: a picture asked for is written, not cut off).
    func waitUntilIdle(seconds: Double) {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        _ = done.wait(timeout: .now() + seconds)
    }
}
