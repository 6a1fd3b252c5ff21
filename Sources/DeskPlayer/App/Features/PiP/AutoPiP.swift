// SPDX-License-Identifier: GPL-3.0-or-later
/// Automatic Picture in Picture (`--pip-auto`, AVKit's
/// canStartPictureInPictureAutomaticallyFromInline): minimizing the main
/// window while the focused tile plays a video moves that player into a
/// mini window, still playing; restoring the main window brings it back.
/// Both go through the controller as the PiP commands. Main thread only.
final class AutoPiP {
    private let controller: CommandController
    /// The tile this moved into Picture in Picture, until it comes back.
    private weak var moved: Tile?

    init(controller: CommandController) { self.controller = controller }

    func windowMinimized() {
        guard let tile = controller.tiles.focused, !tile.isInPiP, !tile.ended, !tile.player.isPaused,
              tile.player.currentItem?.info?.hasVideo == true else { return }
        do { try controller.apply(.pipStart(nil), to: .tile(tile), from: .window) } catch {
            return  // the PiP manager said why (the limit, no window)
        }
        if tile.isInPiP { moved = tile }
    }

    func windowRestored() {
        defer { moved = nil }
        // Restored by hand meanwhile (Esc, ↩), or closed: nothing to bring back.
        guard let tile = moved, tile.isInPiP else { return }
        _ = try? controller.apply(.pipRestore(nil), to: .tile(tile), from: .window)
    }
}
