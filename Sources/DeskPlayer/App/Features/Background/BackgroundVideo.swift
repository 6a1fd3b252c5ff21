// SPDX-License-Identifier: GPL-3.0-or-later
import Output

/// A muted video looping behind the tiles (`--background`): a player of
/// its own, never at rest, whose frames give the loop its deadlines.
final class BackgroundVideo: AppFeature {
    private let tile: Tile

    /// Nil without `--background`, or without an SDL window to draw it in.
    init?(_ core: AppCore) {
        guard let file = core.options.background, let window = core.window else { return nil }
        tile = core.controller.factory.tile([file], decoderThreads: 1)
        tile.view.contentMode = .fill
        tile.player.isAudible = false
        tile.player.passesPerItem = nil
        window.background = tile.view
        core.tiles.mixer.add(tile.player.audio)
        tile.player.play()
    }

    /// Ticked with the tiles; its events are taken, not shown.
    func prepare(_ core: AppCore, at now: UInt64) {
        tile.player.tick(at: now)
        _ = tile.playlist.takeEvents()
    }

    func nextDeadline(_ core: AppCore, at now: UInt64) -> Double? {
        tile.player.nextDeadline(at: now, wake: MainThreadWake.post)
    }

    func isAtRest(_ core: AppCore) -> Bool { false }

    /// Its view owns textures of the window's renderer: freed while SDL still exists.
    func finish(_ core: AppCore) { core.tiles.removeAll(and: [tile]) }
}
