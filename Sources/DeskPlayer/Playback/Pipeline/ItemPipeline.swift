// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// The running machinery of one opened file: a demux thread (`Demuxer`)
/// feeding bounded packet queues, and one decode thread per stream
/// (`VideoDecodeLoop`, `AudioDecodeLoop`) filling the frame queue (video,
/// converted for display) and the audio ring (resampled to the device
/// format). Every packet and frame carries the serial of its seek
/// generation; a seek bumps it and stale data is dropped downstream. This
/// type owns them all, starts and stops the threads, and turns the player's
/// requests into the shared `PipelineControl` and `LoopPasses`.
final class ItemPipeline: ItemSource {
    let info: MediaInfo
    let video: OpenedStream?
    /// The audio stream selected when the item opened.
    let audio: OpenedStream?
    /// Every audio stream that can play, by stream index (the selected one too).
    private let audioStreams: [Int: OpenedStream]
    let subtitles: SubtitleTracks?
    /// Embedded subtitle streams, decoded on the demux thread as they are read.
    private let subtitleDecoders: [Int: Decoder]
    let tracks: [MediaTrack]
    let frames = FrameQueue()
    let audioRing: AudioRing
    private let input: MediaInput
    private let preferences: ItemPreferences
    private let videoPackets: PacketQueue
    private let audioPackets: PacketQueue
    /// Subtracted from container timestamps so the item starts at zero.
    private let startOffset: MediaTime
    private let bounds: PassBounds
    private let control: PipelineControl
    private let loopPasses: LoopPasses
    private let threadsDone = DispatchGroup()
    /// A loop was asked of a live stream; it is said once, from `start` on.
    private let liveLoopAsked = Atomic<Bool>(false)
    private let saidLiveCannotLoop = Atomic<Bool>(false)
    private let hasStarted = Atomic<Bool>(false)
    private let warningSink: @Sendable (String) -> Void
    /// Decoded frames around the last exact seek (the video thread's, and
    /// the backward prefetcher's).
    private let frameCache: DecodedFrameCache
    /// Playing backward, decodes ahead of the steps (nil: no video, or an
    /// input that cannot be read twice).
    private let prefetcher: BackwardPrefetcher?

    init(input: MediaInput, info: MediaInfo, video: OpenedStream?, audio: OpenedStream?, preferences: ItemPreferences,
         outputFormat: AudioFormat, otherAudio: [OpenedStream] = [], tracks: [MediaTrack] = [],
         subtitles: SubtitleTracks? = nil, subtitleDecoders: [Int: Decoder] = [:], startOffset: MediaTime,
         bounds: PassBounds = .streams, warning: @escaping @Sendable (String) -> Void) {
        self.input = input
        self.info = info
        self.video = video
        self.audio = audio
        self.preferences = preferences
        var streams = [Int: OpenedStream]()
        for s in otherAudio + [audio].compactMap({ $0 }) { streams[s.index] = s }
        audioStreams = streams
        self.tracks = tracks
        self.subtitles = subtitles
        self.subtitleDecoders = subtitleDecoders
        audioRing = AudioRing(format: outputFormat, seconds: preferences.audioBufferSeconds)
        self.startOffset = startOffset
        self.bounds = bounds
        control = PipelineControl(displaySize: (info.displayWidth, info.displayHeight), audioIndex: audio?.index)
        control.deinterlace = preferences.video.deinterlace
        control.hardwareDecoding = preferences.hardwareDecoding
        control.hardwareInUse = video?.decoder.hardwareInUse ?? "no"
        videoPackets = PacketQueue(taken: control.demuxerWake)
        audioPackets = PacketQueue(taken: control.demuxerWake)
        loopPasses = LoopPasses(hasAudio: audio != nil)
        warningSink = warning
        frameCache = DecodedFrameCache(budget: preferences.frameCacheBytes, backwardBudget: preferences.backwardFrameCacheBytes)
        if let video, !info.isLive, !info.isDevice, !input.isNetwork, info.formatName != "avi", frameCache.budget > 0 {
            let control = control, forGPU = preferences.picturesForGPU
            let reader = BackwardPrefetcher.Reader(input: input, streamIndex: video.index,
                                                   threads: preferences.videoDecoderThreadCount, startOffset: startOffset,
                                                   nominalDuration: VideoDecodeLoop.nominalDuration(info, timeBase: video.timeBase),
                                                   shownAt: { forGPU ? nil : control.shownSize })
            prefetcher = BackwardPrefetcher(cache: frameCache, reader: reader, warning: warning)
        } else {
            prefetcher = nil
        }
    }

    var decodeErrors: DecodeErrors? { control.decodeErrors }

