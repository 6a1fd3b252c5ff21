// SPDX-License-Identifier: GPL-3.0-or-later
import Playback

/// What a view's pictures are sized by: its area, content mode, zoom and
/// the geometry a comparison imposes. A change of it is a change of the
/// player's output setting (`Player.setOutputSizing`); an unchanged one
/// costs the player nothing.
struct OutputLayout: Equatable, Sendable {
    var area: Rect
    var mode: ContentMode
    var zoom: VideoZoom?
    var geometryWidth: Int?
    var geometryHeight: Int?

    init(area: Rect, mode: ContentMode, zoom: VideoZoom?, geometry: (width: Int, height: Int)?) {
        self.area = area
        self.mode = mode
        self.zoom = zoom
        geometryWidth = geometry?.width
        geometryHeight = geometry?.height
    }

    /// Where a video of display size `videoWidth` x `videoHeight` goes
    /// (the comparison's geometry in place of it when set).
    func placement(videoWidth: Int, videoHeight: Int) -> VideoPlacement {
        let w = geometryWidth ?? videoWidth, h = geometryHeight ?? videoHeight
        let fitted = VideoPlacement(mode: mode, videoWidth: w, videoHeight: h, area: area)
        return zoom.map { $0.placement(fitted, videoWidth: w, videoHeight: h, area: area) } ?? fitted
    }

    /// The player's output setting for this layout.
    var sizing: OutputSizing {
        let layout = self
        return { w, h in
            let p = layout.placement(videoWidth: w, videoHeight: h)
            return (p.pictureWidth, p.pictureHeight)
        }
    }
}
