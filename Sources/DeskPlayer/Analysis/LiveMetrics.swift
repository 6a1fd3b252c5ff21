// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import CFFmpeg
import Foundation
import Synchronization

/// PSNR/SSIM while two files play compared: a `MetricsScan` of the same two
/// files on its own thread, at the lowest CPU priority there is (Linux's
/// SCHED_IDLE, inherited by FFmpeg's decoder and filter threads), so it
/// takes only what playback leaves and never costs it a frame. It follows
/// the playhead: when the frame on screen has not been measured and the
/// scan is not about to reach it, the scan starts again there; once it has
/// reached the end it fills what it skipped. Thread-safe: what was
/// measured is kept in `state` (Mutex); the scan belongs to the worker.
package final class LiveMetrics: @unchecked Sendable {  // shared state in `state` (Mutex); the scan belongs to the worker thread
    /// What the window draws: per column of the timeline the lowest value
    /// of the graphed metric (SSIM when measured, else PSNR), the worst
    /// frames, and a version that changes with any of it.
    package struct Snapshot: Sendable {
        package var version = 0
        package var duration: Double?
        package var columns: [Double?] = []
        /// Per column, the largest coded frame of each side and whether a keyframe is among them.
        package var coded: [CodedColumn?] = []
        package var worst: [MeasuredFrame] = []
        package var measuredFrames = 0
        package var expectedFrames: Int?

        package init() {}
    }

    /// What the rows under the strip draw for a column: each side's largest packet, and a keyframe among its frames.
    package struct CodedColumn: Sendable, Equatable {
        package var sizeA = 0
        package var sizeB = 0
        package var keyA = false
        package var keyB = false
    }

    package enum Restart: Equatable {
        case at(Double)
        case nextGap
    }

    private struct State {
        package var frames: [Int: MeasuredFrame] = [:]
        package var snapshot = Snapshot()
        package var notices: [String] = []
        /// Why nothing is measured (the pair was refused or could not be opened).
        package var failure: String?
        package var restart: Restart?
        package var stopped = false
        /// The running scan: where it started and the last time it measured.
        package var scanFrom = 0.0
        package var frontier: Double?
        package var running = false
        package var frameRate = 0.0
        /// Frames a scan from just before them could not measure (a
        /// variable frame rate leaves numbers no frame has): not tried again.
        package var unfillable: Set<Int> = []
        /// The frame the running scan was started for, when it fills a gap.
        package var gap: Int?
        /// The worker's kernel thread id, once it runs (what `stop` lifts out of SCHED_IDLE).
        package var workerThread: pid_t?
        /// Whether the worker has ended (its scan and decoders let go).
        package var ended = false
    }

    package static let columnCount = 1000
    package let reference: String
    package let other: String
    package let metrics: Set<VideoMetric>
    private let state = Mutex(State())
    /// Wakes the worker waiting for something to measure; signalling never blocks the main thread.
    private let wake = DispatchSemaphore(value: 0)

    package init(reference: String, other: String, metrics: Set<VideoMetric>) {
        self.reference = reference
        self.other = other
        self.metrics = metrics
    }

    deinit { stop() }

    package func start() {
        let worker = Thread { [self] in work() }
        worker.name = "live-metrics"
        worker.start()
    }

    /// Ends the scan (it stops within a frame) and the thread. The worker
    /// runs under SCHED_IDLE, which on a busy machine (three videos playing
    /// on two cores) gives it almost no time: a stopped scan would hold its
    /// decoders and pictures (some 100 MB) for minutes, and turning the
    /// metrics off and on again piled one starving scan on another (the door
    /// soak, issue 50: 2,500 threads and 4 GB). So a stopped worker is put
    /// back to the normal policy at the lowest priority, enough to wind down.
    package func stop() {
        let worker = state.withLock { s -> pid_t? in
            s.stopped = true
            return s.ended ? nil : s.workerThread
        }
        wake.signal()
        if let worker { LiveMetrics.leaveIdlePolicy(worker) }
    }

    /// Whether the worker has ended (tests).
    package var hasEnded: Bool { state.withLock { $0.ended } }

    /// The worker's kernel thread id while it runs (tests).
    package var workerThread: pid_t? { state.withLock { $0.ended ? nil : $0.workerThread } }

    /// SCHED_OTHER at nice 19 for thread `tid` (policy 0 in Linux's sched.h).
    static func leaveIdlePolicy(_ tid: pid_t) {
        var parameter = sched_param(sched_priority: 0)
        _ = sched_setscheduler(tid, 0, &parameter)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid), 19)
    }

    /// What the window needs each refresh, taken in one go.
    package struct Poll: Sendable {
        package var version: Int
        /// The values of the reference's frame at the playhead, when measured.
        package var current: FrameMetrics?
        package var notices: [String]
        /// Why nothing is measured, when the pair was refused or could not be opened.
        package var failure: String? = nil
        package var measuredFrames: Int
        package var expectedFrames: Int?
    }

    /// Called each refresh (main thread) with the reference's time on
    /// screen: the scan follows it, and what was measured comes back. Nil
    /// when the worker holds the state this instant: it runs at idle
    /// priority, and the main thread waiting for it would wait for every
    /// other busy thread on the machine (priority inversion); the next
    /// refresh asks again.
    package func poll(playhead seconds: Double) -> Poll? {
        let answer = state.withLockIfAvailable { s -> (Poll, Bool) in
            var restart = false
            var current: FrameMetrics?
            if !s.stopped, s.frameRate > 0 {
                let index = Int(saturating: (seconds * s.frameRate).rounded())
                current = s.frames[index]?.metrics
                restart = current == nil && LiveMetrics.shouldRestart(s, at: seconds)
                if restart { s.restart = .at(max(0, seconds)) }
            }
            let poll = Poll(version: s.snapshot.version, current: current, notices: s.notices, failure: s.failure,
                            measuredFrames: s.snapshot.measuredFrames, expectedFrames: s.snapshot.expectedFrames)
            s.notices.removeAll()
            return (poll, restart)
        }
        guard let (poll, restart) = answer else { return nil }
        if restart {
            wake.signal()
        }
        return poll
    }

    /// Whether the scan should start again at `seconds` (not measured there):
    /// it is not running, or started after it, or will not reach it soon.
    private static func shouldRestart(_ s: State, at seconds: Double) -> Bool {
        if case .at(let t)? = s.restart, abs(t - seconds) < 1 { return false }
        guard s.running else { return true }
        if let frontier = s.frontier { return seconds < s.scanFrom || seconds > frontier + 2 }
        return abs(seconds - s.scanFrom) >= 2
    }

    /// The graph's data, or nil when the worker holds it this instant (see `poll`).
    package func trySnapshot() -> Snapshot? { state.withLockIfAvailable { $0.snapshot } }

    /// How many frames the reference has, when known (waits for the lock: at exit).
    package var measuredTotal: Int? { state.withLock { $0.snapshot.expectedFrames } }

    /// Every frame measured so far, in order (for the CSV at exit).
    package var measuredFrames: [MeasuredFrame] { state.withLock { $0.frames.values.sorted { $0.index < $1.index } } }

    // MARK: The worker

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func work() {
        // SCHED_IDLE (5 in Linux's sched.h, not exported to Swift): run only
        // when a core would be idle; threads made from here inherit it.
        var parameter = sched_param(sched_priority: 0)
        if sched_setscheduler(0, 5, &parameter) != 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19) }
        // The kernel's id of this thread (glibc's gettid is not exported to Swift): /proc/thread-self is PID/task/TID.
        let thread = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
            .flatMap { $0.split(separator: "/").last }.flatMap { pid_t($0) }
        let stoppedAlready = state.withLock { s -> Bool in
            s.workerThread = thread
            return s.stopped
        }
        defer { state.withLock { $0.ended = true } }
        // Stopped before it ran: stop() had no thread to lift.
        if stoppedAlready { return }
        var from = 0.0
        var said = Set<String>()
        while !isStopped {
            let scan: MetricsScan
            do {
                scan = try MetricsScan(reference: reference, other: other, metrics: metrics, graphThreads: 1)
            } catch {
                note("cannot measure: \(error)", &said)
                state.withLock { $0.failure = "\(error)" }
                return
            }
            let rate = av_q2d(scan.reference.frameRate)
            let expected = scan.reference.expectedFrames
            let duration = scan.reference.duration
            state.withLock { s in
                s.frameRate = rate > 0 ? rate : 25
                s.snapshot.duration = duration
                s.snapshot.expectedFrames = expected
                if s.snapshot.columns.isEmpty { s.snapshot.columns = Array(repeating: nil, count: LiveMetrics.columnCount) }
                s.scanFrom = from
                s.frontier = nil
                s.running = true
                s.restart = nil
            }
            var fresh = 0
            let outcome = scan.run(from: from, notice: { line in note(line, &said) },
                                   shouldStop: { state.withLock { $0.stopped || $0.restart != nil } },
                                   measured: { frames in
                                       fresh += record(frames, fillingGap: from > 0 && fresh > 0, fromStart: from <= 0)
                                   })
            state.withLock { s in
                s.running = false
                // Not when the playhead called the scan away before it got there.
                var calledAway = false
                if case .at? = s.restart { calledAway = true }
                if let gap = s.gap, s.frames[gap] == nil, !calledAway { s.unfillable.insert(gap) }
                s.gap = nil
            }
            if case .failed(let reason) = outcome { note(reason, &said) }
            // Next: where the playhead asked, else the first frame not measured, else wait.
            guard let next = nextStart() else { return }
            from = next
        }
    }

    /// Where to scan next, waiting for a reason when everything is measured; nil once stopped.
    private func nextStart() -> Double? {
        while true {
            let decision = state.withLock { s -> (stop: Bool, start: Double?) in
                if s.stopped { return (true, nil) }
                if case .at(let t)? = s.restart { s.restart = nil; return (false, t) }
                s.restart = nil
                guard let expected = s.snapshot.expectedFrames, s.frameRate > 0 else { return (false, nil) }
                guard let gap = (0..<expected).first(where: { s.frames[$0] == nil && !s.unfillable.contains($0) })
                else { return (false, nil) }
                s.gap = gap
                // Start a little before the gap: the scan lands on a keyframe at or before it anyway.
                return (false, max(0, Double(gap) / s.frameRate - 0.001))
            }
            if decision.stop { return nil }
            if let start = decision.start { return start }
            _ = wake.wait(timeout: .now() + 1)
        }
    }

    private func note(_ line: String, _ said: inout Set<String>) {
        guard said.insert(line).inserted else { return }
        state.withLock { $0.notices.append(line) }
    }

    /// Keeps the frames (numbered by their time at the reference's rate),
    /// updates the graph's columns and the worst frames. A scan filling a
    /// gap stops once it runs into frames already measured. Returns how many were new.
    /// A scan started mid-file pairs the reference's first frames (from its
    /// keyframe) with nothing when the other side's keyframe comes later:
    /// such empty rows are kept only from a scan of the whole file, where
    /// they mean the other side starts later.
    private func record(_ frames: [MeasuredFrame], fillingGap: Bool, fromStart: Bool) -> Int {
        state.withLock { s in
            var new = 0
            let duration = s.snapshot.duration ?? 0
            for var frame in frames {
                frame.index = Int(saturating: (frame.time * s.frameRate).rounded())
                s.frontier = frame.time
                if s.frames[frame.index] != nil {
                    if fillingGap && s.restart == nil { s.restart = .nextGap }
                    continue
                }
                if frame.metrics.isEmpty && !fromStart { continue }
                new += 1
                s.frames[frame.index] = frame
                s.snapshot.measuredFrames += 1
                guard let value = frame.metrics.ssimAll ?? frame.metrics.psnrAverage, duration > 0,
                      !s.snapshot.columns.isEmpty else { continue }
                let column = min(max(Int(saturating: frame.time / duration * Double(s.snapshot.columns.count)), 0), s.snapshot.columns.count - 1)
                s.snapshot.columns[column] = min(s.snapshot.columns[column] ?? value, value)
                if s.snapshot.coded.count != s.snapshot.columns.count { s.snapshot.coded = Array(repeating: nil, count: s.snapshot.columns.count) }
                var coded = s.snapshot.coded[column] ?? CodedColumn()
                coded.sizeA = max(coded.sizeA, frame.coded?.size ?? 0)
                coded.sizeB = max(coded.sizeB, frame.otherCoded?.size ?? 0)
                coded.keyA = coded.keyA || frame.coded?.isKeyframe == true
                coded.keyB = coded.keyB || frame.otherCoded?.isKeyframe == true
                s.snapshot.coded[column] = coded
                if s.snapshot.worst.count < 5 || value < (LiveMetrics.graphed(s.snapshot.worst.last) ?? .infinity) {
                    s.snapshot.worst.append(frame)
                    s.snapshot.worst.sort { (LiveMetrics.graphed($0) ?? .infinity) < (LiveMetrics.graphed($1) ?? .infinity) }
                    if s.snapshot.worst.count > 5 { s.snapshot.worst.removeLast() }
                }
            }
            if new > 0 { s.snapshot.version += 1 }
            return new
        }
    }

    /// The value the graph shows for a frame.
    package static func graphed(_ frame: MeasuredFrame?) -> Double? { frame?.metrics.ssimAll ?? frame?.metrics.psnrAverage }
}
