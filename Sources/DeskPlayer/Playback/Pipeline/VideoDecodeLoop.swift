// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Media

/// The video decode thread of an opened file: decodes its packet queue,
/// gives every frame a time (`FrameTimestamps`), drops what precedes a
/// seek target, filters it where the stream needs it (`VideoFilters`:
/// deinterlacing, tone mapping, rotation) and queues it, by reference, for
/// the presenter, timed on the continuous timeline of the loop passes (the
/// view that shows a frame makes its picture: `FramePictureMaker`).
final class VideoDecodeLoop {
    /// What is tracked for one serial; `reset` when a packet of a new serial arrives.
    private struct SerialState {
        var serial = -1
        /// The seek target: frames that end before it are not shown.
        var target: MediaTime?
        /// Frames queued so far.
        var delivered = 0
        /// A frame before the target is held, in case nothing later comes.
        var hasHeld = false
        var pass = 0
        /// Where the pass being decoded starts on the timeline.
        var passOffset = MediaTime.zero
        /// Where the last frame queued ends.
        var lastEnd: MediaTime?
        /// The A-B loop this serial's passes follow: each later pass shows
        /// the frames on screen from A (where it starts) to B.
        var interval: LoopInterval?
        var origin = MediaTime.zero
        /// Whether the last frame given to the filters went through them untouched.
        var leftAsIs = false
        /// Where the first frame queued for this serial starts in the item.
        var firstQueued: MediaTime?
        /// A step back (the target just before the frame the last serial
        /// showed first): the whole budget is kept for the steps to come; a
        /// seek elsewhere keeps the second before its target (backward,
        /// every seek back is a step).
        var isStepBack = false
        /// Packets of this serial seen so far.
        var packets = 0
        /// Playing backward, the cache already holds every frame from this
        /// serial's keyframe to its target: decoding them again would only
        /// take the CPU the next steps need.
        var decodesNothing = false

        mutating func reset(serial: Int, target: MediaTime?, interval: LoopInterval?) {
            self = SerialState(serial: serial, target: target, interval: interval)
        }
    }

    private let stream: OpenedStream
    private let packets: PacketQueue
    private let frames: FrameQueue
    private let control: PipelineControl
    private let passes: LoopPasses
    /// What this loop's frames are made into pictures with, when shown.
    private let origin: FrameOrigin
    private let startOffset: MediaTime
    /// A frame's duration when its packet does not say, in stream ticks.
    private let nominalDuration: Int64
    private let warning: @Sendable (String) -> Void
    private let toneMapping: ToneMapping
    /// Whether a picture shown at half its size or less is decoded fast.
    private let fastWhenSmall: Bool
    /// The video's display size, against which the size shown is compared.
    private let videoSize: (width: Int, height: Int)
    private var timestamps: FrameTimestamps
    private let filters: VideoFilters
    /// The duration of the last frame that went into the filters.
    private var inputDuration = MediaTime.zero
    private let frame: Frame
    /// The latest frame before the seek target.
    private let held: Frame
    private var current = SerialState()
    /// What decodes, as last told to `control`.
    private var reportedHardware: String?
    /// Frames around the last exact seek, for the steps back that follow.
    private let cache: DecodedFrameCache
    /// Playing backward, what decodes the frames before the steps into
    /// `cache` (nil: each step decodes on demand).
    private let prefetcher: BackwardPrefetcher?
    /// The bytes of a decoded frame of this stream (known from the first).
    private var frameBytes: Int?
    /// Packet times are decode times (AVI): not to judge a frame by.
    private let packetTimesAreDecodeTimes: Bool

    init(stream: OpenedStream, info: MediaInfo, toneMapping: ToneMapping, fastWhenSmall: Bool, forGPU: Bool,
         packets: PacketQueue, frames: FrameQueue,
         control: PipelineControl, passes: LoopPasses, subtitles: SubtitleTracks?, startOffset: MediaTime,
         cache: DecodedFrameCache = DecodedFrameCache(budget: DecodedFrameCache.defaultBudget),
         prefetcher: BackwardPrefetcher? = nil,
         warning: @escaping @Sendable (String) -> Void) throws(MediaError) {
        self.stream = stream
        self.packets = packets
        self.frames = frames
        self.control = control
        self.passes = passes
        origin = FrameOrigin(subtitles: subtitles, forGPU: forGPU, warning: warning)
        self.startOffset = startOffset
        let rate = VideoDecodeLoop.frameRate(info)
        let tb = stream.timeBase
        nominalDuration = VideoDecodeLoop.nominalDuration(info, timeBase: tb)
        self.warning = warning
        self.toneMapping = toneMapping
        self.fastWhenSmall = fastWhenSmall
        videoSize = (info.displayWidth, info.displayHeight)
        packetTimesAreDecodeTimes = info.formatName == "avi"
        timestamps = FrameTimestamps(containerStampsDecodeTimes: packetTimesAreDecodeTimes)
        filters = try VideoFilters(orientation: info.videoOrientation, interlaced: info.videoInterlaced,
                                   timeBase: tb, frameRate: rate, warning: warning)
        frame = try Frame()
        held = try Frame()
        self.cache = cache
        self.prefetcher = prefetcher
    }

