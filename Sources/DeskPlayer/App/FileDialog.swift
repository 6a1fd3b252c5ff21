// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Output
import Synchronization

/// The desktop's own file dialog, run as a child process (zenity or kdialog,
/// whichever is installed) so the player keeps playing while it is open.
final class FileDialog: Sendable {
    private let process = Process()
    /// The files chosen, set by the termination handler's thread.
    private let result = Mutex<[String]?>(nil)

    /// Nil when neither tool is installed.
    init?(startingIn folder: URL, title: String = "Open media") {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
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
        process.terminationHandler = { [weak self] _ in
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            self?.result.withLock { $0 = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty } }
            MainThreadWake.post()
        }
        do { try process.run() } catch { return nil }
    }

    deinit { if process.isRunning { process.terminate() } }

    /// The files chosen once the dialog closed (empty when cancelled); nil while open.
    func takeResult() -> [String]? { result.withLock { $0 } }
}
