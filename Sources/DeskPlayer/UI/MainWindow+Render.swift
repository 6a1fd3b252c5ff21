// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Output

/// Drawing the main window: the whole of it (tiles, comparison, bars,
/// panels, overlays, OSD lines), or only the tiles whose picture changed.
extension MainWindow {
    /// Whether a changed picture can be drawn and pushed to the screen on
    /// its own: nothing drawn over or under the tiles (background, wipe,
    /// buttons, bars, lists, OSD lines), and a renderer that keeps the
    /// window's pixels between presents (SDL's software one: the frame
    /// buffer it draws into is the window's own).
    var drawsTilesAlone: Bool {
        window.isSoftware && background == nil && !comparing && hover == nil && !showsHelp
            && list == nil && library == nil && menu == nil && messages.isEmpty && drawnBar == nil && metricsGraph == nil && scopePanel == nil
    }

    /// Draws only the tiles whose picture changed and pushes only their
    /// rectangles to the screen: with many tiles each frame touches one,
    /// so a whole-window clear, copy and push per frame is mostly waste.
    func renderTiles(_ indices: [Int], in areas: [Rect]) {
        let r = window.renderer
        for index in indices where areas.indices.contains(index) {
            views[index].draw(in: areas[index], renderer: r, text: text)
            if index == focusedIndex { drawFocusOutline(areas[index]) }
        }
        window.present(rects: indices.compactMap { areas.indices.contains($0) ? areas[$0].sdl : nil })
        tilePresents += 1
    }

    /// Where a comparison's pictures and labels go: above the metrics panel
    /// when there is one, so neither covers the other.
    var compareBounds: Rect {
        metricsGraph == nil ? contentBounds : MetricsGraph.areaAbove(in: contentBounds, lineHeight: text.lineHeight)
    }

    package var compareSize: (width: Int, height: Int)? {
        compare == nil ? nil : (compareBounds.width, compareBounds.height)
    }

    /// Draws the whole window; returns what the comparison measured, if one is drawn.
    @discardableResult
    func render() -> CompareView.Drawing? {
        let r = window.renderer
        // The whole window is drawn anew: pictures made in its frame buffer go to their textures first.
        for view in views { view.adoptWindowPicture() }
        SDL_SetRenderDrawColor(r, 0, 0, 0, 255)
        SDL_RenderClear(r)
        background?.draw(in: bounds, renderer: r, text: text)
        let areas = areas()
        var compareDrawing: CompareView.Drawing?
        if let compare, !views.isEmpty {
            compareDrawing = compare.draw(views, in: compareBounds, renderer: r, text: text, pointer: pointer)
        } else if views.isEmpty {
            IdleScreen.draw(in: contentBounds, renderer: r, text: text, scale: scale, pointer: pointer)
        } else {
            for (view, area) in zip(views, areas) {
                view.draw(in: area, renderer: r, text: text, overBackground: background != nil)
            }
        }
        if !comparing, areas.indices.contains(focusedIndex) { drawFocusOutline(areas[focusedIndex]) }
        if let hover, !comparing, areas.indices.contains(hover.index), views.indices.contains(hover.index),
           !views[hover.index].isDetached {
            drawPiPButton(MainWindow.pipButton(in: areas[hover.index], scale: scale))
        }
        drawnBar = barSignature(areas)
        if let hover, let bar = shownControlBar(hover.index, in: areas) {
            bar.draw(views[hover.index].player, renderer: r, text: text, pointer: pointer,
                     thumbnail: showsThumbnails ? views[hover.index].seekThumbnail : nil, tooltip: tooltip,
                     recording: recordingPlayer == ObjectIdentifier(views[hover.index].player))
        }
        if showsPlaylistPanel { playlistPanel.draw(in: bounds, renderer: r, text: text, scale: scale) }
        metricsGraph?.draw(in: bounds, renderer: r, text: text)
        scopePanel?.draw(in: bounds, renderer: r, text: text)
        if showsHelp { drawHelp() }
        library?.draw(in: bounds, renderer: r, text: text, scale: scale)
        list?.draw(in: bounds, renderer: r, text: text)
        let content = contentBounds
        // Messages sit above a control bar.
        let bottom = content.height - scale(24) - (drawnBar == nil ? 0 : ControlBar.height(scale))
            - (metricsGraph == nil ? 0 : MetricsGraph.height + 24)
        for (i, m) in messages.lines.suffix(3).reversed().enumerated() {
            text.drawCentered(m.text, renderer: r, cx: content.x + content.width / 2, cy: bottom - i * (text.lineHeight + scale(4)),
                              maxWidth: content.width - scale(40),
                              color: SDL_Color(r: 255, g: 220, b: 120, a: 255), backdrop: SDL_Color(r: 0, g: 0, b: 0, a: 160))
        }
        menu?.draw(renderer: r, text: text)
        SDL_RenderPresent(r)
        fullPresents += 1
        needsRedraw = false
        return compareDrawing
    }
}
