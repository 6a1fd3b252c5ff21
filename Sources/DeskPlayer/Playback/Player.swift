import Foundation

/// What happens when the item ends (AVPlayer.actionAtItemEnd).
enum ActionAtItemEnd: String, Sendable {
    case pause
    case advance
    case loop
}

/// Things a player reports, drained by its owner with `takeEvents()`.
enum PlayerEvent: Sendable {
    case readyToPlay
    case failed(MediaError)
    case didPlayToEnd
    case warning(String)
    /// The finished item (with its statistics) gave way, gaplessly, to the
    /// upcoming one, which is now `currentItem`.
    case advanced(from: PlayerItem, stats: PlayerStats)
    /// A queued item failed to open (QueuePlayer reports it and skips it).
    case itemFailed(PlayerItem, MediaError)
}

/// Counters for `--stats-json` and the benchmarks.
struct PlayerStats: Sendable {
    var framesPresented = 0
    var framesDropped = 0
    var audioUnderruns = 0
    /// Largest |audio clock − frame time| seen when a frame was presented.
    var maxAVOffsetMs = 0.0
    var timeToFirstFrameMs: Double?
    var loopCount = 0
    /// Seconds spent waiting for data while meant to play (a stalled stream).
    var waitingSeconds = 0.0
}

/// Plays one item (AVPlayer). Lives on the main thread: the UI calls
/// `update(at:)` every refresh to get the video frame due now; the audio
/// side is `audio`, which the owner adds to the mixer.
final class Player {
    private(set) var currentItem: PlayerItem?
    /// What plays next with `.advance`: opened and prerolled in advance so
    /// the switch has no gap (AVQueuePlayer's next item).
    private(set) var upcomingItem: PlayerItem?
    let clock = PlaybackClock()
    let audio: PlayerAudio
    var actionAtItemEnd: ActionAtItemEnd = .pause { didSet { applyLooping() } }
    /// How many times each item plays in all before the action at its end
    /// (nil: forever). `.loop` means forever whatever this says.
    var passesPerItem: Int? = 1 { didSet { applyLooping() } }
    private(set) var stats = PlayerStats()

    /// 0...1, linear gain.
    var volume: Float = 1 { didSet { volume = min(max(volume, 0), 1); applyGain() } }
    var isMuted = false { didSet { applyGain() } }
    /// False keeps the audio flowing at zero gain (the clock stays on it):
    /// an unfocused tile is silent but keeps time.
    var isAudible = true { didSet { applyGain() } }
    /// Another player's clock this one's pictures follow (a sync group).
    var syncClock: PlaybackClock?

    /// Called with each frame's time and the host time it is put on screen
    /// (`--frame-log`, benchmarks).
    var onFramePresented: ((MediaTime, UInt64) -> Void)?

    private var wantsToPlay = false
    private var events: [PlayerEvent] = []
    private var announcedReady = false
    /// A seek asked for before the item opened.
    private var pendingSeek: MediaTime?
    private var announcedFailure = false
    private var serial = -1
    /// Show the first frame of a serial at once, even while paused.
    private var needsFirstFrame = true
    private var stepRequested = false
    private var steppedWhilePaused = false
    private var endReported = false
    private var lastFrameEnd: Double?
    private var lastPresentedTime: MediaTime?
    /// Loop passes of the current serial already counted in `stats.loopCount`.
    private var passesSeen = 0
    /// Since when the player has been starved of data (nil: it is not).
    private var waitingSince: UInt64?
    private var lastUpdate: UInt64?
    private var audioGeneration = 0

    init() {
        audio = PlayerAudio(clock: clock)
        applyGain()
    }

    // MARK: Item

    func replaceCurrentItem(with item: PlayerItem?) {
        currentItem?.cancel()
        if item === upcomingItem { upcomingItem = nil }
        currentItem = item
        resetItemState()
        audioGeneration = audio.generation
        audio.attach(nil)
        applyLooping()
        serial = -1
        needsFirstFrame = true
        // While it opens, the position reads as where it will start.
        clock.set(time: item?.startTime.seconds ?? 0, host: HostTime.now(), running: false, audioDriven: false)
        item?.load()
    }

