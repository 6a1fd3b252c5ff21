// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Analysis
import Playback
import Media
import Foundation

/// `compare-align` and `--compare-align`: each rendition's offset against
/// the reference found by an `AlignmentJob` on its own thread; each turn of
/// the main loop takes what it found, sets that rendition's compare-shift
/// and says it on stderr and the OSD ("B is 1.2340 s later (compare-shift
/// -1.2340), confidence 0.97, by audio"). `compare-align-result` reads the
/// findings. Main thread.
final class CompareAlignment {
    private var job: AlignmentJob?
    /// The latest finding per rendition index (1 the first after the reference).
    private(set) var results: [Int: JSONValue] = [:]
    private(set) var isRunning = false

    deinit { job?.stop() }

    /// Starts (again, stopping a run in progress) for every rendition.
    func start(_ method: Command.CompareAlignMethod, controller: CommandController) throws(CommandError) {
        guard controller.compare != nil else { throw .propertyUnavailable }
        let group = controller.tiles.syncGroup
        guard let reference = group.first?.player.currentItem?.location.url, group.count >= 2 else { throw .propertyUnavailable }
        var renditions: [(index: Int, path: String)] = []
        for (index, tile) in group.enumerated().dropFirst() {
            guard let path = tile.player.currentItem?.location.url else { continue }
            renditions.append((index, path))
            results[index] = .object([("state", .string("running"))])
        }
        job?.stop()
        let started = AlignmentJob(reference: reference, renditions: renditions, method: AlignmentJob.Method(method))
        started.start()
        job = started
        isRunning = true
        controller.osd(tr("Aligning: finding each rendition's time shift…"), seconds: 2, topic: "compare-align")
    }

    /// Each turn of the main loop: what was found is applied and said.
    func update(_ controller: CommandController) {
        guard let job else { return }
        let (reports, finished) = job.takeReports()
        for report in reports { apply(report, controller) }
        if finished {
            self.job = nil
            isRunning = false
        }
    }

    func stop() {
        job?.stop()
        job = nil
        isRunning = false
    }

    private func apply(_ report: AlignmentJob.Report, _ controller: CommandController) {
        let letter = CompareView.letter(report.index)
        let took = String(format: "%.2f", report.elapsed)
        var fields: [(String, JSONValue)] = [("seconds", .number((report.elapsed * 1000).rounded() / 1000))]
        let line: String
        switch report.outcome {
        case .matched(let match):
            let shift = -match.seconds
            do throws(CommandError) {
                try CompareProperties.setShift(PropertyTarget(tile: nil, controller: controller), seconds: shift, of: report.index)
            } catch {
                line = "compare-align: \(letter): cannot set compare-shift (\(error.rawValue))"
                fields = [("state", .string("failed"))] + fields
                say(line, controller)
                results[report.index] = .object(fields)
                return
            }
            let applied = controller.compare?.shift(of: report.index) ?? shift
            line = "\(letter) is " + CompareAlignment.offsetText(-applied)
                + String(format: " (compare-shift %+.4f), confidence %.2f, by %@ in %@ s", applied, match.confidence,
                         match.method.rawValue, took)
            fields = [("state", .string("done")), ("method", .string(match.method.rawValue)),
                      ("offset", .number(match.seconds)), ("shift", .number(applied)),
                      ("confidence", .number((match.confidence * 1000).rounded() / 1000))] + fields
        case .noMatch(let why, let best):
            line = "compare-align: \(letter): no match (\(why)"
                + (best.map { String(format: "; best %.4f s at confidence %.2f", $0.seconds, $0.confidence) } ?? "")
                + "): compare-shift unchanged"
            fields = [("state", .string("no-match")), ("reason", .string(why))] + fields
        case .failed(let message):
            line = "compare-align: \(letter): \(message)"
            fields = [("state", .string("failed")), ("reason", .string(message))] + fields
        }
        say(line, controller)
        results[report.index] = .object(fields)
    }

    private func say(_ line: String, _ controller: CommandController) {
        PlayerApp.printError(line)
        controller.osd(line, seconds: 4)
    }

    /// "1.2340 s later" / "0.5000 s earlier" (later: its content starts later than A's).
    static func offsetText(_ seconds: Double) -> String {
        String(format: "%.4f s ", abs(seconds)) + (seconds >= 0 ? "later" : "earlier")
    }

    /// `compare-align-result`: one entry per rendition, in order.
    var resultValue: JSONValue {
        .array(results.keys.sorted().map { index in
            var pairs: [(String, JSONValue)] = [("rendition", .number(Double(index)))]
            if case .object(let fields)? = results[index] { pairs += fields }
            return .object(pairs)
        })
    }
}

extension AlignmentJob.Method {
    init(_ method: Command.CompareAlignMethod) {
        switch method {
        case .auto: self = .auto
        case .audio: self = .audio
        case .video: self = .video
        }
    }
}

/// `compare-step A|B N`: one side alone moves N of its own frames, the
/// other staying on its frame: B's shift moves by N of B's frames, or the
/// group's time by N of A's frames and every rendition's shift back by as
/// much. A hand correction after (or instead of) `compare-align`.
enum CompareStep {
    /// A little past the frame time asked for, so a time rounded to the
    /// microsecond does not land just before that frame.
    static let margin = 1e-4

    static func step(side: Int, frames: Int, controller: CommandController) throws(CommandError) {
        guard let state = controller.compare else { throw .propertyUnavailable }
        let group = controller.tiles.syncGroup
        guard group.count >= 2, let reference = group.first else { throw .propertyUnavailable }
        let target = PropertyTarget(tile: nil, controller: controller)
        if side == 1 {
            guard let tile = group.dropFirst(state.other).first else { throw .propertyUnavailable }
            try CompareProperties.setShift(target, seconds: state.shift + Double(frames) / frameRate(of: tile), of: state.other)
        } else {
            let step = Double(frames) / frameRate(of: reference)
            let now = reference.player.currentTime.seconds
            guard now + step >= 0 else { throw .commandFailed }
            for (index, tile) in group.enumerated().dropFirst() where state.shifts.indices.contains(index) {
                state.shifts[index] -= step
                tile.player.syncOffset = state.shifts[index]
            }
            let time = MediaTime(seconds: now + step + margin)
            for tile in group { tile.player.seek(to: time) }
        }
        controller.osd(CompareProperties.shiftText(state, controller), seconds: 1.5, topic: "compare-shift")
    }

    static func frameRate(of tile: Tile) -> Double {
        if let fps = tile.player.currentItem?.info?.frameRate, fps > 0, fps.isFinite { return fps }
        return 30
    }
}
