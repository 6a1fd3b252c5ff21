// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Where the player is: the position in its item, the loop pass, the frame on
/// screen, and the clock's time through a gapless hand-over.
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

    /// The loop pass playing at timeline time `t`, and where it started.
    func pass(at t: Double) -> (index: Int, start: MediaTime) {
        guard let starts = currentItem?.pipeline?.passStarts else { return (0, .zero) }
        let index = max(0, (starts.lastIndex { $0.seconds <= t + 1e-9 }) ?? 0)
        return (index, starts[index])
    }

    /// The clock's time for the current item at `now`. Once the audio has
    /// moved on to the upcoming item the clock counts that item's time,
    /// though the device still plays this one's last samples until the
    /// seam is heard (and the hand-over waits for a tick): until then the
    /// time is on this item's own timeline, up to where it ended. (The
    /// socket once read 0 s for time-pos with the old playlist-pos there.)
    func itemClockTime(at now: UInt64) -> Double {
        guard audio.generation != audioGeneration, upcomingItem != nil else { return clock.time(at: now) }
        let handover = audio.lastHandover
        let stillToHear = now < handover.host ? Double(handover.host - now) / 1e9 * clock.rate : 0
        return handover.previousEnd - stillToHear
    }
}
