// SPDX-License-Identifier: GPL-3.0-or-later

/// The camera roll takes what its scanner and thumbnailer found (they wake the loop).
final class LibraryFeature: AppFeature {
    /// The roll needs the window to draw in; `--library` opens it at once.
    init(_ core: AppCore) {
        guard core.window != nil else { return }
        let roll = LibraryRoll(controller: core.controller)
        core.controller.library = roll
        if core.options.library { roll.open() }
    }

    /// `library` and the roll's listing.
    static var properties: [Property] { LibraryProperties.all }

    func update(_ core: AppCore, at now: UInt64) { core.controller.library?.update() }

    /// Its pictures are textures of the window's renderer.
    func finish(_ core: AppCore) { core.controller.library?.close() }
}
