// SPDX-License-Identifier: GPL-3.0-or-later

/// Opens what the desktop's file dialog chose (its thread wakes the loop when it closes).
final class OpenDialogFeature: AppFeature {
    init(_ core: AppCore) {}

    func update(_ core: AppCore, at now: UInt64) { core.controller.opener?.collectDialog() }
}