    /// What the player tracks per item, cleared when another item becomes current.
    private func resetItemState() {
        lastPresentedTime = nil
        lastFrameEnd = nil
        passesSeen = 0
        endReported = false
        announcedReady = false
        announcedFailure = false
        pendingSeek = nil
    }

    // MARK: Transport

    func play() {
        if steppedWhilePaused, let item = currentItem?.pipeline {
            // Frame steps moved the picture but not the audio: realign exactly.
            steppedWhilePaused = false
            seekPipeline(item, to: currentTime)
        }
        wantsToPlay = true
        endReported = false
        if let pipeline = currentItem?.pipeline, audioIsSilent(pipeline) {
            clock.set(time: clock.time(at: HostTime.now()), host: HostTime.now(), running: true, audioDriven: false)
        }
    }

    func pause() {
        wantsToPlay = false
        audio.setGate(false)
        clock.freeze(at: HostTime.now())
    }

    func togglePause() { isPaused ? play() : pause() }

    var isPaused: Bool { !wantsToPlay }

    /// Accurate seek: the frame on screen at `time` and the sample at `time`.
    func seek(to time: MediaTime) {
        guard let pipeline = currentItem?.pipeline else {
            // Still opening: the seek waits for it (and the position shows it meanwhile).
            guard currentItem != nil else { return }
            pendingSeek = max(time, .zero)
            clock.set(time: max(time, .zero).seconds, host: HostTime.now(), running: false, audioDriven: false)
            return
        }
        pendingSeek = nil
        var target = max(time, .zero)
        if let d = pipeline.info.duration, target > d { target = d }
        steppedWhilePaused = false
        seekPipeline(pipeline, to: target)
    }

    func seek(by seconds: Double) {
        seek(to: MediaTime(seconds: max(0, currentTime.seconds + seconds)))
    }

    private func seekPipeline(_ pipeline: any ItemSource, to target: MediaTime) {
        // Passes left are counted from the one playing now.
        serial = pipeline.seek(to: target, pass: stats.loopCount)
        passesSeen = 0
        audio.setGate(false)
        audio.restart()
        clock.set(time: target.seconds, host: HostTime.now(), running: false, audioDriven: false)
        needsFirstFrame = true
        endReported = false
        lastFrameEnd = nil  // the frame on screen stays (lastPresentedTime) until the new one comes
    }

    /// Sets the item that follows the current one; it starts opening and
    /// buffering now. With `.advance` the player moves on to it without a gap.
    func setUpcomingItem(_ item: PlayerItem?) {
        guard item !== upcomingItem else { return }
        if let old = upcomingItem, old !== currentItem { old.cancel() }
        upcomingItem = item
        audio.setNext(nil)
        item?.setPasses(passes)
        item?.load()
    }

    /// Decodes the frame on screen again (e.g. at a new size while paused).
    func redisplayCurrentFrame() {
        guard let pipeline = currentItem?.pipeline, let pts = lastPresentedTime else { return }
        let wasStepped = steppedWhilePaused
        seekPipeline(pipeline, to: pts)
        steppedWhilePaused = wasStepped
    }

    /// Switches the audio track while playing (the picture goes on).
    @discardableResult
    func selectAudioTrack(_ id: Int) -> Bool {
        guard let pipeline = currentItem?.pipeline else { return false }
        return pipeline.selectAudioTrack(id, playhead: MediaTime(seconds: max(0, clock.time(at: HostTime.now()))))
    }

    /// Subtitles are drawn as frames are decoded: while paused, the frame on
    /// screen is decoded again so a change of track, delay or visibility shows.
    func subtitlesChanged() {
        if isPaused { redisplayCurrentFrame() }
    }

    /// Shows the next frame and stays paused (mpv's `.`).
    func stepFrame() {
        if wantsToPlay { pause() }
        stepRequested = true
        steppedWhilePaused = true
    }

