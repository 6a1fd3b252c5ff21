// SPDX-License-Identifier: GPL-3.0-or-later

/// The main window's title (`--title`) follows the focused tile.
final class TitleFeature: AppFeature {
    private var title: WindowTitle

    init(_ core: AppCore) { title = WindowTitle(template: core.options.title) }

    func announce(_ core: AppCore, at now: UInt64) {
        title.update(at: now, controller: core.controller, screen: core.screen)
    }

    func settle(_ core: AppCore, at now: UInt64) -> Bool {
        title.update(at: now, controller: core.controller, screen: core.screen, settling: true)
        return true
    }
}
