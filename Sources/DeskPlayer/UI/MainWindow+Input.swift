// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Output

/// The main window's input, apart from its drawing: SDL's events turned
/// into `WindowAction`s for the App. The menu, the list, the camera roll
/// and the playlist panel take their own events first (`MainWindow+Menu`,
/// `+Library`, `+Playlist`); a press left over reaches what
/// `pointerTarget` finds under it.
extension MainWindow {
    /// Waits up to `timeoutMs` (nil: until something comes) for input and
    /// handles all pending events. Returns false when the window was asked to close.
    package func pumpEvents(timeoutMs: Int32?) -> Bool {
        var event = SDL_Event()
        var open = true
        guard SDL_WaitEventTimeout(&event, timeoutMs.map { max($0, 0) } ?? -1) != 0 else { return true }
        repeat {
            open = handle(event) && open
        } while SDL_PollEvent(&event) != 0
        return open
    }

    /// The window an input or window event belongs to (0 for none).
    private static func windowID(of event: SDL_Event) -> UInt32 {
        switch SDL_EventType(event.type) {
        case SDL_KEYDOWN, SDL_KEYUP: return event.key.windowID
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP: return event.button.windowID
        case SDL_MOUSEMOTION: return event.motion.windowID
        case SDL_MOUSEWHEEL: return event.wheel.windowID
        case SDL_WINDOWEVENT: return event.window.windowID
        case SDL_DROPFILE: return event.drop.windowID
        default: return 0
        }
    }

