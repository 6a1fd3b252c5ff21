// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// Playing backward, decodes the frames before those the steps are showing,
/// on a thread of its own with its own reader of the file
/// (`BackwardWindowDecoder`), into the decoded-frame cache: while the steps
/// take the frames of one window from the cache, the window before it is
/// decoded (from its keyframe, keeping the window's frames only), so that
/// the steps find their frames there when they reach it. The pipeline's own
/// decode thread is left free for the steps: a step whose frame is not
/// there yet waits for this thread to decode it rather than decoding the
/// keyframe interval a second time beside it.
///
/// A window is as many frames as the cache has room for once the frames
/// still to be shown are counted, down to the keyframe of its top frame
/// at most; the next begins when half the cache's
/// frames are left to show (or none are), so the work is about N²/C
/// frames decoded for N frames shown between keyframes with room for C.
///
/// Started when the player plays backward, stopped (and its thread joined)
/// when it plays forward again, pauses, seeks elsewhere forward, or the item
/// goes; what it decoded stays in the cache. It only reads local files; a
/// file it cannot open again, or whose frames it cannot place, leaves each
/// step to decode on demand, as before, said once.
final class BackwardPrefetcher: Sendable {
    /// What the prefetch thread needs to make its reader, on that thread.
    struct Reader: Sendable {
        let input: MediaInput
        let streamIndex: Int
        let threads: Int32
        let startOffset: MediaTime
        let nominalDuration: Int64
        /// The size the pictures are drawn at by the CPU, now (nil: they go
        /// to the GPU as decoded): the frames kept are resized for it.
        let shownAt: @Sendable () -> PictureSize?
    }

    /// One run of the thread, from `start` to `stop`.
    private final class Run: Sendable {
        let stopped = Atomic<Bool>(false)
        let interrupt = InterruptFlag()
        let finished = DispatchSemaphore(value: 0)
    }

    private struct State {
        /// Where the steps are: the target of the latest step back.
        var playhead: MediaTime?
        var run: Run?
        /// This file cannot be read ahead (said once): steps decode on demand.
        var cannot = false
        /// The pipeline stopped: no thread starts again.
        var closed = false
        /// The window the thread is decoding.
        var window: Range<MediaTime>?
        /// Windows decoded in all.
        var windows = 0
        /// The bytes one frame takes in the cache, and a frame's duration,
        /// as the thread last worked them out.
        var frameBytes: Int?
        var frameDuration: MediaTime?
    }

    private let cache: DecodedFrameCache
    private let reader: Reader
    private let state = Mutex(State())
    /// New orders for the thread: a step, a stop.
    private let orders = WakeSignal()
    private let warning: @Sendable (String) -> Void

    init(cache: DecodedFrameCache, reader: Reader, warning: @escaping @Sendable (String) -> Void) {
        self.cache = cache
        self.reader = reader
        self.warning = warning
    }

    deinit { stop() }

    /// Whether the thread runs and can read ahead.
    var isWorking: Bool { state.withLock { $0.run != nil && !$0.cannot } }

    /// Said by the decode thread when it cannot show the frames decoded
    /// here: the steps decode on demand from now on.
    func cannotServe(_ why: String) { giveUp(why) }

    /// Windows decoded so far (tests).
    var windowsDecoded: Int { state.withLock { $0.windows } }

    /// Starts the thread (the player plays backward); nothing when it runs.
    func start() {
        let run: Run? = state.withLock { s in
            guard s.run == nil, !s.cannot, !s.closed, cache.budget > 0 else { return nil }
            let run = Run()
            s.run = run
            return run
        }
        guard let run else { return }
        let thread = Thread { [self] in
            work(run)
            run.finished.signal()
        }
        thread.name = "deskplayer.backward"
        thread.start()
    }

    /// Stops the thread and waits for it; what it decoded stays in the cache.
    func stop() {
        guard let run = state.withLock({ s -> Run? in
            defer { s.run = nil; s.playhead = nil }
            return s.run
        }) else { return }
        run.stopped.store(true, ordering: .relaxed)
        run.interrupt.set()
        orders.signal()
        cache.inserted.signal()  // a step waiting for a frame decodes it itself
        run.finished.wait()
    }

    /// Stops the thread for good (the pipeline stops).
    func close() {
        state.withLock { $0.closed = true }
        stop()
    }

    /// A step back to `time` (the item time it shows the frame of).
    func follow(_ time: MediaTime) {
        state.withLock { $0.playhead = time }
        orders.signal()
        cache.inserted.signal()  // a step still waiting for its frame is no longer wanted
    }

    /// Whether the cache holds the frames before the one showing at `time`,
    /// as many as half its room (the next window is not due before), or
    /// down to the first frame; true also when this thread does not decode
    /// ahead. Until then, time does not start running backward
    /// (`Player+Backward`): the frames the steps need first are the last
    /// of a window to be decoded (a window is decoded from its keyframe).
    /// Measured against waiting for the first window only: HEVC 10-bit
    /// 37 % dropped against 63 % (its exact seek's decoded frames leave
    /// room for a first window of 25 pictures), 1080p H.264 1.0 against 2.3.
    func holdsFrames(before time: MediaTime) -> Bool {
        let (working, frameBytes, frameDuration) = state.withLock { s in
            (s.run != nil && !s.cannot, s.frameBytes, s.frameDuration)
        }
        guard working else { return true }
        guard let frameBytes, frameBytes > 0, let frameDuration, let kept = cache.runDown(to: time) else { return false }
        return kept.frames >= cache.budget / frameBytes / 2 || kept.start < frameDuration
    }

