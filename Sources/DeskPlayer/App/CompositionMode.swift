// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Playback

/// `--crossfade`, `--clip` and `--composition`: the command line's files
/// become one composition, played by one player or (`--export-audio`)
/// rendered to a file without a window.
enum CompositionMode {
    /// The command line's composition, its sources checked; nil (after
    /// saying why) when it cannot be played.
    static func build(_ options: DeskPlayerCommand) -> Composition? {
        do {
            if let path = options.composition {
                let (built, skipped) = try CompositionFile.load(path, skipBad: options.skipBad,
                                                                duration: CompositionSource.duration(of:))
                for source in skipped { PlayerApp.printError("\(source): cannot be opened; left out (--skip-bad)") }
                return built
            }
            var sources: [(name: String, duration: Double)] = []
            for file in options.files {
                do { sources.append((file, try CompositionSource.duration(of: file))) } catch {
                    guard options.skipBad else { throw error }
                    PlayerApp.printError("\(error); left out (--skip-bad)")
                }
            }
            guard !sources.isEmpty else { throw MediaError("no source could be opened") }
            let built = try Composition.crossfade(sources, clip: options.clip, fade: options.crossfade ?? 0,
                                                  curve: options.crossfadeCurve)
            if let problem = built.problems().first { throw MediaError(problem.message) }
            return built
        } catch {
            PlayerApp.printError("\(error)")
            return nil
        }
    }

    /// The name a composition's tile shows.
    static func name(of composition: Composition, _ options: DeskPlayerCommand) -> String {
        options.composition ?? "Crossfade of \(composition.tracks.count) files"
    }

    /// `--export-audio`: renders offline with a progress bar, no window. Returns the exit code.
    static func export(_ composition: Composition, to path: String) -> Int32 {
        let started = HostTime.now()
        let terminal = isatty(STDERR_FILENO) != 0
        do {
            let warnings = try AudioExport(composition).write(to: URL(fileURLWithPath: path)) { done in
                guard terminal else { return }
                let width = 30, filled = Int(saturating: done * Double(width))
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                FileHandle.standardError.write(Data(String(format: "\rExporting [%@] %3d %%", bar, Int(saturating: done * 100)).utf8))
            }
            if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
            for w in warnings { PlayerApp.printError(w) }
        } catch {
            if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
            PlayerApp.printError("\(error)")
            return 1
        }
        let seconds = Double(HostTime.now() - started) / 1e9
        FileHandle.standardError.write(Data(String(format: "Wrote %@: %.2f s of audio in %.2f s (%.0f× real time)\n",
                                                   path, composition.duration, seconds,
                                                   composition.duration / max(seconds, 1e-6)).utf8))
        return 0
    }
}