    private static func frameRate(_ info: MediaInfo) -> AVRational {
        info.frameRate.map { av_d2q($0, 1 << 20) } ?? AVRational(num: 25, den: 1)
    }

    /// A frame's duration, in ticks of `timeBase`, when its packet does not say.
    static func nominalDuration(_ info: MediaInfo, timeBase: AVRational) -> Int64 {
        ContainerMath.ticksPerFrame(frameRate: frameRate(info), timeBase: timeBase) ?? 1
    }

    /// Runs until the pipeline is aborted.
    func run() {
        while let entry = packets.get() {
            if entry.serial != current.serial {
                stream.decoder.flush()
                filters.reset()
                timestamps.reset()
                let shownBefore = current.firstQueued
                current.reset(serial: entry.serial, target: control.seekTarget(for: entry.serial),
                              interval: control.activeLoopInterval)
                if let shownBefore, let target = current.target {
                    let frame = MediaTime(nominalDuration, stream.timeBase)
                    current.isStepBack = target < shownBefore
                        && (control.playsBackward || shownBefore - frame - frame <= target)
                }
                if !control.keepsFramesForSteps {
                    cache.removeAll()
                } else if let target = current.target {
                    showCached(at: target)
                    if current.delivered == 0 { showPrefetched(at: target) }
                }
            }
            switch entry {
            case .packet(let packet, _):
                if current.packets == 0 {
                    current.decodesNothing = cacheHoldsInterval(from: packet) || servedByPrefetcher
                    if !current.decodesNothing { control.readOn(serial: current.serial) }
                }
                current.packets += 1
                if !current.decodesNothing { decode(packet) }
            case .passEnd:
                endPass()
            case .passEndsAt:
                break  // only audio is cut to the pass's end
            case .endOfStream:
                endStream()
            }
        }
    }

    private func decode(_ packet: Packet?) {
        if let packet { timestamps.packetSent(packet) }
        // Unseen (a minimized or covered window), frames nothing refers to are
        // left out: the decoder keeps its place at a lower cost.
        stream.decoder.skipsNonReference = !control.arePicturesSeen || (packet.map(precedesWhatIsKept) ?? false)
        if fastWhenSmall { stream.decoder.decodesFast = isShownSmall }
        stream.decoder.setHardware(control.hardwareDecoding)
        stream.decoder.decode(packet, into: frame, until: { control.isAborted }, each: deliver)
        control.decodeErrors.add(stream.decoder.takeErrors(), warning: warning)
        reportHardware()
    }

    /// Never at full size: only where scaling down hides what the loop filter smooths.
    private var isShownSmall: Bool {
        let shown = control.displaySize
        return shown.width * 2 <= videoSize.width && shown.height * 2 <= videoSize.height
    }

    /// Says once why hardware decoding is not (or no longer) used, and
    /// tells the owner what decodes now (`hwdec-current`).
    private func reportHardware() {
        if let notice = stream.decoder.takeHardwareNotice() { warning(notice) }
        let inUse = stream.decoder.hardwareInUse
        if inUse != reportedHardware {
            reportedHardware = inUse
            control.hardwareInUse = inUse
        }
    }

    /// Times a decoded frame and, unless it precedes the seek target, filters and shows it.
    private func deliver(_ source: Frame) {
        // With nothing to go by, the first frame is where this pass (or the seek) starts.
        let startTime = (current.target.map { $0 - current.passOffset + current.origin } ?? .zero) + startOffset
        let start = startTime.ticks(in: stream.timeBase)
        let stamp = timestamps.stamp(source, nominalDuration: nominalDuration, start: start)
        source.pointer.pointee.pts = stamp.ticks
        let itemTime = MediaTime(stamp.ticks, stream.timeBase) - startOffset
        if let interval = current.interval, itemTime >= interval.b { return }  // shown from B on: the next pass's
        let pts = itemTime - current.origin + current.passOffset
        let duration = MediaTime(stamp.duration, stream.timeBase)
        if let t = current.target, pts + duration <= t {
            // Before the seek target: kept for the steps back that may follow
            // (those close enough to it to fit), and the latest held, in case
            // nothing later comes.
            keep(source, itemTime: itemTime, duration: duration, before: t - pts)
            held.unref()
            av_frame_move_ref(held.pointer, source.pointer)
            current.hasHeld = true
            return
        }
        filterAndShow(source, duration: duration)
    }

