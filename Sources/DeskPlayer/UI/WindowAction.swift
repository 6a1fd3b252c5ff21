// SPDX-License-Identifier: GPL-3.0-or-later

/// What the user did in the main window, for the App to turn into commands
/// (keys through its binding table): the window knows no command.
package enum WindowAction: Equatable {
    /// A key by mpv's name ("SPACE", "Ctrl+p").
    case key(String)
    /// A click on a tile.
    case focus(tile: Int)
    case playButton(tile: Int)
    /// Another button of a tile's control bar (previous, next, playlist, fullscreen).
    case barButton(tile: Int, BarButton)
    /// The seek bar clicked or dragged, as a fraction of the item; not
    /// `exact` while the drag goes on (the keyframe there shows at once).
    case seekBar(tile: Int, fraction: Double, exact: Bool = true)
    case volumeBar(tile: Int, percent: Int)
    case pipButton(tile: Int)
    /// A file dropped on a tile (nil: elsewhere).
    case drop(path: String, tile: Int?)
    /// The wheel or a drag zoomed or panned a tile's picture (outside a
    /// comparison): this zoom and pan, for the tile and its sync group.
    case zoom(tile: Int, VideoZoom)
    /// A drag or the wheel in a comparison: the divider's place, or the zoom and pan.
    case compare(CompareView.Gesture)
    /// A key or click on the list overlay.
    case list(ListOverlay.Action)
    /// A key, click or button of the camera roll.
    case library(LibraryView.Action)
    /// A click, drag, key or drop on the playlist panel.
    case playlist(PlaylistPanel.Action)
    /// An item of the context menu was chosen: its command, as input.conf writes it.
    case menu(String)
    /// A track button of a tile's control bar (audio, else subtitles).
    case trackButton(tile: Int, audio: Bool)
    /// The window manager minimized the window, or brought it back.
    case minimized
    case restored
}