    /// Starts recording this live input's video to `url` (the demuxer hands
    /// the recorder every video packet from now on); one at a time.
    /// `audio`: a microphone's samples will come (`CameraRecorder.takeAudio`).
    func record(to url: URL, audio: Bool) throws(MediaError) -> CameraRecorder {
        guard info.isDevice, let video, let stream = input.stream(video.index) else {
            throw MediaError("only a camera (a live input device with video) can be recorded")
        }
        if let running = control.tap as? CameraRecorder, running.progress.outcome == nil {
            throw MediaError("already recording to \(running.url.lastPathComponent)")
        }
        let recorder = try CameraRecorder(stream: stream, to: url, audio: audio)
        recorder.start()
        control.tap = recorder
        return recorder
    }

    var hasVideo: Bool { video != nil }
    var hasAudio: Bool { audio != nil }

    func start() {
        hasStarted.store(true, ordering: .relaxed)
        sayLiveCannotLoop()
        spawn("demux") { [self] in
            try Demuxer(input: input, video: video, audio: audio, videoPackets: videoPackets,
                        audioPackets: audioPackets, subtitleDecoders: subtitleDecoders, subtitles: subtitles,
                        startOffset: startOffset, bounds: bounds, frameRate: info.frameRate,
                        preferences: preferences, control: control, warning: warningSink).run()
        }
        if let video {
            spawn("video") { [self] in
                try VideoDecodeLoop(stream: video, info: info, toneMapping: preferences.video.toneMapping,
                                    fastWhenSmall: preferences.decodesSmallVideoFast, forGPU: preferences.picturesForGPU,
                                    packets: videoPackets, frames: frames,
                                    control: control, passes: loopPasses, subtitles: subtitles,
                                    startOffset: startOffset, cache: frameCache, prefetcher: prefetcher,
                                    warning: warningSink).run()
            }
        }
        if let audio {
            spawn("audio") { [self] in
                try AudioDecodeLoop(stream: audio, streams: audioStreams, packets: audioPackets, ring: audioRing,
                                    control: control, passes: loopPasses, startOffset: startOffset, bounds: bounds,
                                    stampsAreInterpolated: PassBounds.timestampsMayJump(format: input.formatName),
                                    warning: warningSink).run()
            }
        }
    }

    /// Runs `body` on a thread of its own; what it cannot start with (out of
    /// memory for its packet or frames) becomes a warning.
    /// The thread holds the pipeline only while `body` runs: `stop` returns
    /// once every thread let go of it. A started pipeline is stopped before
    /// its item lets go of it (`PlayerItem.cancel`, its deinit), so a body
    /// never drops the last reference of a pipeline still running, whose
    /// deinit would then wait in `stop` for the very thread it runs on.
    private func spawn(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        threadsDone.enter()
        let payload = ThreadPayload(body), done = threadsDone, warning = warningSink
        let thread = Thread {
            do { try payload.take()?() } catch { warning("\(name): \(error)") }
            done.leave()
        }
        thread.name = "deskplayer.\(name)"
        thread.start()
    }

    /// Stops every thread and waits for them; the pipeline is dead afterwards,
    /// and no thread of its own holds it.
    func stop() {
        guard control.abort() else { return }
        prefetcher?.close()
        input.interrupt.set()
        videoPackets.abort()
        audioPackets.abort()
        frames.abort()
        audioRing.changed.signal()
        loopPasses.wake.signal()
        threadsDone.wait()
        // A recording of a camera closed (its tile closed, another file
        // loaded) ends with it, its file kept.
        control.tap?.inputEnded("the camera was closed")
    }

    deinit { stop() }

    var serial: Int { control.serial }

    /// Starts an accurate seek: output resumes with the frame that is on
    /// screen at `time` and the audio sample at `time`. Returns the new serial.
    /// `pass` is the loop pass being played (0-based): the passes left are
    /// counted from it, so a seek neither grants nor costs a pass.
    @discardableResult
    func seekToKeyframe(before time: MediaTime, pass: Int) -> Int { seek(to: time, pass: pass, exact: false) }

    @discardableResult
    func seek(to time: MediaTime, pass: Int = 0) -> Int { seek(to: time, pass: pass, exact: true) }

    private func seek(to time: MediaTime, pass: Int, exact: Bool) -> Int {
        // Queues first, then the threads: whatever the demuxer or a decoder
        // still produces for the old serial is refused by the queues, and
        // nothing for the new serial can arrive before they accept it.
        let serial = control.nextSerial
        frames.flush(serial: serial)
        audioRing.flush(serial: serial)
        videoPackets.flush(serial: serial)
        audioPackets.flush(serial: serial)
        loopPasses.reset(serial: serial, interval: control.pendingLoopInterval)
        control.beginSeek(serial: serial, to: time, pass: pass, exact: exact)
        // Backward, every seek is a step: the prefetcher decodes before it.
        if control.playsBackward && exact { prefetcher?.follow(time) }
        return serial
    }

    var selectedAudioTrack: Int? { control.audioIndex }

