// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Output
import Synchronization

/// The desktop's own file dialog, run as a child process (zenity or kdialog,
/// whichever is installed) so the player keeps playing while it is open.
/// Its output is read while it runs (a pipe holds 64 KiB: a dialog that
/// writes more would wait for a reader for good), and at most
/// `maxOutputBytes` of it is kept.
final class FileDialog: Sendable {
    /// The most names (bytes of output) a dialog may return; past it the
    /// choice is refused with one line, and the rest is read and dropped.
    static let maxOutputBytes = 4 << 20

    private let process = Process()
    /// The files chosen (or why none), set by the reading thread once the dialog ended.
    private let result = Mutex<Result<[String], MediaError>?>(nil)

    /// Nil when neither tool is installed. `searchPath` is where the tools
    /// are looked for (`$PATH` unless given).
    init?(startingIn folder: URL, title: String = "Open media", searchPath: String? = nil) {
        let path = (searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        func find(_ tool: String) -> String? {
            path.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        if let zenity = find("zenity") {
            process.executableURL = URL(fileURLWithPath: zenity)
            process.arguments = ["--file-selection", "--multiple", "--separator=\n", "--title=\(title)",
                                 "--filename=\(folder.path)/"]
        } else if let kdialog = find("kdialog") {
            process.executableURL = URL(fileURLWithPath: kdialog)
            process.arguments = ["--getopenfilename", folder.path, "--multiple", "--separate-output", "--title", title]
        } else {
            return nil
        }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let reader = Thread { [weak self, process] in
            let output = FileDialog.readBounded(out.fileHandleForReading)
            process.waitUntilExit()
            let chosen = output.map { String(decoding: $0, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty } }
            self?.result.withLock { $0 = chosen }
            MainThreadWake.post()
        }
        reader.name = "deskplayer.file-dialog"
        reader.start()
    }

    deinit { if process.isRunning { process.terminate() } }

    /// The files chosen once the dialog closed (empty when cancelled), or
    /// why they were refused; nil while it is open.
    func takeResult() -> Result<[String], MediaError>? { result.withLock { $0 } }

    /// Everything `handle` gives until its end, or an error once past
    /// `maxOutputBytes` (the rest is still read, so the writer can end).
    private static func readBounded(_ handle: FileHandle) -> Result<Data, MediaError> {
        var kept = Data()
        var total = 0
        while let chunk = try? handle.read(upToCount: 65_536), !chunk.isEmpty {
            total += chunk.count
            if total <= maxOutputBytes { kept.append(chunk) } else { kept = Data() }
        }
        guard total <= maxOutputBytes else {
            return .failure(MediaError("the file dialog returned more than \(maxOutputBytes >> 20) MiB of names; nothing opened"))
        }
        return .success(kept)
    }
}