    private func filterAndShow(_ source: Frame, duration: MediaTime) {
        inputDuration = duration
        // Asked only where the answer is used (a frame kept for steps): the
        // chain is worked out again in `process`, for every frame played.
        current.leftAsIs = current.target != nil && current.interval == nil && control.keepsFramesForSteps
            && filters.leavesAsIs(source.pointer.pointee, deinterlace: control.deinterlace, toneMapping: toneMapping)
        filters.process(source, deinterlace: control.deinterlace, toneMapping: toneMapping, emit: show)
    }

    /// Queues a frame (as the filters give it) by reference: it is made
    /// into a picture where it is shown, if it is.
    private func show(_ frame: UnsafeMutablePointer<AVFrame>, timeBase: AVRational, durationScale: AVRational) {
        guard frame.pointee.pts != DP_AV_NOPTS_VALUE else { return }
        let pts = MediaTime(frame.pointee.pts, timeBase) - startOffset - current.origin + current.passOffset
        let duration = inputDuration.scaled(by: durationScale)
        guard frames.waitForRoom(serial: current.serial) else { return }
        let source: Frame
        do {
            source = try Frame()
            try MediaError.check(av_frame_ref(source.pointer, frame), "cannot keep a decoded picture")
        } catch {
            warning("video: \(error)")
            return
        }
        let itemTime = pts - current.passOffset + current.origin
        frames.push(VideoFrame(source: source, pts: pts, duration: duration, serial: current.serial,
                               itemTime: itemTime, decodedFast: stream.decoder.decodesFast, origin: origin))
        current.delivered += 1
        current.lastEnd = pts + duration
        if current.firstQueued == nil { current.firstQueued = itemTime }
        if !control.keepsFramesForSteps {
            cache.removeAll()  // playing: the frames kept for steps go
        } else if current.target != nil, current.interval == nil, current.leftAsIs {
            // A step forward and back again comes from memory too.
            cache.insert(frame, itemTime: itemTime, duration: duration, decodedFast: stream.decoder.decodesFast)
        }
    }

    /// An exact seek decodes from the keyframe before its target; a frame
    /// that is neither shown nor kept for steps back, and that no other
    /// frame refers to, need not be decoded at all (`skip_frame`: with
    /// B-frames, about half of them). Judged by the packet's time, two
    /// frames clear of the target and of the frames the cache would keep.
    private func precedesWhatIsKept(_ packet: Packet) -> Bool {
        guard let target = current.target, current.interval == nil, current.passOffset == .zero,
              !packetTimesAreDecodeTimes, packet.pts != DP_AV_NOPTS_VALUE else { return false }
        let frame = MediaTime(nominalDuration, stream.timeBase)
        let (ticks, overflow) = nominalDuration.multipliedReportingOverflow(by: Int64(framesKeptBeforeTarget))
        guard !overflow, ticks < Int64(1) << 40 else { return false }
        let kept = MediaTime(ticks, stream.timeBase)
        return MediaTime(packet.pts, stream.timeBase) - startOffset + frame + frame <= target - kept
    }

    /// How many frames before this serial's target the cache keeps: none
    /// while playing; for a step back as many as the budget holds, for a
    /// seek elsewhere one second's (copying them costs the seek time).
    private var framesKeptBeforeTarget: Int {
        guard control.keepsFramesForSteps, let bytes = frameBytes, bytes > 0 else { return 0 }
        let budgeted = min(cache.budget / bytes, 1 << 20)
        if current.isStepBack { return budgeted }
        let perSecond = MediaTime(seconds: 1).seconds / MediaTime(nominalDuration, stream.timeBase).seconds
        return min(budgeted, Int(exactly: perSecond.rounded(.up)) ?? budgeted)
    }

    /// Keeps a decoded frame before a seek's target in the cache when it
    /// needs no filter (decoded fast or not: the flag goes with it) and is close enough to the
    /// target (`before` ahead of it) to be among the frames kept.
    private func keep(_ source: Frame, itemTime: MediaTime, duration: MediaTime, before: MediaTime) {
        guard let bytes = DecodedFrameCache.bytes(of: source.pointer.pointee) else { return }
        frameBytes = bytes
        guard current.interval == nil, control.keepsFramesForSteps, duration > .zero else { return }
        let framesToTarget = Int(exactly: (before.seconds / duration.seconds).rounded(.up)) ?? Int.max
        guard framesToTarget <= framesKeptBeforeTarget,
              filters.leavesAsIs(source.pointer.pointee, deinterlace: control.deinterlace, toneMapping: toneMapping) else { return }
        VideoFilters.fillInColorMatrix(source.pointer)
        cache.insert(source.pointer, itemTime: itemTime, duration: duration, decodedFast: stream.decoder.decodesFast)
    }

