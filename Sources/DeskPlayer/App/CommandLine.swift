// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// Entry point: parse, run, and map failures to exit codes
/// (0 played, 1 nothing could be played, 2 bad command line).
/// (`@main` is in EntryPoint.swift, so the fuzzer build can leave it out.)
package enum Main {
    package static func main() {
        FreedMemory.limitArenas()
        if ThumbnailerCommand.isCalled(CommandLine.arguments.first) {
            Foundation.exit(ThumbnailerCommand.run(Array(CommandLine.arguments.dropFirst())))
        }
        // A parent may hand us a blocked signal mask (Foundation's Process
        // does): unblock the signals SDL turns into a clean quit.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        // Past a file size limit (ulimit -f) a write fails with EFBIG and
        // says so, as a full disk does, instead of killing the player.
        signal(SIGXFSZ, SIG_IGN)
        // The window's words in the user's language (stderr stays English).
        Localization.start()
        do {
            var arguments = Array(CommandLine.arguments.dropFirst())
            if !arguments.contains("--no-config"), let (path, text) = ConfigFiles.read("deskplayer.conf") {
                let (options, problems) = ConfigFiles.optionArguments(text, file: path) { option in
                    do { _ = try DeskPlayerCommand.parseAsRoot(DeskPlayerCommand.bareIdle(option)); return nil } catch {
                        return DeskPlayerCommand.message(for: error)
                    }
                }
                for problem in problems { PlayerApp.printError(problem + "; line skipped") }
                arguments = options + arguments
            }
            var command = try DeskPlayerCommand.parseAsRoot(DeskPlayerCommand.bareIdle(arguments))
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = DeskPlayerCommand.exitCode(for: error)
            if code == .success {
                DeskPlayerCommand.exit(withError: error)  // --help, --version
            }
            FileHandle.standardError.write(Data(("deskplayer: " + DeskPlayerCommand.message(for: error) + "\n"
                + "Usage: " + DeskPlayerCommand.usageString() + "\n").utf8))
            Foundation.exit(2)
        }
    }
}
