// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media

/// Comparing's commands: what they read and what they do, here rather than
/// in the controller's switch (FeatureCommand).
extension CompareFeature {
    static var commands: [FeatureCommand] {
        [
            // A comparison's pictures: each side's frame on screen at its own full
            // size, and the window, as PNG (to the folder, else the screenshot one).
            FeatureCommand("compare-save", [FeatureCommand.arg("directory", .text, optional: true)]) { a, controller, _, _ throws(CommandError) in
                let folder = try a.optionalText(0).map { URL(fileURLWithPath: $0) } ?? controller.screenshots.directory
                return try CompareSave.save(to: folder, controller: controller)
            },
            // Renders the comparison as shown (view, wipe, difference, labels) to a
            // movie file on a thread of its own, with one side's sound ("a", "b",
            // "both", "no"), the player going on; progress on the OSD.
            FeatureCommand("compare-export", [FeatureCommand.arg("file", .text), FeatureCommand.arg("audio", .choice, optional: true)],
                           read: { a throws(CommandError) in
                               let audio = try a.optionalText(1)
                               guard audio.map({ ["a", "b", "both", "no"].contains($0) }) ?? true else { throw .invalidParameter }
                               return [.string(try a.text(0))] + (audio.map { [.string($0)] } ?? [])
                           }) { a, controller, _, _ throws(CommandError) in
                try controller.compareExport.start(try a.text(0), audio: try a.optionalText(1), controller: controller)
                return .null
            },
            // Writes each side's frame at full size and the view as PNG into the
            // folder, for the frames marked (seconds on the reference's clock), or
            // else the N worst by the metrics.
            FeatureCommand("compare-export-frames", [FeatureCommand.arg("directory", .text), FeatureCommand.arg("worst", .integer, optional: true)],
                           read: { a throws(CommandError) in
                               let worst: Int? = a.count > 1 ? Int(exactly: (try a.number(1)).rounded()) : nil
                               if let worst, !(1...1000).contains(worst) { throw .invalidParameter }
                               return [.string(try a.text(0))] + (worst.map { [.number(Double($0))] } ?? [])
                           }) { a, controller, _, _ throws(CommandError) in
                let worst = a.count > 1 ? Int(saturating: try a.number(1)) : nil
                return try CompareExportFrames.write(to: URL(fileURLWithPath: try a.text(0)), worst: worst, controller: controller)
            },
            // Marks the reference's frame on screen for compare-export-frames (again: unmarks it).
            FeatureCommand("compare-mark") { _, controller, _, _ throws(CommandError) in
                try controller.markCompareFrame()
                return .null
            },
            // Finds each rendition's offset against the reference (by its audio,
            // else its pictures) on a thread of its own and sets its compare-shift.
            FeatureCommand("compare-align", [FeatureCommand.arg("method", .choice, optional: true)],
                           read: { a throws(CommandError) in
                               [.string(try a.choice(0, default: Command.CompareAlignMethod.auto).rawValue)]
                           }) { a, controller, _, _ throws(CommandError) in
                try controller.compareAlignment.start(try a.choice(0, default: Command.CompareAlignMethod.auto), controller: controller)
                return .null
            },
            // compare-step A|B [FRAMES]: one side alone moves FRAMES of its own
            // frames (default 1, negative back), the other staying: a hand
            // correction of compare-shift.
            FeatureCommand("compare-step", [FeatureCommand.arg("side", .choice), FeatureCommand.arg("frames", .integer, optional: true)],
                           read: { a throws(CommandError) in
                               let side: String
                               switch try a.text(0) {
                               case "A", "a", "0": side = "A"
                               case "B", "b", "1": side = "B"
                               default: throw .invalidParameter
                               }
                               let frames = a.count > 1 ? try a.number(1) : 1
                               guard frames == frames.rounded(), abs(frames) <= 1e6 else { throw .invalidParameter }
                               return [.string(side), .number(frames)]
                           }) { a, controller, _, _ throws(CommandError) in
                try CompareStep.step(side: try a.text(0) == "A" ? 0 : 1, frames: Int(saturating: try a.number(1)), controller: controller)
                return .null
            },
        ]
    }
}
