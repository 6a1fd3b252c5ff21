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
    /// How many times past fit a fill may enlarge (see `init`): 4, so a
    /// picture made for a 1920x1080 view is at most 7680x1080 (33 MB).
    static let fillOverflow = 4.0

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
            // Fill crops what overflows; a video of an extreme shape (a file's
            // 16384x2 frame) would overflow by thousands of pixels, so fill
            // enlarges at most `fillOverflow` times past fit: the picture made
            // stays within a few times the area, and letterboxes beyond that.
            let s = mode == .fit ? min(sx, sy) : min(max(sx, sy), min(sx, sy) * VideoPlacement.fillOverflow)
            // The side that matches the area is exact; the other is rounded.
            pictureWidth = (mode == .fit ? sx <= sy : sx >= sy) ? aw : max(1, Int(saturating: (vw * s).rounded()))
            pictureHeight = (mode == .fit ? sx <= sy : sx >= sy) ? max(1, Int(saturating: (vh * s).rounded())) : ah
        }
        let visibleW = min(pictureWidth, aw), visibleH = min(pictureHeight, ah)
        source = Rect(x: (pictureWidth - visibleW) / 2, y: (pictureHeight - visibleH) / 2,
                      width: visibleW, height: visibleH)
        destination = Rect(x: area.x + (aw - visibleW) / 2, y: area.y + (ah - visibleH) / 2,
                           width: visibleW, height: visibleH)
    }
}
