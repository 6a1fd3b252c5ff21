// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// Counters of the frames a player showed and dropped.
struct PresentationStats: Sendable {
    var framesPresented = 0
    /// Frames that were late: a later one was already due when they came up.
    var framesDropped = 0
    /// Frames presented while unseen (never converted: a minimized or covered window).
    var framesUnseen = 0
    /// Frames left out on purpose: at a speed where the video has more
    /// frames a second than the display shows, the schedule keeps one per
    /// refresh (not late: nothing was missed).
    var framesSkipped = 0
    /// Largest |audio clock − frame time| seen when a frame was presented,
    /// in real (wall-clock) milliseconds: at 2x, 10 ms of media is 5 ms heard.
    var maxAVOffsetMs = 0.0
    /// The sum and count behind the mean offset: one late refresh on a busy
    /// machine moves the maximum, a clock that drifts from the audio moves the mean.
    var avOffsetSumMs = 0.0
    var avOffsetCount = 0
    var timeToFirstFrameMs: Double?

    var meanAVOffsetMs: Double { avOffsetCount == 0 ? 0 : avOffsetSumMs / Double(avOffsetCount) }
}

/// Picks, each refresh, the video frame due now from an item's frame queue:
/// frames of another serial are stale and dropped, a late frame gives way to
/// a later one already due, and the first frame of a serial (or a frame
/// step) shows at once, even while paused. When the clock runs faster than
/// the display can show the video's frames (2x of 60 fps on a 60 Hz
/// screen), frames closer to the last one shown than one refresh are
/// skipped by schedule. Remembers the frame on screen and counts what it
/// showed. Main thread only.
final class FramePresenter {
    /// The serial whose frames are shown (-1: none yet).
    private(set) var serial = -1
    /// Show the first frame of the serial at once, even while paused.
    private(set) var needsFirstFrame = true
    private var stepRequested = false
    /// The next first frame moves the clock to it (a step back lands on it, paused).
    private var anchorsClockOnFirstFrame = false
    /// Seconds between two pictures the display can show (its refresh).
    var displayInterval = 1.0 / 60
    /// The time of the frame on screen, and where it ends (seconds).
    private(set) var lastPresentedTime: MediaTime?
    /// False while nobody can see the pictures (a minimized window): frames
    /// presented then are counted as unseen (never made into pictures).
    var picturesSeen = true
    private(set) var lastFrameEnd: Double?
    private(set) var stats = PresentationStats()
    /// Called with each frame's time, the host time it is put on screen and
    /// how many frames of its item were left out (late or by schedule) since
    /// the picture before (`--frame-log`, benchmarks).
    var onFramePresented: ((MediaTime, UInt64, Int) -> Void)?
    private var leftOutSinceShown = 0
    /// The player's own clock: a frame step moves it to the frame shown.
    private let clock: PlaybackClock

    init(clock: PlaybackClock) { self.clock = clock }

    /// Shows frames of `serial` from now on. With `firstFrameAtOnce` its first
    /// frame shows as soon as it comes (an item's start, a seek), else it is
    /// timed by the clock (a gapless hand-over). The frame on screen stays
    /// (`lastPresentedTime`) until the next one comes.
    func follow(serial: Int, firstFrameAtOnce: Bool, anchorClock: Bool = false) {
        self.serial = serial
        leftOutSinceShown = 0
        needsFirstFrame = firstFrameAtOnce
        anchorsClockOnFirstFrame = firstFrameAtOnce && anchorClock
        lastFrameEnd = nil
    }

    /// Another item: nothing of it is on screen yet.
    func forgetShownFrame() {
        lastPresentedTime = nil
        lastFrameEnd = nil
    }

    /// The next frame shows at once, and the clock moves to it.
    func requestStep() { stepRequested = true }

    func resetStats() { stats = PresentationStats() }

    /// Frames passed over by a player playing backward (its steps fell
    /// behind its clock): late, as a forward frame given way is.
    func countDropped(_ frames: Int) {
        stats.framesDropped += frames
        leftOutSinceShown += frames
    }

    /// The frame to show now (nil: keep what is on screen). `time` is the
    /// picture clock's time now; `playing` false shows only a first frame or
    /// a step; `itemCreatedAt` times the first frame ever shown.
    func pick(from frames: FrameQueue, at now: UInt64, time t: Double, playing: Bool,
              pictureClock: PlaybackClock, itemCreatedAt: UInt64?) -> VideoFrame? {
        var picked: VideoFrame?
        while let f = frames.peek() {
            if f.serial != serial {
                _ = frames.pop()
                continue
            }
            if needsFirstFrame {
                // A step asked for before a seek's first frame came steps
                // from that frame: it shows now, the step on a later refresh.
                picked = frames.pop()
                needsFirstFrame = false
                if anchorsClockOnFirstFrame {
                    anchorsClockOnFirstFrame = false
                    clock.set(time: f.pts.seconds, host: now, running: false, audioDriven: false, rate: clock.rate)
                }
                break
            }
            if stepRequested {
                picked = frames.pop()
                clock.set(time: f.pts.seconds, host: now, running: false, audioDriven: false, rate: clock.rate)
                stepRequested = false
                break
            }
            let anchor = pictureClock.snapshot
            // Media seconds the display needs between two pictures at this speed.
            let refresh = displayInterval * max(anchor.rate, 1e-3)
            if playing, let shown = lastPresentedTime, f.pts > shown, f.pts.seconds - shown.seconds < refresh - 0.001 {
                // Closer to the picture on screen than one refresh: never seen, left out by schedule.
                _ = frames.pop()
                stats.framesSkipped += 1
                leftOutSinceShown += 1
                continue
            }
            guard playing, f.pts.seconds <= t + 0.0005 else { break }
            if let next = frames.peek(1), next.serial == serial, next.pts.seconds <= t,
               next.pts.seconds - f.pts.seconds >= refresh - 0.001 {
                // Late: a later frame the display could show is already due.
                _ = frames.pop()
                stats.framesDropped += 1
                leftOutSinceShown += 1
                continue
            }
            picked = frames.pop()
            if anchor.audioDriven && anchor.running {
                let offsetMs = abs(t - f.pts.seconds) / max(anchor.rate, 1e-3) * 1000
                stats.maxAVOffsetMs = max(stats.maxAVOffsetMs, offsetMs)
                stats.avOffsetSumMs += offsetMs
                stats.avOffsetCount += 1
            }
            break
        }
        if let picked {
            onFramePresented?(picked.pts, now, leftOutSinceShown)
            leftOutSinceShown = 0
            stats.framesPresented += 1
            if !picturesSeen { stats.framesUnseen += 1 }
            lastFrameEnd = (picked.pts + picked.duration).seconds
            lastPresentedTime = picked.pts
            if stats.timeToFirstFrameMs == nil, let createdAt = itemCreatedAt {
                stats.timeToFirstFrameMs = Double(now &- createdAt) / 1e6
            }
        }
        return picked
    }
}