    /// A seek whose target is in the cache shows the cached frame at once,
    /// and the ones after it, without waiting for the decoder, which goes
    /// on from the keyframe to after them (for playing or stepping on).
    private func showCached(at target: MediaTime) {
        guard current.interval == nil else { return cache.removeAll() }
        let run = cache.run(at: target, limit: 3)
        guard let first = run.first,
              filters.leavesAsIs(first.frame.pointer.pointee, deinterlace: control.deinterlace, toneMapping: toneMapping)
        else { return }
        // A frame decoded fast is shown from here only while the picture is
        // still small: one shown larger is decoded again in full.
        let fastIsFine = fastWhenSmall && isShownSmall
        let shownAt = control.shownSize
        for entry in run {
            guard fastIsFine || !entry.decodedFast else { return }
            // Resized for another size shown (the window changed): decoded again.
            guard entry.madeFor.map({ $0 == shownAt }) ?? true else { return }
            guard frames.waitForRoom(serial: current.serial), let reference = try? Frame(),
                  av_frame_ref(reference.pointer, entry.frame.pointer) >= 0 else { return }
            var frame = VideoFrame(source: reference, pts: entry.itemTime, duration: entry.duration, serial: current.serial,
                                   itemTime: entry.itemTime, decodedFast: entry.decodedFast, origin: origin)
            frame.resizedAhead = entry.madeFor != nil
            frames.push(frame)
            control.countFrameFromCache()
            if current.firstQueued == nil { current.firstQueued = entry.itemTime }
            current.delivered += 1
            current.lastEnd = entry.end
            // What the decoder makes from here is shown only after these.
            current.target = entry.end
        }
    }

    /// Playing backward, a step whose frame the prefetch thread is decoding
    /// waits for it there (rather than decoding its keyframe interval a
    /// second time beside it), and shows it from the cache.
    private func showPrefetched(at target: MediaTime) {
        guard control.playsBackward, current.interval == nil, let prefetcher else { return }
        let serial = current.serial
        guard prefetcher.waitForFrame(at: target, isStale: { control.isAborted || control.serial != serial }) else { return }
        showCached(at: target)
        guard current.delivered == 0 else { return }
        let shownAt = control.shownSize
        if cache.run(at: target, limit: 1).first?.madeFor.map({ $0 != shownAt }) == true {
            // Resized for the window's former size: this step decodes its
            // frame, the thread's next windows are made for the new size.
            return cache.removeAll(madeForOtherThan: shownAt)
        }
        // Its frames need what the filters do: this thread decodes them.
        prefetcher.cannotServe("the video's frames need filters")
    }

    /// Playing backward, the step's frame came from the cache and the
    /// prefetch thread decodes the frames before it: nothing to decode here.
    private var servedByPrefetcher: Bool {
        control.playsBackward && current.delivered > 0 && prefetcher?.isWorking == true
    }

    /// Whether, playing backward, the frames from `keyframe` (this serial's
    /// first packet) to past the target are all in the cache and the frame
    /// at the target was shown from it.
    private func cacheHoldsInterval(from keyframe: Packet?) -> Bool {
        guard control.playsBackward, current.delivered > 0, let target = current.target, let keyframe,
              keyframe.pts != DP_AV_NOPTS_VALUE else { return false }
        let start = MediaTime(keyframe.pts, stream.timeBase) - startOffset
        guard let last = cache.run(at: start, limit: Int.max).last else { return false }
        return last.end >= target
    }

    /// Every frame of this pass out; the next pass follows audio's exact
    /// seam, or the last frame's end when there is no audio.
    private func endPass() {
        decode(nil)
        filters.drain(emit: show)
        stream.decoder.flush()
        timestamps.reset()
        current.pass += 1
        current.passOffset = passes.awaitAudioStart(of: current.pass, serial: current.serial,
                                                    isAborted: { control.isAborted })
            ?? passes.publish(current.pass, at: current.lastEnd ?? current.passOffset, fromAudio: false,
                              serial: current.serial)
        if let interval = current.interval {
            // An A-B pass starts at A: what ends before it is not shown (as after a seek).
            current.origin = interval.origin(ofPass: current.pass)
            current.target = current.passOffset
        }
    }

    private func endStream() {
        decode(nil)
        if current.delivered == 0 && current.hasHeld {
            current.target = nil  // a seek at or past the end shows the last frame
            filterAndShow(held, duration: inputDuration > .zero ? inputDuration : MediaTime(nominalDuration, stream.timeBase))
        }
        filters.drain(emit: show)
        frames.markEnded(serial: current.serial)
        stream.decoder.flush()
    }
}