    /// Switches the audio track while playing: the picture goes on untouched.
    /// The old track plays on for what is already queued (at most 0.1 s,
    /// faded out over its last 5 ms); the new one is read again from there
    /// and fades in, so nothing clicks and the clock never jumps.
    func selectAudioTrack(_ id: Int, playhead: MediaTime) -> Bool {
        guard audioStreams[id] != nil, !control.isAborted else { return false }
        if control.audioIndex == id { return true }
        let serial = control.nextSerial
        let rate = audioRing.format.sampleRate
        let keptEnd = audioRing.flush(serial: serial, keeping: rate / 10, fadeOut: rate / 200)
        audioPackets.flush(serial: serial)
        let time = max(keptEnd ?? playhead, .zero)
        let (pass, passStart) = loopPasses.switchAudio(serial: serial, at: time)
        control.beginAudioSwitch(serial: serial, to: id, at: time, pass: pass, passOffset: passStart)
        return true
    }

    /// The size pictures are converted to (the area they are drawn in).
    func setDisplaySize(width: Int, height: Int) {
        control.setDisplaySize(width: width, height: height)
    }

    /// Frames seeks and steps took from the decoded-frame cache.
    var framesFromCache: Int { control.framesFromCache }

    func setKeepsFramesForSteps(_ keeps: Bool) {
        if control.keepsFramesForSteps != keeps { control.keepsFramesForSteps = keeps }
    }

    /// Backward, the prefetcher decodes ahead of the steps; forward or
    /// paused it stops (what it decoded stays in the cache).
    func setPlaysBackward(_ backward: Bool) {
        guard control.playsBackward != backward else { return }
        control.playsBackward = backward
        frameCache.setPlayingBackward(backward)
        if backward && control.activeLoopInterval == nil && !control.isAborted {
            prefetcher?.start()
        } else {
            prefetcher?.stop()
        }
    }

    /// Whether the frames before a backward step's at `time` are decoded
    /// ahead (`BackwardPrefetcher.holdsFrames`).
    func isDecodedAhead(ofBackwardStepAt time: MediaTime) -> Bool {
        prefetcher?.holdsFrames(before: time) ?? true
    }

    /// Windows of frames the backward prefetcher decoded (tests).
    var backwardWindowsDecoded: Int { prefetcher?.windowsDecoded ?? 0 }

    func setPicturesSeen(_ seen: Bool) {
        if control.arePicturesSeen != seen { control.arePicturesSeen = seen }
    }

    /// Deinterlacing from the next decoded frame on (`d`, the `deinterlace` property).
    func setDeinterlace(_ mode: DeinterlaceMode) {
        control.deinterlace = mode
    }

    var deinterlace: DeinterlaceMode { control.deinterlace }

    /// `hwdec` from the next video packet on.
    func setHardwareDecoding(_ choice: HardwareDecoding) {
        control.hardwareDecoding = choice
    }

    var hardwareDecoding: HardwareDecoding { control.hardwareDecoding }
    var hardwareDecodingInUse: String { control.hardwareInUse }

    /// How many passes to play in all (nil: forever). Looping seeks the same
    /// input back to zero: no copy, no reopen, one continuous timeline. A
    /// live stream has no end to loop from: it plays on, and says so once.
    func setPasses(_ passes: Int?) {
        if info.isLive && passes != 1 {
            control.setPasses(1)
            // Said when playing (the item may be setting this under its lock).
            liveLoopAsked.store(true, ordering: .relaxed)
            if hasStarted.load(ordering: .relaxed) { sayLiveCannotLoop() }
            return
        }
        control.setPasses(passes)
    }

    private func sayLiveCannotLoop() {
        guard liveLoopAsked.load(ordering: .relaxed), !saidLiveCannotLoop.exchange(true, ordering: .relaxed) else { return }
        warningSink("a live stream cannot loop (its playlist has no end): playing it live")
    }

    func setSpeed(_ speed: PlaybackSpeed) { control.speed = speed }

    func setLoopInterval(_ interval: LoopInterval?) {
        var interval = interval
        if let loop = interval, let duration = info.duration, loop.b > duration {
            // B past the end loops at the end (a pass would otherwise be made up with silence).
            interval = loop.a < duration ? LoopInterval(loop.a, duration) : nil
        }
        let started = hasStarted.load(ordering: .relaxed)
        control.setLoopInterval(interval, now: !started)
        if !started { loopPasses.reset(serial: 0, interval: interval) }
    }

    func passOrigin(_ index: Int) -> MediaTime { loopPasses.origin(ofPass: index) }

    var passStarts: [MediaTime] { loopPasses.starts }

    /// Seconds of compressed media queued ahead of each decoder (video, audio).
    var queuedSeconds: (video: Double?, audio: Double?) {
        func seconds(_ stream: OpenedStream?, _ queue: PacketQueue) -> Double? {
            stream.map { MediaTime(queue.fill.ticks, $0.timeBase).seconds }
        }
        return (seconds(video, videoPackets), seconds(audio, audioPackets))
    }
}
