// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// The zoom and pan keys (mpv's Alt+ ones, and DeskPlayer's pixel zooms):
/// in every mode, for a comparison's sides, a sync group's tiles together,
/// or the focused tile alone (see the properties' scope).
package enum ZoomKeys {
    package static let bindings: [(key: String, command: String, help: String)] = [
        ("1", "set compare-pixel-zoom 1", trNoop("zoom: video pixels 1:1")),
        ("2", "set compare-pixel-zoom 2", trNoop("zoom: a video pixel 2x2 screen pixels")),
        ("4", "set compare-pixel-zoom 4", trNoop("zoom: 4x4")),
        ("8", "set compare-pixel-zoom 8", trNoop("zoom: 8x8")),
        ("r", "set compare-pixel-zoom 0", trNoop("zoom: fit again (reset)")),
        ("Alt+BS", "set compare-pixel-zoom 0", trNoop("zoom: fit again (reset)")),
        ("Alt+=", "add video-zoom 0.25", trNoop("zoom in")),
        ("Alt++", "add video-zoom 0.25", trNoop("zoom in")),
        ("Alt+-", "add video-zoom -0.25", trNoop("zoom out")),
        ("Alt+LEFT", "add video-pan-x 0.1", trNoop("pan left")),
        ("Alt+RIGHT", "add video-pan-x -0.1", trNoop("pan right")),
        ("Alt+UP", "add video-pan-y 0.1", trNoop("pan up")),
        ("Alt+DOWN", "add video-pan-y -0.1", trNoop("pan down")),
        ("n", "cycle compare-smooth", trNoop("magnified pixels: squares / smooth")),
    ]
}
