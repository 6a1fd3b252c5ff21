// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Whether the player is at rest (nothing of its own on its way to the screen)
/// or waiting for data: what the event loop sleeps on and screen tests wait for.
extension Player {
    /// Nothing of this player's is on its way to the screen: its item opened
    /// (or failed), the first picture after a load or a seek is shown, no
    /// remake is asked, and it is paused or played out. What a screen test
    /// waits for before it looks (`window-settled`), instead of a time.
    package var isAtRest: Bool { restBlocker == nil }

    /// What keeps it from rest, in a few words (nil: at rest), for a test
    /// that waited in vain (`window-unsettled-by`).
    package var restBlocker: String? {
        guard let item = currentItem else { return nil }
        // A failed item plays nothing: at rest once its failure is told (it was
        // "playing" for good when split from the passing blockers).
        if item.error != nil { return passingBlocker }
        return passingBlocker ?? (isPaused || endReported ? nil : "playing")
    }

    /// What keeps it from rest for a moment only (opening, seeking, a
    /// first picture, a remake, a subtitle file), in a few words.
    private var passingBlocker: String? {
        guard let item = currentItem else { return nil }
        // An item that failed on its loading thread is at rest once a tick
        // has told its owner (the error on stderr, the next item, the exit).
        if item.error != nil { return announcedFailure ? nil : "reporting its failure" }
        if item.pipeline == nil { return "opening" }
        if awaitingRestart { return "awaiting its first picture" }
        if pendingSeek != nil { return "seeking" }
        if pictureRemakeRequested { return "remaking its picture" }
        let subtitles = item.subtitleLoads
        if subtitles.reading != 0 || subtitles.read != subtitleFilesSeen { return "reading a subtitle file" }
        return nil
    }

    /// How often the loop looks at a player whose next step no thread
    /// announces (an item opening, a seek, sound alone playing, a stall).
    package static let lookInterval = 0.01

    /// Seconds from `now` until this player needs the loop again though
    /// nothing wakes it (nil: never). Playing video, that is its next
    /// frame's time; while it waits for a frame the decoder has not made,
    /// `wake` is armed instead and called (on the decode thread) when the
    /// frame comes. Anything else on its way is looked at every `lookInterval`.
    package func nextDeadline(at now: UInt64, wake: @escaping @Sendable () -> Void) -> Double? {
        guard restBlocker != nil else { return nil }
        let due = timeUntilNextFrame(at: now)
        let look = Player.lookInterval
        // A frame's time says when it is due only while the clock runs: one
        // stopped where the sent audio ends (an underrun, a lost device)
        // starts again when the sound does, and nothing says when.
        let anchor = pictureClock.snapshot
        let clockRuns = anchor.running && anchor.limit.map { anchor.time(at: now) < $0 } ?? true
        // A hand-over the audio has heard, a stall, a moment's work: no
        // frame says when it is done.
        guard clockRuns, passingBlocker == nil, waitingSince == nil, audio.generation == audioGeneration,
              let item = currentItem, item.composition == nil, let pipeline = item.pipeline, pipeline.hasVideo
        else { return min(due ?? look, look) }
        if let due { return due }
        return pipeline.frames.wakeWhenFrameQueued(wake) ? nil : look
    }

    /// True once the player has waited more than half a second for data
    /// (mpv's paused-for-cache): the OSD says so. Seeks and starts do not count.
    package var isWaitingForData: Bool {
        guard let since = waitingSince else { return false }
        return HostTime.now() &- since > 500_000_000
    }

    /// Where its pictures are, in a few words, for a view that has none to
    /// say why (`window-unsettled-by`): the presenter's serial and whether
    /// it waits for a first frame, the frame queue's serial, head and end.
    package var frameFlow: String {
        guard let pipeline = currentItem?.pipeline else { return "no pipeline" }
        let queue = pipeline.frames.serialState
        let head = pipeline.frames.peek().map { String(format: "%.3f s of serial %d", $0.pts.seconds, $0.serial) } ?? "none"
        let shown = presenter.lastPresentedTime.map { String(format: "%.3f s", $0.seconds) } ?? "none"
        return "presenter on serial \(presenter.serial)\(presenter.needsFirstFrame ? ", awaiting a first frame" : ""), "
            + "shown \(shown); queue on serial \(queue.serial), head \(head)\(queue.ended ? ", ended" : "")"
    }
}
