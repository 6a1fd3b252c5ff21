// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media

/// Commands whose work is writing files hand it to the `FileWorker`: the
/// command returns at once (refused when the worker's queue is full), and
/// the outcome is said (stdout, stderr, OSD) and replied to when it has run.
extension CommandController {
    /// Starts `job` on the file worker; refused with one line when `FileWorker.limit` jobs wait already.
    func startFileJob(_ what: String, _ job: @escaping @Sendable () throws(MediaError) -> FileWorker.Outcome) throws(CommandError) {
        guard let ticket = fileWorker.submit(what, job) else {
            let line = "\(what): \(FileWorker.limit) file jobs are waiting already; refused"
            PlayerApp.printError(line)
            osd(line, seconds: 3)
            throw .commandFailed
        }
        startedFileJob = ticket
    }

    /// The ticket of the file job the last command started, once (nil: it started none).
    func takeStartedFileJob() -> Int? {
        defer { startedFileJob = nil }
        return startedFileJob
    }

    /// The file jobs finished since the last call, said as a command's
    /// outcome is (a failure on stderr and the OSD), with the reply each owes.
    func finishFileJobs() -> [(ticket: Int, result: Result<JSONValue, CommandError>)] {
        fileWorker.takeFinished().map { done in
            switch done.result {
            case .success(let outcome):
                for path in outcome.saved { print("Saved: \(path)") }
                if let line = outcome.osd { osd(line, seconds: 3) }
                return (done.ticket, .success(outcome.reply))
            case .failure(let error):
                PlayerApp.printError("\(done.what): \(error)")
                osd("\(done.what): \(error)", seconds: 4)
                return (done.ticket, .failure(.commandFailed))
            }
        }
    }
}
