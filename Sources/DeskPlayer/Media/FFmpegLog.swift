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

    /// Lines about stream segments that failed, since the last call.
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
        let isStreamProblem = line.contains("segment") && (line.contains("Failed") || line.contains("failed"))
        lock.lock()
        let verbose = verboseFlag
        if isStreamProblem && lines.count < 100 { lines.append(line) }
        lock.unlock()
        if verbose && level <= AV_LOG_WARNING { FileHandle.standardError.write(Data(line.utf8)) }
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
