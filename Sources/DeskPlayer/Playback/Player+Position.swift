// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Where the player is: the position in its item, the loop pass, the frame on screen.
extension Player {
    /// The timeline interval of the frame on screen: from its time to the end
    /// of its duration (nil before the first frame).
    package var shownFrameInterval: (start: Double, end: Double)? {
        guard let start = presenter.lastPresentedTime?.seconds, let end = presenter.lastFrameEnd else { return nil }
        return (start, end)
    }

    /// Where the frame on screen is in the item (within its loop pass): a
    /// comparison's labels name each side's own frame. Nil before the first.
    package var shownItemTime: MediaTime? {
        guard let shown = presenter.lastPresentedTime else { return nil }
        let (index, start) = pass(at: shown.seconds)
        let origin = currentItem?.pipeline?.passOrigin(index) ?? .zero
        return max(shown - start + origin, .zero)
    }

    /// Where the loop pass playing now began on the timeline.
    package var currentPassStart: MediaTime { pass(at: itemClockTime(at: HostTime.now())).start }

    /// The position in the item (within the current loop pass).
    package var currentTime: MediaTime {
        let t = itemClockTime(at: HostTime.now())
        let (index, start) = pass(at: t)
        let origin = currentItem?.pipeline?.passOrigin(index) ?? .zero
        let time = MediaTime(seconds: max(0, t - start.seconds + origin.seconds))
        // Held at the end once the item has played out (keep-open): the clock
        // runs on, the position does not pass the item's end.
        if let end = currentItem?.duration, time > end { return end }
        return time
    }
}
