// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Output

/// The tiles' control bars in the main window: which one shows and holds
/// the pointer, what it depends on (redrawn when that changes), presses and
/// drags on its buttons and bars, the seek-bar thumbnail under the pointer,
/// and the Picture in Picture button.
extension MainWindow {
    /// The control bar shown (on the hovered tile) that holds (x, y).
    func controlBar(at x: Int, y: Int) -> (Int, ControlBar)? {
        guard let hover, let bar = shownControlBar(hover.index, in: areas()), bar.bar.contains(x: x, y: y) else { return nil }
        return (hover.index, bar)
    }

    /// A tile's controls (and PiP button) show for a moment.
    func showControls(_ index: Int) {
        hover = (index, HostTime.after(seconds: MainWindow.hoverSeconds))
    }

    /// The bar of tile `index` when it has one to show (a player with an item, in this window).
    func shownControlBar(_ index: Int, in areas: [Rect]) -> ControlBar? {
        guard !comparing, views.indices.contains(index), areas.indices.contains(index), !views[index].isDetached,
              views[index].player.currentItem != nil, areas[index].height >= ControlBar.height(scale) * 2 else { return nil }
        return ControlBar(in: areas[index], scale: scale, camera: views[index].player.currentItem?.info?.isDevice == true)
    }

    /// What the shown control bar depends on (nil without one); compared
    /// every refresh, so a plain value, no allocation.
    struct BarState: Equatable {
        var index: Int, quarterSeconds: Int, paused: Bool, volume: Float, muted: Bool, pointerX: Int, pointerY: Int
        var recording = false
    }

    func barSignature(_ areas: [Rect]) -> BarState? {
        guard let hover, shownControlBar(hover.index, in: areas) != nil else { return nil }
        let p = views[hover.index].player
        return BarState(index: hover.index, quarterSeconds: Int(saturating: p.currentTime.seconds * 4), paused: p.isPaused,
                        volume: p.volume, muted: p.isMuted, pointerX: pointer?.x ?? -1, pointerY: pointer?.y ?? -1,
                        recording: recordingPlayer == ObjectIdentifier(p))
    }

    /// Asks the hovered tile's thumbnail for the time under the mouse on its
    /// seek bar; every other tile's stops making pictures.
    func updateThumbnails(_ areas: [Rect], at now: UInt64) {
        var active: Int?
        if showsThumbnails, let hover, let (x, y) = pointer, dragging?.volume != true, list == nil, !showsHelp,
           let bar = shownControlBar(hover.index, in: areas), bar.seekTrack.contains(x: x, y: y),
           let item = views[hover.index].player.currentItem, let duration = item.duration?.seconds, duration > 0 {
            active = hover.index
            let outcome = views[hover.index].seekThumbnail.hover(item, seconds: ControlBar.fraction(x: x, along: bar.seekTrack) * duration,
                                                                 now: now)
            if let waited = outcome.waitedSeconds { thumbnailWaits.append(waited) }
            if outcome.wasReady { thumbnailsReady += 1 }
            if outcome.changed { needsRedraw = true }
        }
        for (index, view) in views.enumerated() where index != active { view.seekThumbnail.leave() }
    }

    func pressBar(_ bar: ControlBar, index: Int, x: Int, y: Int) {
        showControls(index)
        if let button = bar.button(atX: x, y: y) {
            switch button {
            case .play: onAction(.playButton(tile: index))
            case .audio, .subtitles: onAction(.trackButton(tile: index, audio: button == .audio))
            default: onAction(.barButton(tile: index, button))
            }
            tooltip = nil
        } else if bar.seekTrack.contains(x: x, y: y) {
            dragging = (index, false, 0)
            dragBar((index, false, 0), x: x, final: true)
        } else if bar.volumeTrack.contains(x: x, y: y) {
            dragging = (index, true, 0)
            dragBar((index, true, 0), x: x, final: true)
        }
        needsRedraw = true
    }

    /// Follows a drag on the seek or volume bar. While dragging, a keyframe
    /// seek at most every 50 ms (what is there shows at once, as in mpv and
    /// editors), and an exact seek where it is let go.
    func dragBar(_ drag: (index: Int, volume: Bool, lastSeek: UInt64), x: Int, final: Bool) {
        guard let bar = shownControlBar(drag.index, in: areas()) else { return }
        showControls(drag.index)
        pointer = (x, bar.seekTrack.y)
        needsRedraw = true
        if drag.volume {
            onAction(.volumeBar(tile: drag.index, percent: Int(saturating: (ControlBar.fraction(x: x, along: bar.volumeTrack) * 100).rounded())))
            return
        }
        let now = HostTime.now()
        guard final || now - drag.lastSeek > 50_000_000 else { return }
        onAction(.seekBar(tile: drag.index, fraction: ControlBar.fraction(x: x, along: bar.seekTrack), exact: final))
        if dragging != nil { dragging?.lastSeek = now }
    }

    /// The Picture in Picture button of a tile: top-right corner, inside the outline.
    static func pipButton(in area: Rect, scale u: UIScale = UIScale(factor: 1, source: "default")) -> Rect {
        Rect(x: area.x + area.width - u(52), y: area.y + u(10), width: u(42), height: u(30))
    }

    /// The tile whose (shown) Picture in Picture button is at (x, y).
    func pipButtonHit(x: Int, y: Int) -> Int? {
        guard let hover, views.indices.contains(hover.index), !views[hover.index].isDetached else { return nil }
        let areas = areas()
        guard areas.indices.contains(hover.index), MainWindow.pipButton(in: areas[hover.index], scale: scale).contains(x: x, y: y)
        else { return nil }
        return hover.index
    }

    /// The button the pointer rests on (for `tooltipSeconds`) shows its tooltip.
    func updateTooltip(_ areas: [Rect], at now: UInt64) {
        var tip: BarButton?
        if let hover, let (x, y) = pointer, dragging == nil, now &- pointerMovedAt >= UInt64(MainWindow.tooltipSeconds * 1e9),
           let bar = shownControlBar(hover.index, in: areas) {
            tip = bar.button(atX: x, y: y)
        }
        if tip != tooltip {
            tooltip = tip
            needsRedraw = true
        }
    }
}
