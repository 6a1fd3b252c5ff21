// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Synchronization

/// FFmpeg logs to stderr by itself; DeskPlayer reports problems in its own
/// one-line form, so FFmpeg stays quiet unless asked (`--verbose`).
///
/// A stream's segment that could not be read is worth a line though (the
/// player skips it and goes on): FFmpeg only says so in its log, so a hook
/// picks those lines out.
package enum FFmpegLog {
    package static func configure(verbose: Bool) {
        LogHook.shared.verbose = verbose
        dp_set_log_sink(logSink)
    }

    /// What went wrong with stream segments since the last call, each in
    /// the words the user sees ("Failed to open segment 1 …; skipped"),
    /// each problem once.
    package static func takeStreamProblems() -> [String] { LogHook.shared.take() }

    /// A line only `--verbose` shows, once per process whatever thread says
    /// it (a filter this FFmpeg lacks: the feature is simply not there).
    package static func noticeOnce(_ line: String) {
        guard LogHook.shared.verbose, LogHook.shared.firstTime(line) else { return }
        FileHandle.standardError.write(Data("deskplayer: \(line)\n".utf8))
    }
}

/// The stream problems FFmpeg's log hook picked out, kept until taken. FFmpeg
/// logs from every thread that uses it. Thread-safe (Mutex).
final class LogHook: Sendable {
    private struct State {
        var lines: [String] = []
        /// Every problem said so far: a looping stream meets the same
        /// missing segment on every pass, and it is said once.
        var said: Set<String> = []
        var verbose = false
        var noticed: Set<String> = []
    }

    static let shared = LogHook()
    private let state = Mutex(State())

    var verbose: Bool {
        get { state.withLock { $0.verbose } }
        set { state.withLock { $0.verbose = newValue } }
    }

    func add(_ line: String, level: Int32) {
        let problem = LogHook.streamProblem(line.trimmingCharacters(in: .whitespacesAndNewlines))
        let verbose = state.withLock { s in
            if let problem, s.lines.count < 100, s.said.count < 1000, s.said.insert(problem).inserted {
                s.lines.append(problem)
            }
            return s.verbose
        }
        if verbose && level <= AV_LOG_WARNING { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// A segment FFmpeg gave up on (it is skipped), or one the server cut
    /// short (the part received plays); nil for any other line.
    static func streamProblem(_ line: String) -> String? {
        if line.contains("segment") && (line.contains("Failed") || line.contains("failed")) { return line + "; skipped" }
        // FFmpeg's http protocol: "Stream ends prematurely at 60442, should be 120884".
        if line.hasPrefix("Stream ends prematurely at ") {
            let numbers = line.split { !$0.isNumber }.map(String.init)
            if numbers.count == 2 { return "a segment was cut short (\(numbers[0]) of \(numbers[1]) bytes); the part received plays" }
            return line
        }
        return nil
    }

    /// True the first time `line` is asked about.
    func firstTime(_ line: String) -> Bool { state.withLock { $0.noticed.insert(line).inserted } }

    func take() -> [String] {
        state.withLock { s in
            defer { s.lines.removeAll() }
            return s.lines
        }
    }
}

private let logSink: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
    guard let line else { return }
    LogHook.shared.add(String(cString: line), level: level)
}

/// Memory the decoders freed, handed back to the system (after a player closes).
package enum FreedMemory {
    package static func release() { dp_release_free_memory() }

    /// Four malloc arenas for all the threads (see the shim): called first thing, before any thread starts.
    package static func limitArenas() { dp_limit_malloc_arenas(4) }

    private static let lastRelease = Atomic<UInt64>(0)
    /// Ten seconds: a trim of a 150 MB heap takes a few milliseconds of a worker, and holds each arena's lock only while it walks it.
    private static let releaseInterval: UInt64 = 10_000_000_000

    /// While anything plays, what glibc keeps of freed memory is handed back
    /// every ten seconds, on a worker. Without it, the peaks of what a person
    /// did (the playlist panel's previews, live metrics, a fullscreen
    /// window's textures, a PiP window) stayed resident after they ended:
    /// the door soak's Picture in Picture run ended 25 % above its first
    /// minute, with 46 MB live of 164 MB resident (heaptrack). Called on
    /// every player's tick; at rest nothing ticks, and nothing wakes for it.
    package static func releaseNowAndThen(at now: UInt64) {
        let last = lastRelease.load(ordering: .relaxed)
        guard now &- last >= releaseInterval,
              lastRelease.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged else { return }
        releaseOnThread()
    }

    /// Releases on a thread of its own (`after` seconds), not on a Dispatch
    /// queue: on Linux the first Dispatch worker starts libdispatch's
    /// workqueue monitor, a 1 s timer that then wakes the process every
    /// second for good, at rest too (1.4 wake-ups a second paused against
    /// mpv's 1.2; 0.4 without it).
    package static func releaseOnThread(after seconds: Double = 0) {
        let thread = Thread {
            if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
            release()
        }
        thread.name = "deskplayer.trim"
        thread.start()
    }
}
