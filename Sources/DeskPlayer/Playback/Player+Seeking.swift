// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// Where the player is in its item: exact seeks, moving by single frames
/// (mpv's `.` and frame-back-step) and the A-B loop's points, each a seek
/// of the pipeline that restarts the clock, the audio and the presenter at
/// the frame and sample asked for.
extension Player {
    /// Accurate seek: the frame on screen at `time` and the sample at `time`
    /// (`time` on the sync group's clock: plus `syncOffset` in this item).
    /// `keyframes`: shows the keyframe at or before `time` at once, and
    /// the position is that frame's (a preview while the bar is dragged).
    package func seek(to time: MediaTime, keyframes: Bool = false) {
        seekItem(to: time + MediaTime(seconds: groupOffset), keyframes: keyframes)
    }

    func seekItem(to time: MediaTime, keyframes: Bool = false) {
        if currentItem != nil, pendingSeek == nil {
            events.append(.seekStarted)
            awaitingRestart = true
            isSeeking = true
        }
        guard let pipeline = currentItem?.pipeline else {
            // Still opening: the seek waits for it (and the position shows it meanwhile).
            guard currentItem != nil else { return }
            pendingSeek = max(time, .zero)
            clock.set(time: max(time, .zero).seconds, host: HostTime.now(), running: false, audioDriven: false,
                      rate: speed.value)
            return
        }
        pendingSeek = nil
        var target = max(time, .zero)
        if let d = pipeline.info.duration, target > d { target = d }
        // Past an A-B loop's end: back to its start, as mpv does.
        if let loop = LoopInterval(abLoop.a, abLoop.b), target >= loop.b { target = loop.a }
        steppedWhilePaused = false
        seekPipeline(pipeline, to: target, anchorClock: keyframes, keyframes: keyframes)
        // Backward, time runs on from the frame the seek shows.
        backwardAnchor = nil
        backwardStepFrom = nil
        backwardHoldSince = nil
        if playDirection == .backward { steppedWhilePaused = true }
    }

    func seekPipeline(_ pipeline: any ItemSource, to target: MediaTime, anchorClock: Bool = false, keyframes: Bool = false) {
        // Passes left are counted from the one playing now.
        // The frame on screen stays until the new serial's first comes.
        let serial = keyframes ? pipeline.seekToKeyframe(before: target, pass: playbackStats.loopCount)
            : pipeline.seek(to: target, pass: playbackStats.loopCount)
        presenter.follow(serial: serial, firstFrameAtOnce: true, anchorClock: anchorClock)
        passesSeen = 0
        audio.setGate(false)
        audio.restart()
        clock.set(time: target.seconds, host: HostTime.now(), running: false, audioDriven: false, rate: speed.value)
        endReported = false
    }

    /// Shows the next frame and stays paused (mpv's `.`).
    package func stepFrame() {
        if wantsToPlay { pause() }
        presenter.requestStep()
        steppedWhilePaused = true
    }

    /// Shows exactly the frame before the one on screen and stays paused
    /// (mpv's frame-back-step): an exact seek to just before the frame
    /// shown, decoded from the keyframe before it. Returns where that frame
    /// starts in the item (for a sync group's other tiles); nil when nothing
    /// is shown yet.
    @discardableResult
    package func stepBack() -> MediaTime? {
        guard let pipeline = currentItem?.pipeline, let shown = presenter.lastPresentedTime else { return nil }
        if wantsToPlay { pause() }
        let (index, start) = pass(at: shown.seconds)
        let itemTime = shown - start + pipeline.passOrigin(index)
        let duration = presenter.lastFrameEnd.map { MediaTime(seconds: $0) - shown } ?? .zero
        guard itemTime > .zero else { return .zero }
        // A seek, as mpv's frame-back-step is: `seek`, then `playback-restart`
        // once the frame is on screen (clients and the scrub bench wait for it).
        if pendingSeek == nil {
            events.append(.seekStarted)
            awaitingRestart = true
            isSeeking = true
        }
        // A millisecond before it: inside the frame before, and never rounded
        // up onto this frame's own timestamp by the container's seek (µs to
        // its time base), which would decode from here when it is a keyframe.
        seekPipeline(pipeline, to: max(itemTime - MediaTime(value: 1, timescale: 1000), .zero), anchorClock: true)
        steppedWhilePaused = true
        return max(itemTime - duration, .zero)
    }

    /// Shows the frame on screen at `time` in the item, paused (a sync
    /// group's other tiles after a step back).
    package func showFrame(at time: MediaTime) {
        guard let pipeline = currentItem?.pipeline else { return }
        if wantsToPlay { pause() }
        seekPipeline(pipeline, to: max(time + MediaTime(seconds: groupOffset), .zero), anchorClock: true)
        steppedWhilePaused = true
    }

    /// Sets the A-B loop's points (either may be nil; in either order). A
    /// change of the interval reads the item again from the play head (or
    /// from A when the play head is past B), so every pass after it is exact.
    package func setABLoop(a: MediaTime?, b: MediaTime?) {
        let before = LoopInterval(abLoop.a, abLoop.b)
        abLoop = (a, b)
        let interval = LoopInterval(a, b)
        currentItem?.setLoopInterval(interval)
        guard interval != before, let pipeline = currentItem?.pipeline else { return }
        var target = currentTime
        if let interval, target >= interval.b { target = interval.a }
        let wasStepped = steppedWhilePaused
        seekPipeline(pipeline, to: target)
        steppedWhilePaused = wasStepped
    }
}
