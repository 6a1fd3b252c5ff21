// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Foundation
import Media
import Output
// SDL's headers bring X11's `Window` too; this one is meant.
import class Output.Window

/// The main window: lays out its player views, turns input into
/// `WindowAction`s for the App, and redraws only when something changed.
package final class MainWindow: PlayerScreen {
    package let window: Window
    package let text: TextRenderer
    /// How much larger than at 96 DPI its own parts are drawn (`--ui-scale`, Xft.dpi, the display's DPI).
    package let scale: UIScale
    package var uiScale: Double { scale.factor }
    /// The playlist at the right side (`playlist-panel`); the App sets its entries.
    package let playlistPanel = PlaylistPanel()
    package var showsPlaylistPanel = false {
        didSet {
            guard showsPlaylistPanel != oldValue else { return }
            needsRedraw = true
            playlistPanel.changed = true
        }
    }
    /// The control-bar button whose tooltip shows (the pointer rests on it).
    var tooltip: BarButton?
    /// When the pointer last moved (tooltips show once it rests).
    var pointerMovedAt: UInt64 = 0
    /// How long the pointer rests on a button before its tooltip shows.
    static let tooltipSeconds = 0.6
    private(set) var views: [PlayerView] = []
    /// A video behind all tiles (`--background`).
    package var background: PlayerView? { didSet { needsRedraw = true } }
    package var layout: TileLayout = .grid { didSet { needsRedraw = true } }
    /// A comparison of the views (`--compare`): the first is the reference.
    package var compare: CompareView? {
        didSet {
            compare?.state.onChange = { [weak self] in self?.needsRedraw = true }
            needsRedraw = true
        }
    }
    var comparing: Bool { compare != nil }
    /// The compared pair's metrics: the values on the OSD and the timeline strip (`--compare-metrics`).
    package var metricsGraph: MetricsGraph? { didSet { needsRedraw = true } }
    /// A scope of the focused tile's picture (`scope`).
    package var scopePanel: ScopePanel? { didSet { needsRedraw = true } }
    /// The tile keys act on (the App decides; the window draws its outline).
    private(set) var focusedIndex = 0
    /// What the user did, for the App.
    package var onAction: (WindowAction) -> Void = { _ in }
    /// The key bindings overlay's lines (from the App's table).
    package var helpLines: [(keys: String, help: String)] = []
    /// Events of other windows (Picture in Picture), by window id.
    package var onOtherWindowEvent: (OtherWindowEvent) -> Void = { _ in }
    var messages = OSDLines()
    var needsRedraw = true
    /// The tile under the mouse shows its Picture in Picture button until
    /// the mouse rests for this long.
    var hover: (index: Int, until: UInt64)?
    /// The player whose camera is being recorded (its bar's record button shows stop); the App sets it.
    package var recordingPlayer: ObjectIdentifier?
    /// The mouse in the window, for the seek bar's time label.
    var pointer: (x: Int, y: Int)?
    /// The seek or volume bar the mouse is dragging, and when it last seeked.
    var dragging: (index: Int, volume: Bool, lastSeek: UInt64)?
    /// A drag panning a zoomed tile: the tile, where it started and its zoom then.
    var panning: (index: Int, x: Int, y: Int, zoom: VideoZoom)?
    /// What the control bar showed when last drawn: redraw when it changes.
    var drawnBar: BarState?
    /// A list to pick from over everything (file browser, recent files);
    /// while it shows, keys and clicks go to it.
    package var list: ListOverlay? { didSet { needsRedraw = true } }
    /// The camera roll (`library`) over everything; while it shows, keys, clicks and the wheel go to it.
    package var library: LibraryView? { didSet { needsRedraw = true } }
    /// The key bindings overlay (F1 or ?).
    package var showsHelp = false { didSet { needsRedraw = true } }
    /// The context menu; while it shows, keys and clicks go to it.
    package internal(set) var menu: ContextMenu? { didSet { needsRedraw = true } }
    var pointerAutohide = PointerAutohide()
    /// Hovering a seek bar shows the picture at that time (`--thumbnails`).
    package var showsThumbnails = true { didSet { needsRedraw = true } }
    /// How the seek-bar thumbnails came: seconds from the mouse reaching a
    /// time to its picture, for each time not made before, and how many
    /// times were ready at once (for `--stats-json`).
    package internal(set) var thumbnailWaits: [Double] = []
    package internal(set) var thumbnailsReady = 0
    /// Presents of the whole window, and of only the tiles that changed.
    package internal(set) var fullPresents = 0
    package internal(set) var tilePresents = 0
    static let hoverSeconds = 2.0

    /// Every present of the window, whole or of tiles alone (`window-presents`).
    package var presents: Int { fullPresents + tilePresents }

    /// What the window shows is final until something happens: drawn since
    /// the last change, no OSD line or control bar waiting to go, every
    /// view's picture made for its layout and its player at rest
    /// (`window-settled`: screen tests wait for it, then for a present).
    package var isSettled: Bool { unsettledBy == nil }

    /// What keeps the window from being settled, in a word (nil: settled),
    /// for a test that waited in vain to say why.
    package var unsettledBy: String? {
        if let own = ownUnsettledBy { return own }
        if let index = views.firstIndex(where: { !$0.isAtRest }) {
            return "tile \(index + 1): " + (views[index].restBlocker ?? "?")
        }
        return nil
    }

    /// The main loop should look again soon though no player gives it a
    /// time: something of the window's own is unsettled, or a picture is
    /// still being made for a player at rest (a player that moves gives the
    /// loop its own deadlines).
    package var awaitsLook: Bool { ownUnsettledBy != nil || views.contains { $0.player.isAtRest && !$0.isAtRest } }

    /// What keeps the window itself from being settled, its views apart: a
    /// redraw, an OSD line or control bar to go, pictures being made.
    private var ownUnsettledBy: String? {
        if needsRedraw { return "a redraw" }
        if let library, library.status != nil || library.pictures.isMaking { return "the roll's listing or pictures" }
        if !messages.isEmpty { return "an OSD line" }
        if showsPlaylistPanel && playlistPanel.isMakingPreviews { return "the playlist panel's pictures" }
        if hover != nil { return "a control bar" }
        if pointerIsOverVideo && pointerAutohide.isVisible { return "the pointer over the video" }
        return nil
    }

    /// Whether the pointer was over a picture at the last refresh (it hides there after a second at rest).
    private var pointerIsOverVideo = false

    /// `uiScale`: `--ui-scale` (nil: from the display).
    package init(title: String, width: Int, height: Int, position: (x: Int, y: Int)?, uiScale: Double? = nil) throws(SDLError) {
        let x = position.map { Int32($0.x) } ?? DP_SDL_WINDOWPOS_CENTERED
        let y = position.map { Int32($0.y) } ?? DP_SDL_WINDOWPOS_CENTERED
        window = try Window(title: title, width: width, height: height, x: x, y: y)
        scale = UIScale.detect(window: window.window, requested: uiScale)
        text = TextRenderer(pointSize: Int32(scale(TextRenderer.designPointSize)))
        _ = dp_watch_visibility(window.window)
        // Dark at once: never a white flash while the first item opens.
        render()
    }

    package func show(_ views: [PlayerView], focused: Int) {
        guard views.count != self.views.count || zip(views, self.views).contains(where: { $0 !== $1 }) || focused != focusedIndex
        else { return }
        self.views = views
        focusedIndex = focused
        needsRedraw = true
    }

    /// Shows the window again if it was minimised or hidden, above the others.
    package func raise() {
        SDL_ShowWindow(window.window)
        SDL_RestoreWindow(window.window)
        SDL_RaiseWindow(window.window)
    }

    /// Takes a video's display aspect within its size now (the largest
    /// such box inside it), keeping its centre: a portrait phone video gets
    /// a portrait window rather than black bars beside it.
    package func fitAspect(videoWidth: Int, videoHeight: Int) {
        guard videoWidth > 0, videoHeight > 0, !isFullscreen else { return }
        var w: Int32 = 0, h: Int32 = 0, x: Int32 = 0, y: Int32 = 0
        SDL_GetWindowSize(window.window, &w, &h)
        SDL_GetWindowPosition(window.window, &x, &y)
        let scale = min(Double(w) / Double(videoWidth), Double(h) / Double(videoHeight))
        let nw = Int32(saturating: (Double(videoWidth) * scale).rounded()), nh = Int32(saturating: (Double(videoHeight) * scale).rounded())
        guard abs(nw - w) > 1 || abs(nh - h) > 1 else { return }
        SDL_SetWindowSize(window.window, nw, nh)
        SDL_SetWindowPosition(window.window, x + (w - nw) / 2, y + (h - nh) / 2)
        needsRedraw = true
    }

    package var isFullscreen: Bool {
        get { window.isFullscreen }
        set { window.setFullscreen(newValue) }
    }

    package func setTitle(_ title: String) { window.setTitle(title) }

    /// Its size and place on the screen.
    package var frame: (x: Int, y: Int, width: Int, height: Int) {
        var x: Int32 = 0, y: Int32 = 0
        SDL_GetWindowPosition(window.window, &x, &y)
        let (w, h) = window.size
        return (Int(x), Int(y), w, h)
    }

    package var pointerVisible: Bool { pointerAutohide.isVisible }

    /// SDL holds the screen saver off (its own state, as it reports it).
    package var holdsOffScreenSaver: Bool {
        get { SDL_IsScreenSaverEnabled() == SDL_FALSE }
        set {
            guard newValue != holdsOffScreenSaver else { return }
            newValue ? SDL_DisableScreenSaver() : SDL_EnableScreenSaver()
        }
    }

    /// Another window covers it whole (X11's VisibilityNotify; never
    /// under a compositing window manager, which draws windows off screen).
    package internal(set) var isCovered = false

    /// Minimized or hidden: nothing in it is seen.
    package var isMinimized: Bool {
        SDL_GetWindowFlags(window.window) & (SDL_WINDOW_MINIMIZED.rawValue | SDL_WINDOW_HIDDEN.rawValue) != 0
    }

    package func capture() throws(MediaError) -> PictureBuffer { try window.capture() }

    var bounds: Rect {
        let (w, h) = window.size
        return Rect(x: 0, y: 0, width: w, height: h)
    }

    /// Shows a line on the OSD for `seconds`, at the bottom of the window.
    /// A line with a `topic` (a setting: "volume", "sub-delay") replaces
    /// the one before on it.
    package func showMessage(_ message: String, seconds: Double, topic: String?) {
        messages.add(message, topic: topic, until: HostTime.after(seconds: seconds))
        needsRedraw = true
    }

    /// The area each view gets, by the layout (or the comparison's view).
    func areas() -> [Rect] {
        if let compare { return compare.areas(count: views.count, in: compareBounds) }
        return layout.areas(count: views.count, in: contentBounds)
    }

    /// The pointer rests over a picture, with nothing it is needed for
    /// (a drag, a list, the key overlay, a control bar).
    private func pointerOverVideo(_ areas: [Rect]) -> Bool {
        guard let (x, y) = pointer, dragging == nil, compare?.isDragging != true, list == nil, library == nil, menu == nil, !showsHelp, controlBar(at: x, y: y) == nil,
              let index = comparing ? (views.isEmpty ? nil : 0) : areas.firstIndex(where: { $0.contains(x: x, y: y) }),
              views.indices.contains(index), !views[index].isDetached else { return false }
        return views[index].player.currentItem?.info?.hasVideo == true
    }

    /// Minimized or covered: the players go on unseen (no conversion, no upload, no present).
    private var isSeen: Bool { !isMinimized && !isCovered }

    /// The views shown, each with its area: the tiles, then the background's.
    private func shownViews(_ areas: [Rect]) -> [(view: PlayerView, area: Rect)] {
        Array(zip(views, areas)) + (background.map { [($0, bounds)] } ?? [])
    }

    /// Lays the views out for this turn and says what each one's player
    /// needs before it takes its frame (`PlayerView.measure`), for the App
    /// to give them; `refresh(at:)` follows.
    package func measureViews() -> [PlayerView.PlayerNeeds] {
        // Every side of a comparison in the reference's geometry, with the shared zoom.
        compare?.prepare(views)
        let seen = isSeen
        return shownViews(areas()).compactMap { $0.view.measure(in: $0.area, seen: seen) }
    }

    /// Advances every player, uploads due frames and redraws when needed.
    /// Returns what the comparison measured when it was drawn (nil: not
    /// drawn this turn, or no comparison), for the App to keep in its state.
    @discardableResult
    package func refresh(at now: UInt64) -> CompareView.Drawing? {
        let areas = areas()
        let seen = isSeen
        // Drawing changed tiles alone, a tile's picture is made where the
        // renderer would copy it: in the window's own frame buffer.
        let onWindow = drawsTilesAlone
        for view in views {
            if view.windowFramebuffer == nil {
                view.windowFramebuffer = { [weak window] r in window?.framebuffer(x: r.x, y: r.y, width: r.width, height: r.height) }
            }
            view.drawsOnWindow = onWindow
        }
        let refreshed = PlayerView.refresh(shownViews(areas), at: now, renderer: window.renderer, seen: seen)
        let changed = views.indices.filter { refreshed[$0] }
        if background != nil && refreshed[views.count] { needsRedraw = true }
        guard seen else {
            needsRedraw = true  // everything is drawn anew when it shows again
            return nil
        }
        // The controls stay while the mouse is on them (looking at a thumbnail).
        if let h = hover, h.until <= now, dragging == nil,
           !(pointer.map { shownControlBar(h.index, in: areas)?.bar.contains(x: $0.x, y: $0.y) == true } ?? false) {
            hover = nil
            needsRedraw = true
        }
        // The bar's time, knob and label move while it shows.
        if barSignature(areas) != drawnBar { needsRedraw = true }
        updateTooltip(areas, at: now)
        if showsPlaylistPanel, playlistPanel.takeChanges() { needsRedraw = true }
        if library?.takeChanges() == true { needsRedraw = true }
        if metricsGraph?.changed == true || scopePanel?.changed == true { needsRedraw = true }
        updateThumbnails(areas, at: now)
        pointerIsOverVideo = pointerOverVideo(areas)
        pointerAutohide.update(at: now, overVideo: pointerIsOverVideo)
        if messages.expire(at: now) { needsRedraw = true }
        if needsRedraw || (!changed.isEmpty && !drawsTilesAlone) {
            return render()
        } else if !changed.isEmpty {
            renderTiles(changed, in: areas)
        }
        return nil
    }
}
