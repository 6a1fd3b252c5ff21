// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Playback
import UI

/// `compare-export OUT [a|b|no]`: the comparison as the window shows it
/// (its size, view, wipe, difference, labels, zoom, shifts) rendered to
/// OUT by a `CompareExportJob` on its own thread while the player goes on;
/// each turn of the main loop shows its progress on the OSD and, at the
/// end, says what was written (stderr and OSD). `compare-export-progress`
/// reads it. Main thread.
final class CompareExportControl {
    private var job: CompareExportJob?
    /// An export is under way: the main loop turns to show its progress and its end.
    var isRunning: Bool { job != nil }
    private var path = ""
    private var lastShown: UInt64 = 0
    /// The latest export's state, as `compare-export-progress` gives it.
    private(set) var report: JSONValue?

    deinit { job?.stop() }

    func start(_ output: String, audio: String?, controller: CommandController) throws(CommandError) {
        guard let state = controller.compare else { throw .propertyUnavailable }
        let group = controller.tiles.syncGroup
        guard let reference = group.first?.player.currentItem, let info = reference.info, info.hasVideo, group.count >= 2 else {
            throw .propertyUnavailable
        }
        if job != nil {
            say("compare-export: an export is running (to \(path))", controller)
            throw .commandFailed
        }
        let paths = group.map { $0.player.currentItem?.location.url }
        let size = controller.screen?.compareSize ?? CompareExportPlan.size(of: info, mode: state.mode)
        var settings = reference.preferences.video
        settings.deinterlace = .no
        let side: Int?
        switch audio {
        case "a": side = 0
        case "b": side = state.other
        case "no": side = nil
        default: side = state.audio == 0 ? 0 : state.other
        }
        let url = URL(fileURLWithPath: output)
        let plan = CompareExportPlan(paths: paths, state: CompareExportPlan.copy(state), width: size.width, height: size.height,
                                     output: url, settings: settings, audioSide: side, audioBoth: audio == "both")
        let started = CompareExportJob(plan: plan)
        started.start()
        job = started
        path = url.path
        report = .object([("state", .string("running")), ("frames", .number(0)), ("path", .string(path))])
        controller.osd(String(format: tr("Exporting the comparison to %@…"), url.lastPathComponent), seconds: 2, topic: "compare-export")
    }

    /// Each turn of the main loop: the progress on the OSD, the end said.
    func update(_ controller: CommandController) {
        guard let job else { return }
        let (done, total, outcome) = job.state
        var fields: [(String, JSONValue)] = [("frames", .number(Double(done))),
                                             ("of", total.map { .number(Double($0)) } ?? .null), ("path", .string(path))]
        switch outcome {
        case nil:
            report = .object([("state", .string("running"))] + fields)
            let now = HostTime.now()
            guard now &- lastShown >= 250_000_000 else { return }
            lastShown = now
            let percent = total.map { String(format: " %d %%", Int(saturating: 100 * Double(done) / Double(max($0, 1)))) } ?? ""
            controller.osd("Exporting\(percent): \(done)\(total.map { "/\($0)" } ?? "") frames", seconds: 1, topic: "compare-export")
        case .success(let summary):
            fields.append(("seconds", .number((summary.seconds * 1000).rounded() / 1000)))
            report = .object([("state", .string("done"))] + fields)
            say("Exported \(path): \(summary.line)", controller)
            self.job = nil
        case .failure(let error):
            report = .object([("state", .string("failed")), ("error", .string("\(error)"))] + fields)
            say("compare-export: cannot export \(path): \(error)", controller)
            self.job = nil
        }
    }

    /// At exit: a running export stops, its temporary file removed.
    func stop() {
        job?.stop(waiting: true)
        job = nil
    }

    private func say(_ line: String, _ controller: CommandController) {
        PlayerApp.printError(line)
        controller.osd(line, seconds: 4, topic: "compare-export")
    }
}
