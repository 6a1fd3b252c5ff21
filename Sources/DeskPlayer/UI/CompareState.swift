// SPDX-License-Identifier: GPL-3.0-or-later
import Output
import Playback
import Media
/// What a comparison (`--compare`) shows: the view, which rendition is
/// the other side, the difference's variant and gain, the flip side, the
/// wipe's divider, the labels. A plain value holder with no SDL in it, so
/// the App's properties change it (and tests read it) without a window;
/// the window redraws when it changes. Main thread only.
package final class CompareState {
    package enum Mode: String, CaseIterable, Sendable {
        /// The reference on one side of a draggable divider, the other side beyond it.
        case wipe
        /// The difference of the two pictures (see `DiffVariant`).
        case diff
        /// One side at a time, switched at the same frame.
        case flip
        /// Both whole, side by side.
        case hstack
        /// Both whole, one above the other.
        case vstack
    }

    /// What the difference view shows of |A − B|.
    package enum DiffVariant: String, CaseIterable, Sendable {
        /// Each RGB channel: min(255, gain·|A − B|); identical pixels are black.
        case rgb
        /// The luma (BT.601 weights of the shown RGB) difference, grey.
        case luma
        /// The largest channel difference through a heat colour map (black, blue, red, yellow, white).
        case heat
    }

    /// Which way the wipe's divider runs.
    package enum WipeOrientation: String, CaseIterable, Sendable {
        /// A vertical line: the reference on the left.
        case vertical
        /// A horizontal line: the reference above.
        case horizontal
    }

    package var mode: Mode { didSet { changed() } }
    package var diffVariant = DiffVariant.rgb { didSet { changed() } }
    /// Multiplies the difference (mpv-style number; 1 shows it as it is).
    package var diffGain = 1.0 { didSet { changed() } }
    package static let gainRange = 0.0...1000.0
    /// Flip: 0 shows the reference, 1 the other side.
    package var side = 0 { didSet { changed() } }
    /// The rendition shown as the other side: an index of the compared
    /// files, 1 (the first after the reference) up to `count - 1`.
    package var other = 1 { didSet { changed() } }
    /// How many files are compared (the reference and its renditions).
    package var count = 2
    /// The wipe's divider, as a fraction of the window's width (or height).
    package var wipePosition = 0.5 { didSet { changed() } }
    package var wipeOrientation = WipeOrientation.vertical { didSet { changed() } }
    /// Seconds each rendition runs ahead of the reference (by its index
    /// among the compared files; the reference's own is 0): it shows its
    /// frame at t + shift beside A's at t. Each has its own, so
    /// `compare-align` can line up every rendition against A.
    package var shifts: [Double] { didSet { changed() } }
    /// The shift of the rendition shown as B.
    package var shift: Double {
        get { shifts.indices.contains(other) ? shifts[other] : 0 }
        set { if shifts.indices.contains(other) { shifts[other] = newValue } }
    }
    package static let shiftRange = -86400.0...86400.0
    /// The shift was checked against every side's length (the App's once all opened).
    package var shiftChecked = false
    /// The side heard: 0 the reference, 1 the other side (whichever rendition that is).
    package var audio = 0 { didSet { changed() } }
    /// The zoom and pan every side shares (mpv's video-zoom, video-pan-x/y).
    package var zoom = VideoZoom() { didSet { if zoom != oldValue { changed() } } }
    /// Video pixels per screen pixel of the reference fitted in its area
    /// (as last drawn, `record`): video-zoom log2 of it shows 1:1.
    package private(set) var fitScale = 1.0
    /// A magnifier at the pointer: each side's pixels around it at 8× and their values.
    package var showsLoupe = false {
        didSet {
            if !showsLoupe { loupeReadings = [] }
            changed()
        }
    }
    /// What one side's pixel under the loupe holds.
    package struct LoupeReading: Equatable, Sendable {
        /// The side's index among the compared files (0 the reference).
        package var side: Int
        /// The pixel in the decoded picture, at the video's own size.
        package var x: Int
        package var y: Int
        /// As shown (the converted picture at the size shown).
        package var rgb: [Int]
        /// The decoded picture's code values there (nil until a frame
        /// decoded since the loupe came on is shown, or for an RGB video).
        package var code: DecodedPicture.CodeValues?
    }
    /// The values the loupe shows now, A's then B's (empty while it is off
    /// or the pointer is outside the window), as last drawn (`record`).
    package private(set) var loupeReadings: [LoupeReading] = []
    /// Each side's file name, time and frame number on top of it.
    package var showsLabels = true { didSet { changed() } }
    /// The labels drawn last, A's first (`record`; empty while hidden).
    package private(set) var labelTexts: [String] = []
    /// Called after any change (the window redraws).
    package var onChange: () -> Void = {}

    /// Keeps what the window's drawing of the comparison measured, for the
    /// properties that read it (the App gives it each drawing).
    package func record(_ drawing: CompareView.Drawing) {
        if let scale = drawing.fitScale { fitScale = scale }
        loupeReadings = drawing.loupeReadings
        labelTexts = drawing.labelTexts
    }

    /// A copy of every setting, so later changes to this one leave it alone
    /// (an export renders the comparison as it was when it started).
    package func copy() -> CompareState {
        let copy = CompareState(mode: mode, count: count)
        copy.diffVariant = diffVariant
        copy.diffGain = diffGain
        copy.side = side
        copy.other = other
        copy.wipePosition = wipePosition
        copy.wipeOrientation = wipeOrientation
        copy.shifts = shifts
        copy.audio = audio
        copy.zoom = zoom
        copy.showsLabels = showsLabels
        return copy
    }

    package init(mode: Mode, count: Int) {
        self.mode = mode
        self.count = max(count, 2)
        shifts = Array(repeating: 0, count: max(count, 2))
    }

    /// The shift of the compared file at `index` (0 for the reference).
    package func shift(of index: Int) -> Double { index > 0 && shifts.indices.contains(index) ? shifts[index] : 0 }

    /// The index (among the compared files) of the side shown now in flip.
    package var flipShown: Int { side == 0 ? 0 : other }

    private func changed() { onChange() }
}
