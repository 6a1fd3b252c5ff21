// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media

extension CommandController {
    /// `camera [DEVICE]` ("Take video…" in the menu): the camera plays in the
    /// target tile as a file would, in the mode chosen for it (`--camera`'s
    /// rules); with none, one line says so and what was there plays on.
    func openCamera(_ device: String?, _ target: CommandTarget, _ source: CommandSource) throws(CommandError) {
        switch CameraOption.location(for: device ?? CameraOption.automatic, format: nil) {
        case .success(let location):
            try load(location, mode: .replace, in: try? resolve(target).first)
        case .failure(let problem):
            PlayerApp.printError("camera: " + problem.message)
            osd(problem.shown, seconds: 4)
            throw .commandFailed
        }
    }
}
