// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Foundation
import Synchronization

/// `compare-align`'s work: each rendition's offset against the reference,
/// found on a thread of its own (it decodes the files' starts again, as
/// thumbnails and metrics do), one rendition after another. The main
/// thread takes what is found each turn of its loop (`takeReports`) and
/// never waits for it. Thread-safe: reports and the stop flag are behind
/// `state` (Mutex); the signals belong to the worker.
package final class AlignmentJob: Sendable {
    package enum Method: String, Sendable {
        /// The sound, else the pictures (no sound on a side, or sound that does not match).
        case auto
        case audio
        case video
    }

    /// What was found for one rendition.
    package struct Report: Sendable {
        /// The rendition's index among the compared files (1 the first after the reference).
        package var index: Int
        package var outcome: Outcome
        /// Seconds from the job's start until this report.
        package var elapsed: Double
    }

    package enum Outcome: Sendable {
        case matched(AlignmentMatch)
        /// Nothing matched well enough; the best try, when there was one.
        case noMatch(String, best: AlignmentMatch?)
        case failed(String)
    }

    /// Seconds of the reference read: the other's length plus the search either way.
    static let referenceSeconds = 30.0
    static let otherSeconds = 20.0

    private struct State {
        var reports: [Report] = []
        var finished = false
    }

    private let state = Mutex(State())
    private let interrupt = InterruptFlag()
    let reference: String
    let renditions: [(index: Int, path: String)]
    let method: Method

    package init(reference: String, renditions: [(index: Int, path: String)], method: Method) {
        self.reference = reference
        self.renditions = renditions
        self.method = method
    }

    package func start() {
        let worker = Thread { [self] in work() }
        worker.name = "compare-align"
        worker.start()
    }

    /// Stops the work (a read in progress is interrupted); nothing more is reported.
    package func stop() { interrupt.set() }

    /// What was found since the last call, and whether all is done.
    package func takeReports() -> (reports: [Report], finished: Bool) {
        state.withLock { s in
            defer { s.reports.removeAll() }
            return (s.reports, s.finished)
        }
    }

    private func report(_ index: Int, _ outcome: Outcome, since start: UInt64) {
        guard !interrupt.isSet else { return }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
        state.withLock { $0.reports.append(Report(index: index, outcome: outcome, elapsed: elapsed)) }
    }

    /// The worker: the reference's signals once, then each rendition's.
    private func work() {
        defer { state.withLock { $0.finished = true } }
        let start = DispatchTime.now().uptimeNanoseconds
        var referenceAudio: AlignmentSignals.Audio??
        var referenceVideo: AlignmentSignals.Video??
        for (index, path) in renditions {
            guard !interrupt.isSet else { return }
            do throws(MediaError) {
                var tried: AlignmentMatch?
                var why = "no sound to match"
                if method != .video {
                    if referenceAudio == nil {
                        referenceAudio = .some(try AlignmentSignals.audio(of: reference, seconds: Self.referenceSeconds,
                                                                        interrupt: interrupt))
                    }
                    if let a = referenceAudio ?? nil,
                       let b = try AlignmentSignals.audio(of: path, seconds: Self.otherSeconds, interrupt: interrupt) {
                        tried = OffsetSearch.audio(reference: a.samples, other: b.samples, rate: AlignmentSignals.sampleRate)
                        if let match = tried, match.confidence >= OffsetSearch.audioConfidenceNeeded {
                            report(index, .matched(match), since: start)
                            continue
                        }
                        why = "the sound does not match"
                    } else {
                        why = (referenceAudio ?? nil) == nil ? "A has no sound" : "it has no sound"
                    }
                    if method == .audio {
                        report(index, .noMatch(why, best: tried), since: start)
                        continue
                    }
                }
                if referenceVideo == nil {
                    referenceVideo = .some(try AlignmentSignals.video(of: reference, seconds: Self.referenceSeconds,
                                                                    interrupt: interrupt))
                }
                guard let a = referenceVideo ?? nil,
                      let b = try AlignmentSignals.video(of: path, seconds: Self.otherSeconds, interrupt: interrupt),
                      let match = OffsetSearch.video(reference: a, other: b) else {
                    report(index, .noMatch(method == .video ? "no pictures to match" : why + ", and no pictures to match",
                                           best: tried), since: start)
                    continue
                }
                if match.confidence < OffsetSearch.videoConfidenceNeeded {
                    report(index, .noMatch(method == .video ? "the pictures do not match" : why + ", nor do the pictures",
                                           best: match), since: start)
                } else {
                    report(index, .matched(match), since: start)
                }
            } catch {
                report(index, .failed(error.message), since: start)
            }
        }
    }
}