    /// The timeline interval of the frame on screen: from its time to the end
    /// of its duration (nil before the first frame).
    var shownFrameInterval: (start: Double, end: Double)? {
        guard let start = lastPresentedTime?.seconds, let end = lastFrameEnd else { return nil }
        return (start, end)
    }

    /// True once the player has waited more than half a second for data
    /// (mpv's paused-for-cache): the OSD says so. Seeks and starts do not count.
    var isWaitingForData: Bool {
        guard let since = waitingSince else { return false }
        return HostTime.now() &- since > 500_000_000
    }

    /// Where the loop pass playing now began on the timeline.
    var currentPassStart: MediaTime { pass(at: clock.time(at: HostTime.now())).start }

    /// The position in the item (within the current loop pass).
    var currentTime: MediaTime {
        let t = clock.time(at: HostTime.now())
        return MediaTime(seconds: max(0, t - pass(at: t).start.seconds))
    }

    func takeEvents() -> [PlayerEvent] {
        defer { events.removeAll() }
        return events
    }

    private func applyGain() { audio.setGain(isMuted || !isAudible ? 0 : volume) }

    /// The clock pictures are timed by: the group's when synced, else its own.
    private var pictureClock: PlaybackClock { syncClock ?? clock }

    private var passes: Int? { actionAtItemEnd == .loop ? nil : passesPerItem }

    private func applyLooping() {
        currentItem?.setPasses(passes)
        upcomingItem?.setPasses(passes)
    }

    /// The loop pass playing at timeline time `t`, and where it started.
    private func pass(at t: Double) -> (index: Int, start: MediaTime) {
        guard let starts = currentItem?.pipeline?.passStarts else { return (0, .zero) }
        let index = max(0, (starts.lastIndex { $0.seconds <= t + 1e-9 }) ?? 0)
        return (index, starts[index])
    }

    /// True when the clock runs on host time: no audio stream, or it ended.
    private func audioIsSilent(_ pipeline: any ItemSource) -> Bool {
        !pipeline.hasAudio || audio.isFinished
    }

    // MARK: Refresh

    /// Called every refresh on the main thread: advances the state and
    /// returns the video frame to show now, if it changed. The caller copies
    /// its picture and gives the buffer back with `recycle`.
    func update(at now: UInt64) -> VideoFrame? {
        guard let item = currentItem else { return nil }
        reportStatus(item)
        if audio.generation != audioGeneration, let next = upcomingItem {
            let handover = audio.lastHandover
            if now < handover.host, let pipeline = item.pipeline {
                // The device still plays this item's last samples: show its
                // last frames on its own timeline until the seam is heard.
                let t = handover.previousEnd - Double(handover.host - now) / 1e9
                return pickFrame(pipeline, at: now, time: t)
            }
            // The audio moved on to the upcoming item: the picture follows.
            audioGeneration = audio.generation
            advance(to: next, previousEnd: nil)
            return update(at: now)
        }
        guard let pipeline = item.pipeline else { return nil }
        if actionAtItemEnd == .advance, pipeline.hasAudio, let nextRing = upcomingItem?.pipeline,
           nextRing.hasAudio {
            audio.setNext(nextRing.audioRing)
        }
        if serial < 0 {
            serial = pipeline.serial
            audio.attach(pipeline.hasAudio ? pipeline.audioRing : nil)
        }
        if let target = pendingSeek { seek(to: target) }
        let shown = pickFrame(pipeline, at: now)

        let videoReady = !pipeline.hasVideo || !needsFirstFrame || pipeline.frames.hasEnded
        let running = wantsToPlay && videoReady && !endReported
        audio.setGate(running && pipeline.hasAudio)
        if running && audioIsSilent(pipeline) && !clock.snapshot.running {
            clock.set(time: clock.time(at: now), host: now, running: true, audioDriven: false)
        }
        // Meant to play, first frame shown, but the sound ran dry: waiting
        // for data (a stalled network), not a pause.
        let starved = running && !needsFirstFrame && pipeline.hasAudio && !audio.isFlowing && !audio.isFinished
        if starved {
            if let last = lastUpdate, waitingSince != nil { stats.waitingSeconds += Double(now &- last) / 1e9 }
            waitingSince = waitingSince ?? now
        } else {
            waitingSince = nil
        }
        lastUpdate = now
        stats.audioUnderruns = audio.counters.underruns
        let passIndex = pass(at: clock.time(at: now)).index
        if passIndex > passesSeen {
            stats.loopCount += passIndex - passesSeen
            passesSeen = passIndex
        }
        checkEnd(pipeline, at: now)
        return shown
    }

