// SPDX-License-Identifier: GPL-3.0-or-later
import UI

/// The playlist panel follows the focused tile's playlist, whatever changed it.
final class PlaylistPanelFeature: AppFeature {
    private let window: MainWindow

    /// Nil without an SDL window: the panel is drawn in it.
    init?(_ core: AppCore) {
        guard let window = core.window else { return nil }
        self.window = window
    }

    func prepare(_ core: AppCore, at now: UInt64) {
        if window.showsPlaylistPanel { window.playlistPanel.entries = PlayerApp.panelEntries(of: core.tiles.focused) }
    }
}
