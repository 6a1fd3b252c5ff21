// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Media
import UI
import Foundation

/// Zoom and pan with mpv's names and meanings (`video-zoom`: log2 of the
/// fitted size; `video-pan-x`/`-y`: the zoomed picture's centre moved by
/// that many of its widths and heights), and DeskPlayer's pixel zoom and
/// smooth magnification. In a comparison every side shares one zoom;
/// otherwise a sync group's tiles share theirs (each setter runs for every
/// member with the value worked out from the tile the command named, so
/// the same video point sits at the same place in each tile), and a tile
/// outside any group zooms alone.
enum ZoomProperties {
    /// The zoom the target shows: the comparison's, else its tile's.
    static func zoom(_ t: PropertyTarget) throws(CommandError) -> VideoZoom {
        if let state = t.controller.compare { return state.zoom }
        guard let tile = t.tile else { throw .propertyUnavailable }
        return tile.view.zoom ?? VideoZoom()
    }

    /// Changes the target's zoom: the comparison's, else its tile's (back
    /// to none at the fitted picture, so a plain tile is drawn as before).
    static func change(_ t: PropertyTarget, _ body: (inout VideoZoom) -> Void) throws(CommandError) {
        if let state = t.controller.compare {
            body(&state.zoom)
            return
        }
        guard let tile = t.tile else { throw .propertyUnavailable }
        var zoom = tile.view.zoom ?? VideoZoom()
        body(&zoom)
        tile.view.zoom = zoom == VideoZoom() ? nil : zoom
    }

    /// Video pixels per screen pixel of the fitted picture: the
    /// reference's in a comparison, else the named tile's (the group's
    /// leader), so every member gets the same video-zoom.
    static func fitScale(_ t: PropertyTarget) throws(CommandError) -> Double {
        if let state = t.controller.compare { return state.fitScale }
        guard let tile = t.leader ?? t.tile else { throw .propertyUnavailable }
        return tile.view.fitScale ?? 1
    }

    static let all: [Property] = [
        Property("video-zoom", .number(VideoZoom.range), scope: .group, get: { t throws(CommandError) in .number(try zoom(t).log2) },
                 set: { t, v throws(CommandError) in
                     let log2 = try PropertyValue.number(v, in: VideoZoom.range)
                     try change(t) { $0.log2 = log2 }
                 },
                 osd: { t in (try? zoom(t)).map { String(format: "Zoom %.2f (%.2f×)", $0.log2, exp2($0.log2)) } }),
        Property("video-pan-x", .number(VideoZoom.panRange), scope: .group, get: { t throws(CommandError) in .number(try zoom(t).panX) },
                 set: { t, v throws(CommandError) in
                     let pan = try PropertyValue.number(v, in: VideoZoom.panRange)
                     try change(t) { $0.panX = pan }
                 }),
        Property("video-pan-y", .number(VideoZoom.panRange), scope: .group, get: { t throws(CommandError) in .number(try zoom(t).panY) },
                 set: { t, v throws(CommandError) in
                     let pan = try PropertyValue.number(v, in: VideoZoom.panRange)
                     try change(t) { $0.panY = pan }
                 }),
        // Screen pixels per video pixel: 1 shows it 1:1, 2, 4, 8 magnified; 0 fits it again, centred.
        Property("compare-pixel-zoom", .number(0...64), scope: .group, changes: .polled, get: { t throws(CommandError) in
            .number((exp2(try zoom(t).log2) / (try fitScale(t)) * 1000).rounded() / 1000)
        }, set: { t, v throws(CommandError) in
            let n = try PropertyValue.number(v, in: 0...64)
            let scale = try fitScale(t)
            try change(t) { zoom in
                if n == 0 {
                    zoom = VideoZoom(smooth: zoom.smooth)
                } else {
                    zoom.log2 = min(max(log2(n * scale), VideoZoom.range.lowerBound), VideoZoom.range.upperBound)
                }
            }
        }, osd: { t in
            guard let z = try? zoom(t), let scale = try? fitScale(t) else { return nil }
            return z.log2 == 0 && z.panX == 0 && z.panY == 0 ? "Zoom: fit"
                : String(format: "Zoom: %.2g screen pixels a video pixel", exp2(z.log2) / scale)
        }),
        Property("compare-smooth", .flag, scope: .group, get: { t throws(CommandError) in .bool(try zoom(t).smooth) },
                 set: { t, v throws(CommandError) in
                     let smooth = try PropertyValue.flag(v)
                     try change(t) { $0.smooth = smooth }
                 },
                 osd: { t in (try? zoom(t)).map { $0.smooth ? tr("Magnified pixels: smooth") : tr("Magnified pixels: squares") } }),
    ]
}
