// SPDX-License-Identifier: GPL-3.0-or-later

/// The playlist panel follows the focused tile's playlist, whatever changed it.
final class PlaylistPanelFeature: AppFeature {
    init(_ core: AppCore) {}

    func prepare(_ core: AppCore, at now: UInt64) {
        let window = core.window
        if window.showsPlaylistPanel { window.playlistPanel.entries = PlayerApp.panelEntries(of: core.tiles.focused) }
    }
}
