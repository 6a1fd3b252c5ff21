// SPDX-License-Identifier: GPL-3.0-or-later

/// The camera roll takes what its scanner and thumbnailer found (they wake the loop).
final class LibraryFeature: AppFeature {
    init(_ core: AppCore) {}

    /// `library` and the roll's listing.
    static var properties: [Property] { LibraryProperties.all }

    func update(_ core: AppCore, at now: UInt64) { core.controller.library?.update() }

    /// Its pictures are textures of the window's renderer.
    func finish(_ core: AppCore) { core.controller.library?.close() }
}
