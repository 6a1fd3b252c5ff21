// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Output
// SDL's headers bring X11's `Window` too; this one is meant.
import class Output.Window
import Playback

/// The floating mini window of Picture in Picture: borderless, always on
/// top, dragged anywhere, resized from its corners keeping the video's aspect,
/// kept inside the screen. On hover it shows play/pause, restore and close
/// and a thin progress bar. It has its own renderer, so its own view (and
/// texture) of the player; the player itself is not touched.
package final class PiPWindow {
    package enum Action: Equatable {
        case togglePause
        case restore
        case close
        /// A file dropped on the mini window: it plays there instead.
        case play(String)
        /// A key by mpv's name: the App looks it up in its binding table
        /// (the `{pip}` section first), as it does the main window's.
        case key(String)
    }

    let window: Window
    let view: PlayerView
    private(set) var hovering = false
    private var needsRedraw = true
    private var aspect: Double
    private var transientParent: OpaquePointer?
    static let barHeight = 36

    package var id: UInt32 { SDL_GetWindowID(window.window) }

    /// Opens at a quarter of the screen's width (a portrait video: at most
    /// 40 % of its height), keeping `aspect`, in the bottom-right corner of
    /// the usable area (away from a taskbar).
    package init(player: Player, aspect: Double, title: String) throws(SDLError) {
        let usable = PiPWindow.usableBounds
        let aspect = min(max(aspect, 0.1), 10)
        let (width, height) = PiPWindow.size(for: aspect, in: usable)
        let margin: Int32 = 24
        let x = usable.x + usable.w - Int32(width) - margin, y = usable.y + usable.h - Int32(height) - margin
        window = try Window(title: title, width: width, height: height, x: x, y: y,
                            flags: SDL_WINDOW_BORDERLESS.rawValue | SDL_WINDOW_ALWAYS_ON_TOP.rawValue)
        self.aspect = aspect
        view = PlayerView(player: player, contentMode: .fit)
        SDL_SetWindowHitTest(window.window, pipHitTest, nil)
        // A portrait video's mini window may be narrower than a landscape one's.
        SDL_SetWindowMinimumSize(window.window, aspect < 1 ? 90 : 160, 90)
    }

    private static var usableBounds: SDL_Rect {
        var usable = SDL_Rect()
        if SDL_GetDisplayUsableBounds(0, &usable) != 0 { usable = SDL_Rect(x: 0, y: 0, w: 1280, h: 720) }
        return usable
    }

    /// A quarter of the screen's width, at most 40 % of its height (a portrait video).
    private static func size(for aspect: Double, in usable: SDL_Rect) -> (Int, Int) {
        var width = max(Int(usable.w) / 4, 160)
        if Double(width) / aspect > Double(usable.h) * 0.4 { width = max(Int(saturating: Double(usable.h) * 0.4 * aspect), 90) }
        return (width, max(Int(saturating: Double(width) / aspect), 90))
    }

    /// A mini window opened before its video was known (or that now shows
    /// another video) takes the video's aspect, turned upright, keeping its
    /// bottom-right corner where it was.
    private func followVideoAspect() {
        guard let info = view.player.currentItem?.info, info.hasVideo, info.displayHeight > 0 else { return }
        let wanted = min(max(Double(info.displayWidth) / Double(info.displayHeight), 0.1), 10)
        guard abs(wanted - aspect) / aspect > 0.01 else { return }
        aspect = wanted
        var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowPosition(window.window, &x, &y)
        SDL_GetWindowSize(window.window, &w, &h)
        let (nw, nh) = PiPWindow.size(for: wanted, in: PiPWindow.usableBounds)
        SDL_SetWindowMinimumSize(window.window, wanted < 1 ? 90 : 160, 90)
        SDL_SetWindowSize(window.window, Int32(nw), Int32(nh))
        SDL_SetWindowPosition(window.window, x + w - Int32(nw), y + h - Int32(nh))
        keepOnScreen()
        needsRedraw = true
    }

    /// Keeps the mini window above `main` while it is fullscreen: window
    /// managers stack a focused fullscreen window over always-on-top ones but
    /// keep its transients above it. Not a transient otherwise, so that
    /// minimizing the main window leaves the mini window on screen.
    package func stayAbove(fullscreen main: Window?) {
        let parent = main?.window
        guard parent != transientParent else { return }
        transientParent = parent
        _ = dp_set_transient_for(window.window, parent)
    }

    var bounds: Rect {
        let (w, h) = window.size
        return Rect(x: 0, y: 0, width: w, height: h)
    }

    /// Follows the video's aspect and says what the view's player needs
    /// before it takes its frame (`PlayerView.measure`), for the App to
    /// give it; `refresh(at:text:)` follows.
    package func measureView() -> PlayerView.PlayerNeeds? {
        followVideoAspect()
        return view.measure(in: bounds, seen: true)
    }

    package func refresh(at now: UInt64, text: TextRenderer) {
        if PlayerView.refresh([(view, bounds)], at: now, renderer: window.renderer).first == true { needsRedraw = true }
        if hovering { needsRedraw = true }  // the progress bar moves
        guard needsRedraw else { return }
        let r = window.renderer
        SDL_SetRenderDrawColor(r, 0, 0, 0, 255)
        SDL_RenderClear(r)
        view.draw(in: bounds, renderer: r, text: text)
        if hovering { drawControls(text) }
        SDL_RenderPresent(r)
        needsRedraw = false
    }

    /// The three buttons, left to right, in the bottom bar.
    static func buttons(in bounds: Rect) -> [(Action, Rect)] {
        let size = barHeight - 8
        let y = bounds.height - barHeight + 4
        let x0 = bounds.width / 2 - (3 * size + 2 * 12) / 2
        return [Action.togglePause, .restore, .close].enumerated().map { i, action in
            (action, Rect(x: x0 + i * (size + 12), y: y, width: size, height: size))
        }
    }

    private func drawControls(_ text: TextRenderer) {
        let r = window.renderer
        let b = bounds
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        var bar = SDL_Rect(x: 0, y: Int32(b.height - PiPWindow.barHeight), w: Int32(b.width), h: Int32(PiPWindow.barHeight))
        SDL_SetRenderDrawColor(r, 0, 0, 0, 160)
        SDL_RenderFillRect(r, &bar)
        let player = view.player
        if let duration = player.currentItem?.duration, duration.seconds > 0 {
            let fraction = min(max(player.currentTime.seconds / duration.seconds, 0), 1)
            var progress = SDL_Rect(x: 0, y: Int32(b.height - 3), w: Int32(saturating: Double(b.width) * fraction), h: 3)
            SDL_SetRenderDrawColor(r, 120, 190, 255, 255)
            SDL_RenderFillRect(r, &progress)
        }
        for (action, rect) in PiPWindow.buttons(in: b) {
            fill(rect, (255, 255, 255, 60), renderer: r)
            let label: String
            switch action {
            case .togglePause: label = player.isPaused ? "▶" : "❚❚"
            case .restore: label = "↩"
            case .close: label = "✕"
            case .play, .key: label = ""
            }
            text.drawCentered(label, renderer: r, cx: rect.x + rect.width / 2, cy: rect.y + rect.height / 2,
                              maxWidth: rect.width + 20)
        }
    }

    /// Handles an event of this window; returns what the user asked for.
    package func handle(_ other: OtherWindowEvent) -> Action? {
        let event = other.event
        switch SDL_EventType(event.type) {
        case SDL_WINDOWEVENT:
            needsRedraw = true
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_ENTER: hovering = true
            case SDL_WINDOWEVENT_LEAVE: hovering = false
            case SDL_WINDOWEVENT_CLOSE: return .close
            case SDL_WINDOWEVENT_RESIZED: keepAspect()
            case SDL_WINDOWEVENT_MOVED: keepOnScreen()
            default: break
            }
        case SDL_MOUSEMOTION:
            if !hovering { hovering = true; needsRedraw = true }
        case SDL_MOUSEBUTTONUP:
            let x = Int(event.button.x), y = Int(event.button.y)
            return PiPWindow.buttons(in: bounds).first { $0.1.contains(x: x, y: y) }?.0
        case SDL_DROPFILE:
            guard let file = event.drop.file else { return nil }
            defer { SDL_free(file) }
            return .play(String(cString: file))
        case SDL_KEYDOWN:
            return KeyNames.name(for: event.key.keysym).map { .key($0) }
        default:
            break
        }
        return nil
    }

    /// Corner resizing keeps the video's aspect.
    private func keepAspect() {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(window.window, &w, &h)
        let wanted = Int32(saturating: (Double(w) / max(aspect, 0.1)).rounded())
        if abs(wanted - h) > 1 { SDL_SetWindowSize(window.window, w, wanted) }
        keepOnScreen()
    }

    /// Snaps the window back inside the screen's usable area.
    private func keepOnScreen() {
        var usable = SDL_Rect()
        guard SDL_GetDisplayUsableBounds(0, &usable) == 0 else { return }
        var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowPosition(window.window, &x, &y)
        SDL_GetWindowSize(window.window, &w, &h)
        let nx = min(max(x, usable.x), usable.x + usable.w - w)
        let ny = min(max(y, usable.y), usable.y + usable.h - h)
        if nx != x || ny != y { SDL_SetWindowPosition(window.window, nx, ny) }
    }
}

/// Borderless: the corners resize, the control bar takes clicks, anywhere
/// else drags the window.
private let pipHitTest: @convention(c) (OpaquePointer?, UnsafePointer<SDL_Point>?, UnsafeMutableRawPointer?) -> SDL_HitTestResult = {
    window, point, _ in
    guard let window, let point else { return SDL_HITTEST_NORMAL }
    var w: Int32 = 0, h: Int32 = 0
    SDL_GetWindowSize(window, &w, &h)
    let x = point.pointee.x, y = point.pointee.y, corner: Int32 = 14
    switch (x < corner, x >= w - corner, y < corner, y >= h - corner) {
    case (true, _, true, _): return SDL_HITTEST_RESIZE_TOPLEFT
    case (_, true, true, _): return SDL_HITTEST_RESIZE_TOPRIGHT
    case (true, _, _, true): return SDL_HITTEST_RESIZE_BOTTOMLEFT
    case (_, true, _, true): return SDL_HITTEST_RESIZE_BOTTOMRIGHT
    default: break
    }
    return y >= h - Int32(PiPWindow.barHeight) ? SDL_HITTEST_NORMAL : SDL_HITTEST_DRAGGABLE
}
