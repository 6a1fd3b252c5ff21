// SPDX-License-Identifier: GPL-3.0-or-later
/// How a video fills its area (AVLayerVideoGravity).
package enum ContentMode: String, CaseIterable, Sendable {
    /// Whole picture, aspect kept, bars where needed (resizeAspect).
    case fit
    /// Area covered, aspect kept, edges cropped (resizeAspectFill).
    case fill
    /// Area covered, aspect ignored (resize).
    case stretch
}

/// Where a picture goes: the picture is converted to `pictureWidth` x
/// `pictureHeight`, and its `source` part is drawn 1:1 at `destination`.
struct VideoPlacement: Equatable, Sendable {
    var pictureWidth: Int
    var pictureHeight: Int
    var source: Rect
    var destination: Rect

    /// `videoWidth` x `videoHeight` is the display size (sample aspect applied).
    init(mode: ContentMode, videoWidth: Int, videoHeight: Int, area: Rect) {
        let vw = Double(max(videoWidth, 1)), vh = Double(max(videoHeight, 1))
        let aw = max(area.width, 1), ah = max(area.height, 1)
        switch mode {
        case .stretch:
            pictureWidth = aw
            pictureHeight = ah
        case .fit, .fill:
            let sx = Double(aw) / vw, sy = Double(ah) / vh
            let s = mode == .fit ? min(sx, sy) : max(sx, sy)
            // The side that matches the area is exact; the other is rounded.
            pictureWidth = (mode == .fit ? sx <= sy : sx >= sy) ? aw : max(1, Int((vw * s).rounded()))
            pictureHeight = (mode == .fit ? sx <= sy : sx >= sy) ? max(1, Int((vh * s).rounded())) : ah
        }
        let visibleW = min(pictureWidth, aw), visibleH = min(pictureHeight, ah)
        source = Rect(x: (pictureWidth - visibleW) / 2, y: (pictureHeight - visibleH) / 2,
                      width: visibleW, height: visibleH)
        destination = Rect(x: area.x + (aw - visibleW) / 2, y: area.y + (ah - visibleH) / 2,
                           width: visibleW, height: visibleH)
    }
}
