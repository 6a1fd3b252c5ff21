// SPDX-License-Identifier: GPL-3.0-or-later
/// The zoom and pan keys (mpv's Alt+ ones, and DeskPlayer's pixel zooms):
/// in every mode, for a comparison's sides, a sync group's tiles together,
/// or the focused tile alone (see the properties' scope).
package enum ZoomKeys {
    package static let bindings: [(key: String, command: String, help: String)] = [
        ("1", "set compare-pixel-zoom 1", "zoom: video pixels 1:1"),
        ("2", "set compare-pixel-zoom 2", "zoom: a video pixel 2x2 screen pixels"),
        ("4", "set compare-pixel-zoom 4", "zoom: 4x4"),
        ("8", "set compare-pixel-zoom 8", "zoom: 8x8"),
        ("r", "set compare-pixel-zoom 0", "zoom: fit again (reset)"),
        ("Alt+BS", "set compare-pixel-zoom 0", "zoom: fit again (reset)"),
        ("Alt+=", "add video-zoom 0.25", "zoom in"),
        ("Alt++", "add video-zoom 0.25", "zoom in"),
        ("Alt+-", "add video-zoom -0.25", "zoom out"),
        ("Alt+LEFT", "add video-pan-x 0.1", "pan left"),
        ("Alt+RIGHT", "add video-pan-x -0.1", "pan right"),
        ("Alt+UP", "add video-pan-y 0.1", "pan up"),
        ("Alt+DOWN", "add video-pan-y -0.1", "pan down"),
        ("n", "cycle compare-smooth", "magnified pixels: squares / smooth"),
    ]
}