    /// Waits until the cache holds the frame showing at `time` (true), or
    /// this thread will not decode it (false: not running, or it cannot),
    /// or `isStale` says the step is no longer wanted (false).
    func waitForFrame(at time: MediaTime, isStale: () -> Bool) -> Bool {
        while true {
            let seen = cache.inserted.generation
            if !cache.run(at: time, limit: 1).isEmpty { return true }
            guard state.withLock({ $0.run != nil && !$0.cannot }), !isStale() else { return false }
            cache.inserted.wait(after: seen, timeout: WakeSignal.safetyBound)
        }
    }

    // MARK: The thread

    private func work(_ run: Run) {
        let windows: BackwardWindowDecoder
        do throws(MediaError) {
            let input = try reader.input.openedAgain(interrupt: run.interrupt)
            windows = try BackwardWindowDecoder(reading: input, stream: reader.streamIndex, threads: reader.threads,
                                                startOffset: reader.startOffset, nominalDuration: reader.nominalDuration)
        } catch {
            return giveUp("\(error)")
        }
        state.withLock { $0.frameDuration = windows.frameDuration }
        while !run.stopped.load(ordering: .relaxed) {
            let seen = orders.generation
            let shownAt = reader.shownAt()
            guard let window = nextWindow(windows, shownAt: shownAt) else {
                orders.wait(after: seen, timeout: WakeSignal.safetyBound)
                continue
            }
            state.withLock { $0.window = window }
            let kept: Int?
            do throws(MediaError) {
                kept = try windows.decode(window, into: cache, shownAt: shownAt, playhead: { state.withLock { $0.playhead } },
                                          shouldStop: { run.stopped.load(ordering: .relaxed) || movedBelow(window) })
            } catch {
                if run.stopped.load(ordering: .relaxed) { break }
                return giveUp("\(error)")
            }
            let playhead = state.withLock { s in
                s.window = nil
                if kept != nil { s.windows += 1 }
                return s.playhead
            }
            // A whole window decoded around the steps without their frame:
            // frames this reader cannot place where the pipeline does.
            if kept != nil, let playhead, window.contains(playhead), cache.run(at: playhead, limit: 1).isEmpty {
                return giveUp("its frames do not match the file's timestamps")
            }
            cache.inserted.signal()
        }
    }

    /// The frames before the ones kept down to the steps' frame, as many
    /// as there is room for; nil while more than half the cache's frames
    /// are still to be shown, at the start, or without a step yet.
    private func nextWindow(_ windows: BackwardWindowDecoder, shownAt: PictureSize?) -> Range<MediaTime>? {
        guard let playhead = state.withLock({ $0.playhead }), playhead > .zero,
              let frameBytes = windows.frameBytes(shownAt: shownAt), frameBytes > 0 else { return nil }
        state.withLock { $0.frameBytes = frameBytes }
        let roomFor = cache.budget / frameBytes
        let high: MediaTime
        if let kept = cache.runDown(to: playhead) {
            guard kept.frames <= roomFor / 2, kept.start > .zero else { return nil }
            high = kept.start
        } else {
            // Nothing kept there: from the frame showing at the playhead down.
            high = playhead + MediaTime(value: 1, timescale: 1_000_000)
        }
        let free = (cache.budget - cache.bytes(startingBy: playhead)) / frameBytes
        guard free > 0 else { return nil }
        // Not below the keyframe of the frame on top (the one starting a
        // frame below `high`): the frames of an earlier interval would be
        // decoded first, from their own keyframe, and the ones the steps
        // need next (the top) only after them. A microsecond below `high`
        // rounded back to `high` in the stream's time base: a window that
        // ended on a keyframe found that keyframe again, no window was
        // left, and each start of backward play waited out its 5 s.
        let keyframe = windows.keyframe(atOrBefore: high - windows.duration(ofFrames: 1)) ?? .zero
        let low = max(high - windows.duration(ofFrames: free), keyframe, .zero)
        return low < high ? low..<high : nil
    }

    /// Whether the steps went below `window` (a seek back, a step that fell
    /// behind): it is decoded too late to be shown.
    private func movedBelow(_ window: Range<MediaTime>) -> Bool {
        guard let playhead = state.withLock({ $0.playhead }) else { return true }
        return playhead < window.lowerBound
    }

    private func giveUp(_ why: String) {
        let first = state.withLock { s in
            defer { s.cannot = true }
            return !s.cannot
        }
        cache.inserted.signal()
        if first { warning(String(format: tr("Playing backward: cannot decode ahead (%@); each step decodes on demand"), why)) }
    }
}
