// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// An A-B loop (mpv's `ab-loop-a`/`ab-loop-b`), in item time: after the
/// pass playing when it was set, every pass is the interval `[a, b)`. It
/// rides on the loop-pass machinery that makes whole-file loops exact: the
/// demuxer stops reading at `b` and seeks back to `a`; the audio decoder
/// cuts each pass at both ends to the sample, the video decoder keeps the
/// frames shown inside it, and the timeline runs on across each seam.
package struct LoopInterval: Sendable, Equatable {
    let a: MediaTime
    let b: MediaTime

    /// The interval between two points in either order (mpv swaps them);
    /// nil when either is missing or they are equal.
    init?(_ first: MediaTime?, _ second: MediaTime?) {
        guard let first, let second, first != second else { return nil }
        a = min(first, second)
        b = max(first, second)
    }

    /// Where pass `index` starts in the item: the item's start for the
    /// first pass (from where it was sought to), `a` for each later one.
    func origin(ofPass index: Int) -> MediaTime { index > 0 ? a : .zero }
}
