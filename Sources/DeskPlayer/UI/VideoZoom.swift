// SPDX-License-Identifier: GPL-3.0-or-later
import Output
import Playback
import Media
import Foundation

/// A shared zoom and pan as mpv has them: `log2` (video-zoom: 0 the
/// fitted size, 1 twice it), `panX`/`panY` (video-pan-x/y: the zoomed
/// picture's centre moved by that many of its widths and heights). Works
/// out what to decode and what of it to draw where.
package struct VideoZoom: Equatable, Sendable {
    package var log2 = 0.0
    package var panX = 0.0
    package var panY = 0.0
    /// Magnified pixels blended (linear) rather than drawn as squares.
    package var smooth = false
    package static let range = -2.0...6.0

    package init(log2: Double = 0, panX: Double = 0, panY: Double = 0, smooth: Bool = false) {
        (self.log2, self.panX, self.panY, self.smooth) = (log2, panX, panY, smooth)
    }

    package var factor: Double { exp2(log2) }
    package static let panRange = -3.0...3.0

    /// Zoomed by `steps` quarters of a doubling (a wheel notch each) around
    /// the screen point (x, y) of `area`, where the picture fits at
    /// `fitted` (width, height): the video point under it stays under it.
    func zoomed(by steps: Double, around x: Int, _ y: Int, area: Rect, fitted: (width: Double, height: Double)) -> VideoZoom {
        let w = fitted.width * factor, h = fitted.height * factor
        let cx = Double(area.x) + Double(area.width) / 2, cy = Double(area.y) + Double(area.height) / 2
        // The pointer in zoomed-picture units from its centre.
        let u = (Double(x) - cx) / max(w, 1) - panX, v = (Double(y) - cy) / max(h, 1) - panY
        var zoom = self
        zoom.log2 = min(max(log2 + steps * 0.25, VideoZoom.range.lowerBound), VideoZoom.range.upperBound)
        let k = exp2(zoom.log2 - log2)
        zoom.panX = VideoZoom.clampPan((Double(x) - cx) / max(w * k, 1) - u)
        zoom.panY = VideoZoom.clampPan((Double(y) - cy) / max(h * k, 1) - v)
        return zoom
    }

    /// Panned by a drag of (dx, dy) screen pixels from `start`: the picture
    /// moves with the pointer (pan is in zoomed picture sizes).
    func panned(from start: (panX: Double, panY: Double), dx: Int, dy: Int, fitted: (width: Double, height: Double)) -> VideoZoom {
        var zoom = self
        zoom.panX = VideoZoom.clampPan(start.panX + Double(dx) / max(fitted.width * factor, 1))
        zoom.panY = VideoZoom.clampPan(start.panY + Double(dy) / max(fitted.height * factor, 1))
        return zoom
    }

    static func clampPan(_ p: Double) -> Double { min(max(p, panRange.lowerBound), panRange.upperBound) }

    /// The zoomed picture's size and place on screen (it may be larger than the area).
    func zoomedFrame(_ fitted: VideoPlacement, area: Rect) -> (x: Double, y: Double, width: Double, height: Double) {
        let w = Double(fitted.pictureWidth) * factor, h = Double(fitted.pictureHeight) * factor
        let cx = Double(area.x) + Double(area.width) / 2 + panX * w, cy = Double(area.y) + Double(area.height) / 2 + panY * h
        return (cx - w / 2, cy - h / 2, w, h)
    }

    /// `fitted` zoomed: decoded at the zoomed size but never above the
    /// video's own (`videoWidth` x `videoHeight`), the part inside `area` drawn.
    func placement(_ fitted: VideoPlacement, videoWidth: Int, videoHeight: Int, area: Rect) -> VideoPlacement {
        let frame = zoomedFrame(fitted, area: area)
        var p = fitted
        let decodeScale = min(1, Double(max(videoWidth, 1)) / max(frame.width, 1))
        p.pictureWidth = max(1, Int(saturating: (frame.width * decodeScale).rounded()))
        p.pictureHeight = max(1, Int(saturating: (frame.height * decodeScale).rounded()))
        // The visible part of the zoomed frame, on screen.
        let x0 = max(Double(area.x), frame.x), y0 = max(Double(area.y), frame.y)
        let x1 = min(Double(area.x + area.width), frame.x + frame.width), y1 = min(Double(area.y + area.height), frame.y + frame.height)
        guard x1 > x0, y1 > y0 else {
            p.source = Rect(x: 0, y: 0, width: 0, height: 0)
            p.destination = Rect(x: area.x, y: area.y, width: 0, height: 0)
            return p
        }
        // Whole picture pixels: the source rectangle snaps outward to them and
        // the screen rectangle follows, so a magnified pixel is a whole square.
        let s = Double(p.pictureWidth) / frame.width
        let sx0 = ((x0 - frame.x) * s).rounded(.down), sy0 = ((y0 - frame.y) * s).rounded(.down)
        let sx1 = min(Double(p.pictureWidth), ((x1 - frame.x) * s).rounded(.up))
        let sy1 = min(Double(p.pictureHeight), ((y1 - frame.y) * s).rounded(.up))
        p.source = Rect(x: Int(sx0), y: Int(sy0), width: Int(sx1 - sx0), height: Int(sy1 - sy0))
        let dx0 = frame.x + sx0 / s, dy0 = frame.y + sy0 / s
        p.destination = Rect(x: Int(saturating: dx0.rounded()), y: Int(saturating: dy0.rounded()),
                             width: Int(saturating: (frame.x + sx1 / s - dx0).rounded()), height: Int(saturating: (frame.y + sy1 / s - dy0).rounded()))
        return p
    }
}
