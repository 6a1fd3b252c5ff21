// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// What happens when the item ends (AVPlayer.actionAtItemEnd).
enum ActionAtItemEnd: String, Sendable {
    case pause
    case advance
    case loop
}

/// Plays one item (AVPlayer). Lives on the main thread: the UI calls
/// `update(at:)` every refresh to get the video frame due now; the audio
/// side is `audio`, which the owner adds to the mixer.
package final class Player {
    package private(set) var currentItem: PlayerItem?
    /// What plays next with `.advance`: opened and prerolled in advance so
    /// the switch has no gap (AVQueuePlayer's next item).
    private(set) var upcomingItem: PlayerItem?
    /// The output's picture size, given to each item (`setOutputSizing`).
    private var outputSizing: OutputSizing?
    /// Set by `subtitlesChanged` while paused, taken by the view that draws.
    private(set) var pictureRemakeRequested = false
    /// Subtitle files the current item had read at the last tick (`PlayerItem.subtitleLoads`).
    private(set) var subtitleFilesSeen = 0
    package let clock = PlaybackClock()
    package let audio: PlayerAudio
    var actionAtItemEnd: ActionAtItemEnd = .pause { didSet { applyLooping() } }
    /// How many times each item plays in all before the action at its end
    /// (nil: forever). `.loop` means forever whatever this says.
    package var passesPerItem: Int? = 1 { didSet { applyLooping() } }
    /// The counters the player keeps itself (underruns, loops, waiting).
    var playbackStats = PlayerStats()
    let presenter: FramePresenter

    /// 0...1, linear gain.
    package var volume: Float = 1 { didSet { volume = min(max(volume, 0), 1); applyGain() } }
    package var isMuted = false { didSet { applyGain() } }
    /// False keeps the audio flowing at zero gain (the clock stays on it):
    /// an unfocused tile is silent but keeps time.
    package var isAudible = true { didSet { applyGain() } }
    /// Deinterlacing for every item it plays (`d`); a change shows at once,
    /// paused too (the frame on screen is decoded again).
    package var deinterlace = DeinterlaceMode.auto {
        didSet {
            applyPipelineSettings()
            if isPaused && deinterlace != oldValue { redisplayCurrentFrame() }
        }
    }
    /// `hwdec` for every item it plays, once set (nil: each item as its
    /// preferences say); a change takes effect from the next video packet.
    package var hardwareDecoding: HardwareDecoding? {
        didSet { applyPipelineSettings() }
    }
    /// What decodes the current item's video now (`hwdec-current`): `no`
    /// for software, else the method's copy-back name.
    package var hardwareDecodingInUse: String { currentItem?.pipeline?.hardwareDecodingInUse ?? "no" }
    /// Another player's clock this one's pictures follow (a sync group).
    package var syncClock: PlaybackClock?
    /// Seconds this player runs ahead of its sync group (a comparison's
    /// time shift): it shows its frame at t + offset when the group's clock
    /// reads t, and its seeks (given in the group's time) land that much later.
    package var syncOffset = 0.0
    var groupOffset: Double { syncClock == nil ? 0 : syncOffset }
    /// Paused, the picture still moves on to the frame due at the (frozen)
    /// clock: a frame the decoder had not ready when the pause came still
    /// shows, so every member of a sync group stops on the frame of one
    /// instant (what a comparison needs).
    package var catchesUpWhenPaused = false
    /// How fast it plays (mpv's speed, 0.25...4) and whether the audio keeps
    /// its pitch. The items make their audio at this speed; the clock follows
    /// the audio heard (or runs at this rate on host time without audio).
    package var speed = PlaybackSpeed.normal {
        didSet {
            speed.value = min(max(speed.value, PlaybackSpeed.range.lowerBound), PlaybackSpeed.range.upperBound)
            applySpeed()
        }
    }
    /// Which way it plays (mpv's `play-dir`). Backward, the sound is off
    /// and the pipeline stays as when paused (keeping decoded frames): the
    /// frames before the one on screen are shown one after another on a
    /// clock of their own (`Player+Backward`).
    package var playDirection = PlayDirection.forward {
        didSet {
            guard playDirection != oldValue, wantsToPlay else { return }
            // Paused and played again in the new direction: forward again,
            // the sound and the clock start from the frame on screen.
            pause()
            play()
        }
    }
    /// Where time stood, backward, at a host time: the frame due at `now`
    /// is the one at `time - (now - host) × speed` (nil: set from the frame
    /// on screen at the next tick). `starting`: set from the frame shown
    /// when it began, it is set again from the first frame the steps show
    /// (as forward, time runs from the first frame a start or seek shows).
    var backwardAnchor: (time: Double, host: UInt64, starting: Bool)?
    /// Where the frame shown when the last backward step was asked for
    /// started, in the item: a step that shows it again is at the start.
    var backwardStepFrom: MediaTime?
    /// Since when the first frame backward is on screen while the frames
    /// before it are still being decoded ahead: time starts when they are.
    var backwardHoldSince: UInt64?
    /// mpv's ab-loop-a and ab-loop-b, in item time (nil: not set). With both
    /// set, the interval between them loops as seamlessly as a whole file.
    package internal(set) var abLoop: (a: MediaTime?, b: MediaTime?) = (nil, nil)
    /// Seconds between two pictures the display shows (its refresh): faster
    /// than that, frames are skipped by schedule.
    package var displayInterval: Double {
        get { presenter.displayInterval }
        set { presenter.displayInterval = max(newValue, 0.001) }
    }

    /// Called with each frame's time, the host time it is put on screen and
    /// the frames left out just before it (`--frame-log`, benchmarks).
    package var onFramePresented: ((MediaTime, UInt64, Int) -> Void)? {
        get { presenter.onFramePresented }
        set { presenter.onFramePresented = newValue }
    }

    var wantsToPlay = false {
        didSet { if wantsToPlay != oldValue { stateChanges &+= 1 } }
    }
    var events: [PlayerEvent] = [] {
        didSet { if !events.isEmpty { stateChanges &+= 1 } }
    }
    /// Counts the changes the player makes on its own, outside any command:
    /// an event (an item ready, failed or ended, a seek, a hand-over) and
    /// each pause or play (it pauses itself at backward play's start).
    /// App marks its properties changed when it moves (`PropertyChanges`).
    package private(set) var stateChanges: UInt64 = 0
    private var announcedReady = false
    /// A seek asked for before the item opened.
    var pendingSeek: MediaTime?
    /// Waiting for the first picture (or sound) after a load or a seek,
    /// to say `.playbackRestarted`.
    var awaitingRestart = false
    /// A seek asked for has not shown its first picture yet (mpv's `seeking`).
    package internal(set) var isSeeking = false
    private(set) var announcedFailure = false
    var steppedWhilePaused = false
    var endReported = false
    /// Loop passes of the current serial already counted in `stats.loopCount`.
    var passesSeen = 0
    /// Since when the player has been starved of data (nil: it is not).
    private(set) var waitingSince: UInt64?
    private var lastUpdate: UInt64?
    /// The audio's hand-over count this player has followed (the audio moves
    /// on to the upcoming item first: see `itemClockTime(at:)`).
    private(set) var audioGeneration = 0

    package init() {
        audio = PlayerAudio(clock: clock)
        presenter = FramePresenter(clock: clock)
        applyGain()
    }

    // MARK: Item

    package func replaceCurrentItem(with item: PlayerItem?) {
        currentItem?.cancel()
        if item === upcomingItem { upcomingItem = nil }
        currentItem = item
        resetItemState()
        audioGeneration = audio.generation
        audio.attach(nil)
        applyLooping()
        presenter.follow(serial: -1, firstFrameAtOnce: true)
        // While it opens, the position reads as where it will start.
        clock.set(time: item?.startTime.seconds ?? 0, host: HostTime.now(), running: false, audioDriven: false, rate: speed.value)
        item?.setSpeed(speed)
        item?.setLoopInterval(LoopInterval(abLoop.a, abLoop.b))
        item?.setOutputSizing(outputSizing)
        item?.load()
    }

    /// What the player tracks per item, cleared when another item becomes current.
    private func resetItemState() {
        presenter.forgetShownFrame()
        passesSeen = 0
        endReported = false
        announcedReady = false
        announcedFailure = false
        pendingSeek = nil
        awaitingRestart = true
        isSeeking = false
    }

    // MARK: Transport

    package func play() {
        if steppedWhilePaused, playDirection == .forward, let item = currentItem?.pipeline {
            // Frame steps moved the picture but not the audio: realign exactly.
            steppedWhilePaused = false
            seekPipeline(item, to: currentTime)
        }
        wantsToPlay = true
        endReported = false
        backwardAnchor = nil
        backwardStepFrom = nil
        backwardHoldSince = nil
        guard playDirection == .forward else { return }
        if let pipeline = currentItem?.pipeline, audioIsSilent(pipeline) {
            clock.set(time: clock.time(at: HostTime.now()), host: HostTime.now(), running: true, audioDriven: false,
                      rate: speed.value)
        }
    }

    package func pause() {
        wantsToPlay = false
        backwardAnchor = nil
        backwardStepFrom = nil
        backwardHoldSince = nil
        // Before any seek that follows (a step back pauses, then seeks; playing
        // forward again seeks to realign the sound, which is read again).
        currentItem?.pipeline?.setKeepsFramesForSteps(true)
        currentItem?.pipeline?.setPlaysBackward(false)
        audio.setGate(false)
        clock.freeze(at: HostTime.now())
    }

    package var isPaused: Bool { !wantsToPlay }

    /// Playing, forward: the clock runs, the sound is heard.
    var playsForward: Bool { wantsToPlay && playDirection == .forward }

    /// Sets the item that follows the current one; it starts opening and
    /// buffering now. With `.advance` the player moves on to it without a gap.
    func setUpcomingItem(_ item: PlayerItem?) {
        guard item !== upcomingItem else { return }
        if let old = upcomingItem, old !== currentItem { old.cancel() }
        upcomingItem = item
        audio.setNext(nil)
        item?.setPasses(passes)
        item?.setSpeed(speed)
        item?.setLoopInterval(LoopInterval(abLoop.a, abLoop.b))
        item?.setOutputSizing(outputSizing)
        item?.load()
    }

    /// Sets the output's picture size (the view's, when its layout
    /// changes): the current and the upcoming item convert to it, and
    /// every item loaded later from its first picture on.
    package func setOutputSizing(_ sizing: OutputSizing?) {
        outputSizing = sizing
        for item in [currentItem, upcomingItem] { item?.setOutputSizing(sizing) }
    }

    /// Whether the current and the upcoming item's pictures can be seen
    /// (false while the window is minimized: decoded, not converted).
    package func setPicturesSeen(_ seen: Bool) {
        presenter.picturesSeen = seen
        for item in [currentItem, upcomingItem] { item?.pipeline?.setPicturesSeen(seen) }
    }

    /// Decodes the frame on screen again (a seek to it): the deinterlacer
    /// changed while paused, and the filters make that frame anew; or a frame
    /// decoded fast for a small picture is to be shown larger.
    package func redisplayCurrentFrame() {
        guard let pipeline = currentItem?.pipeline, let pts = presenter.lastPresentedTime else { return }
        let wasStepped = steppedWhilePaused
        seekPipeline(pipeline, to: pts)
        steppedWhilePaused = wasStepped
    }

    /// Switches the audio track while playing (the picture goes on).
    @discardableResult
    package func selectAudioTrack(_ id: Int) -> Bool {
        guard let pipeline = currentItem?.pipeline else { return false }
        return pipeline.selectAudioTrack(id, playhead: MediaTime(seconds: max(0, clock.time(at: HostTime.now()))))
    }

    /// Subtitles are drawn on a frame's picture when it is shown: while
    /// paused, the view makes the picture on screen again (from the decoded
    /// frame it holds) so a change of track, delay or visibility shows.
    package func subtitlesChanged() {
        if isPaused { pictureRemakeRequested = true }
    }

    /// Whether the picture on screen is to be made again from its frame
    /// (the subtitles on it changed while paused); taking it clears it.
    package func takePictureRemakeRequest() -> Bool {
        defer { pictureRemakeRequested = false }
        return pictureRemakeRequested
    }

    /// The current item's counters so far.
    package var stats: PlayerStats {
        var s = playbackStats
        let shown = presenter.stats
        s.framesPresented = shown.framesPresented
        s.framesDropped = shown.framesDropped
        s.framesUnseen = shown.framesUnseen
        s.framesSkipped = shown.framesSkipped
        s.maxAVOffsetMs = shown.maxAVOffsetMs
        s.meanAVOffsetMs = shown.meanAVOffsetMs
        s.timeToFirstFrameMs = shown.timeToFirstFrameMs
        return s
    }

    func takeEvents() -> [PlayerEvent] {
        defer { events.removeAll() }
        return events
    }

    private func applyGain() { audio.setGain(isMuted || !isAudible ? 0 : volume) }

    /// The clock pictures are timed by: the group's when synced, else its own.
    var pictureClock: PlaybackClock { syncClock ?? clock }

    private var passes: Int? { actionAtItemEnd == .loop ? nil : passesPerItem }

    /// The current and the upcoming item follow `deinterlace` and
    /// `hardwareDecoding` (each as soon as it has opened).
    private func applyPipelineSettings() {
        for pipeline in [currentItem?.pipeline, upcomingItem?.pipeline].compactMap({ $0 }) {
            if pipeline.deinterlace != deinterlace { pipeline.setDeinterlace(deinterlace) }
            if let hardwareDecoding, pipeline.hardwareDecoding != hardwareDecoding {
                pipeline.setHardwareDecoding(hardwareDecoding)
            }
        }
    }

    /// The items make their audio at the speed; a clock on host time
    /// changes rate at once (an audio-driven one when the new audio is heard).
    private func applySpeed() {
        currentItem?.setSpeed(speed)
        upcomingItem?.setSpeed(speed)
        clock.setRate(speed.value, at: HostTime.now())
        backwardAnchor = nil
    }

    private func applyLooping() {
        currentItem?.setPasses(passes)
        upcomingItem?.setPasses(passes)
    }

    /// True when the clock runs on host time: no audio stream, or it ended.
    private func audioIsSilent(_ pipeline: any ItemSource) -> Bool {
        !pipeline.hasAudio || audio.isFinished
    }

    // MARK: Refresh

    /// The frame the last tick picked that no view has taken yet.
    private var untaken: VideoFrame?
    private var tickedAt: UInt64?

    /// The player's own heartbeat, called by the app loop for every player
    /// each time round, whether a view draws it or not (a PiP, hidden or
    /// covered tile too): item events, gapless hand-over, end of item,
    /// pending seeks, the audio gate, and the frame due now, which waits for
    /// a view's `update`. Once per `now`; main thread.
    package func tick(at now: UInt64) {
        guard tickedAt != now else { return }
        tickedAt = now
        FreedMemory.releaseNowAndThen(at: now)
        guard let picked = advanceState(at: now) else { return }
        // A frame no view took (nobody draws this player) is let go.
        untaken = picked
    }

    /// The video frame to show now, if it changed (ticking first, if this
    /// `now` has not been ticked). The caller copies its picture and gives
    /// the buffer back with `recycle`.
    package func update(at now: UInt64) -> VideoFrame? {
        tick(at: now)
        defer { untaken = nil }
        return untaken
    }

    /// One tick's work; returns the frame picked, if it changed.
    private func advanceState(at now: UInt64) -> VideoFrame? {
        guard let item = currentItem else { return nil }
        reportStatus(item)
        if audio.generation != audioGeneration, let next = upcomingItem {
            let handover = audio.lastHandover
            if now < handover.host, let pipeline = item.pipeline {
                // The device still plays this item's last samples: show its
                // last frames on its own timeline until the seam is heard.
                return pickFrame(pipeline, at: now, time: itemClockTime(at: now))
            }
            // The audio moved on to the upcoming item: the picture follows.
            audioGeneration = audio.generation
            advance(to: next, previousEnd: nil)
            return advanceState(at: now)
        }
        guard let pipeline = item.pipeline else { return nil }
        applyPipelineSettings()
        // A subtitle file read while paused: its lines go on the picture shown.
        if item.subtitleLoads.read != subtitleFilesSeen {
            subtitleFilesSeen = item.subtitleLoads.read
            subtitlesChanged()
        }
        if actionAtItemEnd == .advance, pipeline.hasAudio, let nextRing = upcomingItem?.pipeline,
           nextRing.hasAudio {
            audio.setNext(nextRing.audioRing)
        }
        if presenter.serial < 0 {
            presenter.follow(serial: pipeline.serial, firstFrameAtOnce: true)
            audio.attach(pipeline.hasAudio ? pipeline.audioRing : nil)
        }
        if let target = pendingSeek { seekItem(to: target) }
        let shown = pickFrame(pipeline, at: now)

        let videoReady = !pipeline.hasVideo || !presenter.needsFirstFrame || pipeline.frames.hasEnded
        if awaitingRestart && videoReady && pendingSeek == nil {
            awaitingRestart = false
            isSeeking = false
            events.append(.playbackRestarted)
        }
        let running = playsForward && videoReady && !endReported
        audio.setGate(running && pipeline.hasAudio)
        pipeline.setKeepsFramesForSteps(!playsForward)
        pipeline.setPlaysBackward(wantsToPlay && playDirection == .backward)
        if running && audioIsSilent(pipeline) && !clock.snapshot.running {
            clock.set(time: clock.time(at: now), host: now, running: true, audioDriven: false, rate: speed.value)
        }
        // Meant to play, first frame shown, but the sound ran dry: waiting
        // for data (a stalled network), not a pause.
        let starved = running && !presenter.needsFirstFrame && pipeline.hasAudio && !audio.isFlowing && !audio.isFinished
        if starved {
            if let last = lastUpdate, waitingSince != nil { playbackStats.waitingSeconds += Double(now &- last) / 1e9 }
            waitingSince = waitingSince ?? now
        } else {
            waitingSince = nil
        }
        lastUpdate = now
        playbackStats.audioUnderruns = audio.counters.underruns
        let passIndex = pass(at: clock.time(at: now)).index
        if passIndex > passesSeen {
            playbackStats.loopCount += passIndex - passesSeen
            passesSeen = passIndex
        }
        if wantsToPlay && playDirection == .backward { stepBackward(pipeline, at: now) }
        checkEnd(pipeline, at: now)
        return shown
    }

    /// Seconds until the next frame is due (for the event loop's sleep).
    package func timeUntilNextFrame(at now: UInt64) -> Double? {
        if wantsToPlay && playDirection == .backward { return timeUntilBackwardStep(at: now) }
        guard wantsToPlay, let frames = currentItem?.pipeline?.frames, let next = frames.peek() else { return nil }
        return (next.pts.seconds - pictureClock.time(at: now) - groupOffset) / max(pictureClock.rate, 1e-3)
    }

    private func reportStatus(_ item: PlayerItem) {
        for w in item.takeWarnings() { events.append(.warning(w)) }
        switch item.status {
        case .readyToPlay where !announcedReady:
            announcedReady = true
            events.append(.readyToPlay)
            // A start given as a share of the length is known only now.
            if item.startPercent != nil, pendingSeek == nil {
                clock.set(time: item.startTime.seconds, host: HostTime.now(), running: false, audioDriven: false,
                          rate: speed.value)
            }
        case .failed(let e) where !announcedFailure:
            announcedFailure = true
            events.append(.failed(e))
        default:
            break
        }
    }

    private func pickFrame(_ pipeline: any ItemSource, at now: UInt64, time: Double? = nil) -> VideoFrame? {
        presenter.pick(from: pipeline.frames, at: now, time: time ?? pictureClock.time(at: now) + groupOffset,
                       playing: playsForward || catchesUpWhenPaused,
                       pictureClock: pictureClock, itemCreatedAt: currentItem?.createdAt)
    }

    /// Makes `next` current without stopping the clock or the audio. When
    /// the audio did not carry the switch (`previousEnd`: where the old item
    /// ended on the clock), the new item's zero is placed there.
    private func advance(to next: PlayerItem, previousEnd: Double?) {
        guard let finished = currentItem else { return }
        events.append(.advanced(from: finished, stats: stats))
        finished.cancel()
        currentItem = next
        upcomingItem = nil
        playbackStats = PlayerStats()
        presenter.resetStats()
        resetItemState()
        guard let pipeline = next.pipeline else { return }
        // Timed from the first frame on, not shown at once: the clock runs on.
        presenter.follow(serial: pipeline.serial, firstFrameAtOnce: false)
        if let previousEnd {
            let now = HostTime.now()
            clock.set(time: clock.time(at: now) - previousEnd, host: now, running: true, audioDriven: false,
                      rate: speed.value)
            audio.attach(pipeline.hasAudio ? pipeline.audioRing : nil)
        }
        applyLooping()
    }

    private func checkEnd(_ pipeline: any ItemSource, at now: UInt64) {
        guard !endReported, playsForward else { return }
        let videoDone = !pipeline.hasVideo || (pipeline.frames.isDrained
            && clock.time(at: now) >= (presenter.lastFrameEnd ?? 0) - 0.0005)
        let audioDone = !pipeline.hasAudio || audio.isFinished
        guard videoDone && audioDone else { return }
        if actionAtItemEnd == .advance, let next = upcomingItem, next.pipeline != nil {
            // No audio carried us over (video-only, or the next has no audio).
            advance(to: next, previousEnd: presenter.lastFrameEnd ?? clock.time(at: now))
            return
        }
        endReported = true
        events.append(.didPlayToEnd)
        if actionAtItemEnd == .pause {
            wantsToPlay = false
            audio.setGate(false)
            clock.freeze(at: now)
        }
    }
}
