// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// Playing backward (mpv's `--play-dir=backward`): time runs down from the
/// frame on screen at the playback speed, on host time, and each time the
/// frame before is due the player steps back to it, as `frame-back-step`
/// does (an exact seek just before the frame shown). While paused the
/// pipeline keeps the frames an exact seek decodes on its way
/// (`DecodedFrameCache`), so a keyframe interval is decoded once and its
/// frames are then shown from memory, one a step. The sound is off: mpv
/// plays it reversed, DeskPlayer does not.
///
/// Time starts running from the first frame backward (its keyframe
/// interval may take a while to decode), as forward it runs from the first
/// frame after a seek, once the frames before it are decoded ahead (the
/// prefetch thread's first window). A step that falls behind the clock goes to the frame
/// due then: the frames passed over are counted as dropped. At the start of the item it
/// pauses on the first frame.
extension Player {
    /// One tick while playing backward: steps back when the frame before
    /// the one on screen is due.
    func stepBackward(_ pipeline: any ItemSource, at now: UInt64) {
        // A step (or a seek) still on its way: its frame first.
        guard !presenter.needsFirstFrame, pendingSeek == nil, let shown = presenter.lastPresentedTime,
              let shownEnd = presenter.lastFrameEnd else { return }
        // A sync group's other tiles (a comparison's sides) follow the
        // first one's clock, each from its own cache.
        if let leader = syncClock { return followBackward(leader, pipeline, shown: shown.seconds, end: shownEnd, at: now) }
        let (index, passStart) = pass(at: shown.seconds)
        let itemStart = shown - passStart + pipeline.passOrigin(index)
        let duration = max(shownEnd - shown.seconds, 1e-3)
        var started = false
        if let from = backwardStepFrom {
            backwardStepFrom = nil
            // The step showed the frame it left, or none before it: the start.
            if itemStart >= from { return stopBackwardAtStart() }
            // The first frame backward (perhaps a whole keyframe interval to
            // decode first): time runs from here.
            if backwardAnchor?.starting == true {
                backwardAnchor = nil
                backwardHoldSince = now
            }
        }
        if let since = backwardHoldSince {
            // The first frame backward is on screen; the frames before it
            // come from a window decoded from its keyframe, the ones needed
            // first last: time starts once they are in (at most 5 s on),
            // rather than dropping the frames due meanwhile.
            guard pipeline.isDecodedAhead(ofBackwardStepAt: itemStart) || now &- since > 5_000_000_000 else { return }
            backwardHoldSince = nil
            started = true
        }
        guard let anchor = backwardAnchor else {
            // From the end of the frame on screen: it stays its whole duration.
            backwardAnchor = (itemStart.seconds + duration, now, !started)
            return
        }
        let due = backwardTime(anchor, at: now)
        guard due < itemStart.seconds else { return }
        guard itemStart.seconds > duration / 2 else { return stopBackwardAtStart() }
        // The frame before is due, or (fallen behind) one before that: those between are dropped.
        let passedOver = max(0, Int(((itemStart.seconds - max(due, 0)) / duration).rounded(.up)) - 1)
        // Just before the frame shown (as a step back), or inside the frame due.
        let target = passedOver == 0 ? itemStart - MediaTime(value: 1, timescale: 1000) : MediaTime(seconds: max(due, 0))
        backwardStepFrom = itemStart
        seekPipeline(pipeline, to: max(target, .zero), anchorClock: true)
        presenter.countDropped(passedOver)
        steppedWhilePaused = true
    }

    /// Shows the frame due on the group's clock when the one on screen is
    /// not (the first tile stepped back, or went on past it).
    private func followBackward(_ leader: PlaybackClock, _ pipeline: any ItemSource, shown: Double, end: Double, at now: UInt64) {
        let due = leader.time(at: now) + groupOffset
        guard due < shown - 1e-6 || due >= end else { return }
        let (index, passStart) = pass(at: max(due, 0))
        seekPipeline(pipeline, to: max(MediaTime(seconds: due) - passStart + pipeline.passOrigin(index), .zero), anchorClock: true)
        steppedWhilePaused = true
    }

    /// Seconds until the next step back is due (for the event loop's sleep).
    func timeUntilBackwardStep(at now: UInt64) -> Double? {
        // A sync group's other tiles move when the first one does.
        guard syncClock == nil else { return nil }
        // A step on its way: its frame is taken soon after it comes.
        guard let anchor = backwardAnchor, !presenter.needsFirstFrame, let shown = shownItemTime else { return 0.004 }
        return max(0, (backwardTime(anchor, at: now) - shown.seconds) / max(speed.value, 1e-3))
    }

    private func backwardTime(_ anchor: (time: Double, host: UInt64, starting: Bool), at now: UInt64) -> Double {
        anchor.time - Double(now &- anchor.host) / 1e9 * speed.value
    }

    /// At the item's first frame: paused there, as mpv stops there.
    private func stopBackwardAtStart() {
        pause()
        steppedWhilePaused = true
    }
}
