// SPDX-License-Identifier: GPL-3.0-or-later
import Analysis
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// Whose sound an export carries (`--compare-export-audio`, and the
/// command's second argument).
enum CompareExportAudioChoice: String, CaseIterable, ExpressibleByArgument {
    case a, b, both, no
}

/// `--compare MODE A B … --compare-export OUT.mp4`: no window. The
/// comparison as the options set it (view, rendition 1 as B, wipe place and
/// orientation, difference variant and gain, shift, labels on) is rendered
/// at the reference's display size (twice its width or height for the
/// stacks), a progress line on stderr, one line at the end; exit 0 when
/// written, 1 when not (the line says why).
enum CompareExportMode {
    static func run(_ options: DeskPlayerCommand) -> Int32 {
        guard let out = options.compareExport, let mode = options.compare, options.files.count >= 2 else {
            PlayerApp.printError("--compare-export needs --compare MODE and two files or more")
            return 1
        }
        let state = CompareState(mode: mode, count: options.files.count)
        state.diffGain = options.compareDiffGain
        state.diffVariant = options.compareDiff
        state.wipePosition = options.compareWipe
        state.wipeOrientation = options.compareWipeOrientation
        for index in 1..<state.shifts.count { state.shifts[index] = options.compareShift }
        if let method = options.compareAlign.method { align(options.files, method: method, into: state) }
        let settings = VideoFilterSettings(extraRotation: options.videoRotate.extraRotation, deinterlace: .no,
                                           toneMapping: options.toneMapping)
        let reference: CompareExportInput
        do { reference = try CompareExportInput(path: options.files[0], settings: settings) } catch {
            PlayerApp.printError("cannot export: \(error)")
            return 1
        }
        let size = CompareExportPlan.size(of: reference.info, mode: mode)
        let plan = CompareExportPlan(paths: options.files, state: state, width: size.width, height: size.height,
                                     output: URL(fileURLWithPath: out), settings: settings,
                                     audioSide: options.compareExportAudio.side(other: state.other),
                                     audioBoth: options.compareExportAudio == .both)
        var progress = ProgressBar(total: reference.expectedFrames)
        progress.word = "Exporting"
        do {
            let summary = try CompareExporter.run(plan, progress: { done, _ in progress.show(done: done, at: HostTime.now()) },
                                                  stopped: { false })
            progress.clear()
            PlayerApp.printError("Exported \(out): \(summary.line)")
            return 0
        } catch {
            progress.clear()
            PlayerApp.printError("cannot export \(out): \(error)")
            return 1
        }
    }
}

extension CompareExportMode {
    /// `--compare-align` before the export: each rendition's shift found
    /// (as `compare-align` finds it) and said on stderr; one not matched
    /// keeps `--compare-shift`.
    static func align(_ files: [String], method: Command.CompareAlignMethod, into state: CompareState) {
        let job = AlignmentJob(reference: files[0], renditions: files.enumerated().dropFirst().map { ($0.offset, $0.element) },
                               method: AlignmentJob.Method(method))
        job.start()
        var finished = false
        while !finished {
            let (reports, done) = job.takeReports()
            finished = done
            for report in reports {
                let letter = CompareView.letter(report.index)
                switch report.outcome {
                case .matched(let match):
                    if state.shifts.indices.contains(report.index) { state.shifts[report.index] = -match.seconds }
                    PlayerApp.printError("\(letter) is " + CompareAlignment.offsetText(match.seconds)
                        + String(format: " (compare-shift %+.4f), confidence %.2f, by %@", -match.seconds, match.confidence,
                                 match.method.rawValue))
                case .noMatch(let why, _):
                    PlayerApp.printError("compare-align: \(letter): no match (\(why)): compare-shift unchanged")
                case .failed(let message):
                    PlayerApp.printError("compare-align: \(letter): \(message)")
                }
            }
            if !finished { Thread.sleep(forTimeInterval: 0.02) }  // the job has no waiting call: polled, as the window's loop polls it
        }
    }
}

extension CompareExportAudioChoice {
    /// The index of the compared file heard, nil for none.
    func side(other: Int) -> Int? {
        switch self {
        case .a, .both: return 0
        case .b: return other
        case .no: return nil
        }
    }
}