    func recycle(_ frame: VideoFrame) {
        currentItem?.pipeline?.frames.recycle(frame.picture)
    }

    /// Seconds until the next frame is due (for the event loop's sleep).
    func timeUntilNextFrame(at now: UInt64) -> Double? {
        guard wantsToPlay, let frames = currentItem?.pipeline?.frames, let next = frames.peek() else { return nil }
        return next.pts.seconds - pictureClock.time(at: now)
    }

    private func reportStatus(_ item: PlayerItem) {
        for w in item.takeWarnings() { events.append(.warning(w)) }
        switch item.status {
        case .readyToPlay where !announcedReady:
            announcedReady = true
            events.append(.readyToPlay)
        case .failed(let e) where !announcedFailure:
            announcedFailure = true
            events.append(.failed(e))
        default:
            break
        }
    }

    private func pickFrame(_ pipeline: any ItemSource, at now: UInt64, time: Double? = nil) -> VideoFrame? {
        let frames = pipeline.frames
        let t = time ?? pictureClock.time(at: now)
        var picked: VideoFrame?
        while let f = frames.peek() {
            if f.serial != serial {
                if let stale = frames.pop() { frames.recycle(stale.picture) }
                continue
            }
            if needsFirstFrame || stepRequested {
                picked = frames.pop()
                if stepRequested { clock.set(time: f.pts.seconds, host: now, running: false, audioDriven: false) }
                needsFirstFrame = false
                stepRequested = false
                break
            }
            guard wantsToPlay, f.pts.seconds <= t + 0.0005 else { break }
            if let next = frames.peek(1), next.serial == serial, next.pts.seconds <= t {
                // Late: a later frame is already due.
                if let late = frames.pop() { frames.recycle(late.picture) }
                stats.framesDropped += 1
                continue
            }
            picked = frames.pop()
            let anchor = pictureClock.snapshot
            if anchor.audioDriven && anchor.running {
                stats.maxAVOffsetMs = max(stats.maxAVOffsetMs, abs(t - f.pts.seconds) * 1000)
            }
            break
        }
        if let picked {
            onFramePresented?(picked.pts, now)
            stats.framesPresented += 1
            lastFrameEnd = (picked.pts + picked.duration).seconds
            lastPresentedTime = picked.pts
            if stats.timeToFirstFrameMs == nil, let item = currentItem {
                stats.timeToFirstFrameMs = Double(now &- item.createdAt) / 1e6
            }
        }
        return picked
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
        stats = PlayerStats()
        resetItemState()
        guard let pipeline = next.pipeline else { return }
        serial = pipeline.serial
        // Timed from the first frame on, not shown at once: the clock runs on.
        needsFirstFrame = false
        if let previousEnd {
            let now = HostTime.now()
            clock.set(time: clock.time(at: now) - previousEnd, host: now, running: true, audioDriven: false)
            audio.attach(pipeline.hasAudio ? pipeline.audioRing : nil)
        }
        applyLooping()
    }

    private func checkEnd(_ pipeline: any ItemSource, at now: UInt64) {
        guard !endReported, wantsToPlay else { return }
        let videoDone = !pipeline.hasVideo || (pipeline.frames.isDrained
            && clock.time(at: now) >= (lastFrameEnd ?? 0) - 0.0005)
        let audioDone = !pipeline.hasAudio || audio.isFinished
        guard videoDone && audioDone else { return }
        if actionAtItemEnd == .advance, let next = upcomingItem, next.pipeline != nil {
            // No audio carried us over (video-only, or the next has no audio).
            advance(to: next, previousEnd: lastFrameEnd ?? clock.time(at: now))
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
