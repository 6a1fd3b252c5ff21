import CFFmpeg
import Foundation

/// FFmpeg logs to stderr by itself; DeskPlayer reports problems in its own
/// one-line form, so FFmpeg stays quiet unless asked (`--verbose`).
///
/// A stream's segment that could not be read is worth a line though (the
/// player skips it and goes on): FFmpeg only says so in its log, so a hook
/// picks those lines out.
enum FFmpegLog {
    static func configure(verbose: Bool) {
        LogHook.shared.verbose = verbose
        dp_set_log_sink(logSink)
    }

    /// What went wrong with stream segments since the last call, each in
    /// the words the user sees ("Failed to open segment 1 …; skipped").
    static func takeStreamProblems() -> [String] { LogHook.shared.take() }
}

final class LogHook: @unchecked Sendable {  // guarded by lock
    static let shared = LogHook()
    private let lock = NSLock()
    private var lines: [String] = []
    private var verboseFlag = false

    var verbose: Bool {
        get { lock.withLock { verboseFlag } }
        set { lock.withLock { verboseFlag = newValue } }
    }

    func add(_ line: String, level: Int32) {
        let problem = LogHook.streamProblem(line.trimmingCharacters(in: .whitespacesAndNewlines))
        lock.lock()
        let verbose = verboseFlag
        if let problem, lines.count < 100 { lines.append(problem) }
        lock.unlock()
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

    func take() -> [String] {
        lock.withLock {
            defer { lines.removeAll() }
            return lines
        }
    }
}

private let logSink: @convention(c) (Int32, UnsafePointer<CChar>?) -> Void = { level, line in
    guard let line else { return }
    LogHook.shared.add(String(cString: line), level: level)
}

/// Memory the decoders freed, handed back to the system (after a player closes).
enum FreedMemory {
    static func release() { dp_release_free_memory() }
}
