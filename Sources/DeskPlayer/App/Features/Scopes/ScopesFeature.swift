// SPDX-License-Identifier: GPL-3.0-or-later

/// The scope panel (`scope`) follows the focused tile's frames while it shows.
final class ScopesFeature: AppFeature {
    /// The panel draws in the window; `--scope` shows it at once.
    init(_ core: AppCore) {
        guard let window = core.window else { return }
        let scopes = Scopes(window: window)
        core.controller.scopes = scopes
        if core.options.scope != .none { scopes.show(core.options.scope) }
    }

    /// `scope` and what it measured.
    static var properties: [Property] { PropertyTable.scopeProperties }

    func update(_ core: AppCore, at now: UInt64) {
        core.controller.scopes?.update(focused: core.tiles.focused)
    }

    /// Looked at often while it shows: its measuring thread does not wake the loop.
    func nextDeadline(_ core: AppCore, at now: UInt64) -> Double? { isAtRest(core) ? nil : lookInterval }

    func isAtRest(_ core: AppCore) -> Bool { core.controller.scopes.map { $0.kind == .none } ?? true }

    func finish(_ core: AppCore) { core.controller.scopes?.close() }
}