    private func handle(_ event: SDL_Event) -> Bool {
        let id = MainWindow.windowID(of: event)
        if id != 0 && id != SDL_GetWindowID(window.window) {
            onOtherWindowEvent(OtherWindowEvent(windowID: id, event: event))
            return true
        }
        if menu != nil, handleMenuEvent(event) { return true }
        if library != nil, list == nil, menu == nil, handleLibraryEvent(event) { return true }
        if showsPlaylistPanel, list == nil, library == nil, menu == nil, !showsHelp, handlePanelEvent(event) { return true }
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return false
        case SDL_SYSWMEVENT:
            var e = event
            let covered = dp_visibility_change(&e, window.window)
            if covered >= 0 {
                isCovered = covered == 1
                needsRedraw = true
            }
        case SDL_WINDOWEVENT where SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_CLOSE:
            return false  // with a PiP window open, SDL sends no SDL_QUIT for the main one
        case SDL_WINDOWEVENT where SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_MINIMIZED:
            onAction(.minimized)
        case SDL_WINDOWEVENT where SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_RESTORED:
            needsRedraw = true
            onAction(.restored)
        case SDL_MOUSEMOTION:
            pointerMovedAt = HostTime.now()
            pointerAutohide.moved(at: pointerMovedAt)
            motion(event)
        case SDL_DROPFILE:
            if let file = event.drop.file {
                let path = String(cString: file)
                SDL_free(file)
                var x: Int32 = 0, y: Int32 = 0
                SDL_GetMouseState(&x, &y)
                onAction(.drop(path: path, tile: tileIndex(x: Int(x), y: Int(y))))
            }
        case SDL_KEYDOWN where list != nil:
            if let name = KeyNames.name(for: event.key.keysym), let action = list?.handleKey(name) { onAction(.list(action)) }
            needsRedraw = true
        case SDL_MOUSEBUTTONDOWN:
            press(event)
        case SDL_KEYDOWN:
            guard let name = KeyNames.name(for: event.key.keysym) else { break }
            // A key shows the focused tile's controls a moment, as a mouse move does.
            showControls(focusedIndex)
            onAction(.key(name))
        case SDL_MOUSEBUTTONUP where dragging != nil:
            if let drag = dragging { dragBar(drag, x: Int(event.button.x), final: true) }
            dragging = nil
        case SDL_WINDOWEVENT where SDL_WindowEventID(UInt32(event.window.event)) == SDL_WINDOWEVENT_LEAVE:
            hover = nil
            pointer = nil
            needsRedraw = true
        case SDL_MOUSEWHEEL where comparing:
            var x: Int32 = 0, y: Int32 = 0
            SDL_GetMouseState(&x, &y)
            let steps = Double(event.wheel.y) * (event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1)
            if let gesture = compare?.wheel(steps: steps, x: Int(x), y: Int(y), in: compareBounds) { onAction(.compare(gesture)) }
        case SDL_MOUSEWHEEL:
            var x: Int32 = 0, y: Int32 = 0
            SDL_GetMouseState(&x, &y)
            let steps = Double(event.wheel.y) * (event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1)
            wheelZoom(steps: steps, x: Int(x), y: Int(y))
        case SDL_MOUSEBUTTONUP:
            compare?.release()
            panning = nil
        case SDL_WINDOWEVENT:
            menu?.fit(in: bounds)
            needsRedraw = true
        default:
            break
        }
        return true
    }

    /// A press the overlays' own handlers left (`handle`): the list takes
    /// any, a right or middle click is the App's (MBTN_RIGHT opens the
    /// menu), a left one goes to what is under it.
    private func press(_ event: SDL_Event) {
        let (x, y) = (Int(event.button.x), Int(event.button.y))
        let target = pointerTarget(x: x, y: y)
        if case .list = target {
            if let list, let index = list.index(atX: x, y: y, in: bounds, lineHeight: text.lineHeight) {
                list.select(index)
                if event.button.clicks >= 2 { onAction(.list(.pick(index))) }
            }
            needsRedraw = true
            return
        }
        if event.button.button == UInt8(SDL_BUTTON_RIGHT) || event.button.button == UInt8(SDL_BUTTON_MIDDLE) {
            buttonClick(event)
            return
        }
        switch target {
        case .idleChoice(let command):
            // Exactly as the menu's item of the same words runs it.
            onAction(.menu(command))
        case .menu, .list, .library, .panel, .nothing:
            break  // their own handlers took their presses (`handle`); nothing else is under the pointer
        case .metricsGraph(let fraction):
            onAction(.seekBar(tile: focusedIndex, fraction: fraction))
        case .pipButton(let index):
            onAction(.pipButton(tile: index))
            hover = nil
            needsRedraw = true
        case .controlBar(let index, let bar):
            pressBar(bar, index: index, x: x, y: y)
        case .comparison:
            if let gesture = compare?.press(x: x, y: y, in: compareBounds) { onAction(.compare(gesture)) }
        case .tile(let index):
            onAction(.focus(tile: index))
            // A zoomed-in picture pans with a drag.
            if let zoom = views[index].zoom, zoom.log2 > 0, event.button.button == UInt8(SDL_BUTTON_LEFT) {
                panning = (index, x, y, zoom)
            }
        }
    }

    /// What a press at a point reaches, the topmost first (as drawn, the
    /// menu over everything): the one place the window's parts are hit-tested.
    enum PointerTarget {
        /// The context menu, while open: every press is its own (one beside it closes it).
        case menu
        /// A list to pick from (file browser, recent files), over everything but the menu.
        case list
        /// The camera roll, over the tiles.
        case library
        /// The playlist panel at the right side.
        case panel
        /// The metrics strip of a comparison: a press seeks to its time (a fraction of the length).
        case metricsGraph(fraction: Double)
        /// A tile's Picture in Picture button.
        case pipButton(tile: Int)
        /// A tile's control bar.
        case controlBar(tile: Int, ControlBar)
        /// The comparison's view (its divider, a zoomed picture's pan).
        case comparison
        /// One of the idle window's buttons (a file, the camera, the roll): its command.
        case idleChoice(String)
        /// A tile's picture.
        case tile(Int)
        case nothing
    }

    func pointerTarget(x: Int, y: Int) -> PointerTarget {
        if menu != nil { return .menu }
        if list != nil { return .list }
        if library != nil { return .library }
        if !showsHelp, let panel = panelRect, panel.contains(x: x, y: y) { return .panel }
        if let fraction = metricsGraph?.seekFraction(x: x, y: y, bounds: bounds) { return .metricsGraph(fraction: fraction) }
        if comparing { return .comparison }
        if views.isEmpty, let command = IdleScreen.choice(atX: x, y: y, in: contentBounds, text: text, scale: scale) {
            return .idleChoice(command)
        }
        if let index = pipButtonHit(x: x, y: y) { return .pipButton(tile: index) }
        if let (index, bar) = controlBar(at: x, y: y) { return .controlBar(tile: index, bar) }
        if let index = tileIndex(x: x, y: y) { return .tile(index) }
        return .nothing
    }

    /// The tile whose area holds a point.
    func tileIndex(x: Int, y: Int) -> Int? {
        areas().firstIndex { $0.contains(x: x, y: y) }
    }

    private func motion(_ event: SDL_Event) {
        let x = Int(event.motion.x), y = Int(event.motion.y)
        if let drag = dragging {
            dragBar(drag, x: x, final: false)
        } else if let compare, compare.isDragging {
            if let gesture = compare.drag(x: x, y: y, in: compareBounds) { onAction(.compare(gesture)) }
        } else if let pan = panning {
            let areas = areas()
            guard views.indices.contains(pan.index), areas.indices.contains(pan.index),
                  let fitted = views[pan.index].fittedSize(in: areas[pan.index]) else { return }
            onAction(.zoom(tile: pan.index, pan.zoom.panned(from: (pan.zoom.panX, pan.zoom.panY), dx: x - pan.x, dy: y - pan.y,
                                                            fitted: fitted)))
        } else if comparing {
            pointer = (x, y)
            // The loupe follows the pointer.
            if compare?.state.showsLoupe == true { needsRedraw = true }
        } else {
            let before = pointer
            pointer = (x, y)
            // The idle window's button under the pointer lights up.
            if views.isEmpty, let before,
               IdleScreen.choice(atX: before.x, y: before.y, in: contentBounds, text: text, scale: scale)
                != IdleScreen.choice(atX: x, y: y, in: contentBounds, text: text, scale: scale) {
                needsRedraw = true
            } else if views.isEmpty, before == nil {
                needsRedraw = true
            }
            if let index = tileIndex(x: x, y: y) {
                if hover?.index != index { needsRedraw = true }
                showControls(index)
            }
        }
    }

    /// The wheel over a tile zooms its picture around the pointer (the
    /// video point under it stays there), for the App to apply to the tile
    /// and its sync group.
    private func wheelZoom(steps: Double, x: Int, y: Int) {
        let areas = areas()
        guard steps != 0, list == nil, library == nil, menu == nil, !showsHelp, let index = tileIndex(x: x, y: y), views.indices.contains(index),
              !views[index].isDetached,
              let fitted = views[index].fittedSize(in: areas[index]) else { return }
        let zoom = (views[index].zoom ?? VideoZoom()).zoomed(by: steps, around: x, y, area: areas[index], fitted: fitted)
        onAction(.zoom(tile: index, zoom))
    }
}
