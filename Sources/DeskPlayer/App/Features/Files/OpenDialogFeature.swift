// SPDX-License-Identifier: GPL-3.0-or-later

/// Opens what the desktop's file dialog chose (its thread wakes the loop when it closes).
final class OpenDialogFeature: AppFeature {
    /// Dialogs and the built-in browser open over the window.
    init(_ core: AppCore) {
        if core.window != nil { core.controller.opener = MediaOpener(controller: core.controller) }
    }

    func update(_ core: AppCore, at now: UInt64) { core.controller.opener?.collectDialog() }
}
