// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Says where each finished screenshot went, or why it failed (the writer
/// wakes the loop when one is done).
final class ScreenshotsFeature: AppFeature {
    init(_ core: AppCore) {}

    func update(_ core: AppCore, at now: UInt64) {
        for result in core.controller.screenshots.takeFinished() {
            switch result {
            case .success(let url):
                print("Screenshot: \(url.path)")
                core.screen.showMessage(String(format: tr("Screenshot: %@"), url.path), seconds: 3, topic: nil)
            case .failure(let error):
                core.report("screenshot: \(error)", shown: String(format: tr("Screenshot: %@"), shownDescription(of: error)))
            }
        }
    }
}
