// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// What the App needs of the main window to apply commands: the tiles to
/// show, the OSD, fullscreen, the overlays. The App's controller works
/// through this, so commands and properties run (and are tested) without
/// SDL; MainWindow is the real one.
package protocol PlayerScreen: AnyObject {
    /// The tiles' views in order, and the focused one.
    func show(_ views: [PlayerView], focused: Int)
    /// A line on the OSD; a line with a `topic` replaces the one before on it.
    func showMessage(_ message: String, seconds: Double, topic: String?)
    var isFullscreen: Bool { get set }
    /// The key bindings overlay (its lines come from the App's table).
    var showsHelp: Bool { get set }
    var helpLines: [(keys: String, help: String)] { get set }
    /// A list to pick from (file browser, recent files); nil hides it.
    var list: ListOverlay? { get set }
    /// The camera roll; nil hides it.
    var library: LibraryView? { get set }
    /// The context menu's items: setting them opens it at the pointer (nil closes it).
    var menuItems: [MenuItem]? { get set }
    /// The context menu while it is open (its rows' places: `context-menu-items`).
    var menu: ContextMenu? { get }
    func setTitle(_ title: String)
    /// Hovering a seek bar shows the picture at that time (`--thumbnails`).
    var showsThumbnails: Bool { get set }
    /// The playlist panel at the window's right side (`playlist-panel`).
    var showsPlaylistPanel: Bool { get set }
    /// How much larger than at 96 DPI the window's own parts are drawn (`ui-scale`).
    var uiScale: Double { get }
    /// The mouse pointer shows (it hides over video after a second at rest).
    var pointerVisible: Bool { get }
    /// The screen saver is held off (while a video plays in sight).
    var holdsOffScreenSaver: Bool { get set }
    /// Shows the window again if it was minimised or hidden, above the others.
    func raise()
    /// Presents so far, and whether what is shown is final (see MainWindow).
    var presents: Int { get }
    var isSettled: Bool { get }
    /// Why it is not settled, in a word (nil when it is).
    var unsettledBy: String? { get }
    /// What the window shows now, as a picture (BGRA).
    func capture() throws(MediaError) -> PictureBuffer
    /// The size a comparison is drawn at (the window less the metrics strip), nil when none is shown.
    var compareSize: (width: Int, height: Int)? { get }
    /// The window is minimized: nothing in it can be seen.
    var isMinimized: Bool { get }
}

extension PlayerScreen {
    package var isMinimized: Bool { false }
    package var compareSize: (width: Int, height: Int)? { nil }
    package var library: LibraryView? {
        get { nil }
        set {}
    }
    package func showMessage(_ message: String, seconds: Double = 3) { showMessage(message, seconds: seconds, topic: nil) }
}
