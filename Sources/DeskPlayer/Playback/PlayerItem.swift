// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// One piece of media to play (AVPlayerItem). It opens and probes on a
/// background thread, so the UI never waits, and moves from `.unknown` to
/// `.readyToPlay` or `.failed`. Once ready it buffers ahead on its own
/// threads; a player consumes what it buffers. Thread-safe (Mutex).
package final class PlayerItem: Sendable {
    package enum Status: Sendable, Equatable {
        case unknown
        case readyToPlay
        case failed(MediaError)
    }

    private struct State {
        var status: Status = .unknown
        var pipeline: (any ItemSource)?
        var warnings: [String] = []
        /// Subtitle files being read (sub-add), and how many were read.
        var subtitleLoads = (reading: 0, read: 0)
        var cancelled = false
        var passes: Int? = 1
        var speed = PlaybackSpeed.normal
        var loopInterval: LoopInterval?
        var outputSizing: OutputSizing?
        var variant: HLSVariant?
        var cache: SegmentCache?
        var cover: CoverPicture?
        /// What the item found when it opened; kept once it is cancelled
        /// (the report describes an item after it played).
        var info: MediaInfo?
        var decodeErrors: DecodeErrors?
    }

    package let location: MediaLocation
    /// The name the user gave (for messages).
    package let name: String
    let outputFormat: AudioFormat
    let createdAt: UInt64
    private let interrupt = InterruptFlag()
    /// Signalled when opening ends (ready or failed) or the item is cancelled.
    let loaded = WakeSignal()
    private let state = Mutex(State())
    package let preferences: ItemPreferences
    /// Where playback begins (`--start`, a resumed position); with
    /// `startPercent`, that share of the length once it is known.
    var startTime: MediaTime { startTime(of: info?.duration) }
    /// The start time for an item of this length (nil: not known yet).
    private func startTime(of duration: MediaTime?) -> MediaTime {
        guard let startPercent, let duration else { return fixedStart }
        return MediaTime(seconds: duration.seconds * min(max(startPercent, 0), 100) / 100)
    }
    private let fixedStart: MediaTime
    /// Where playback begins as a share of the length (mpv's `start=40%`).
    let startPercent: Double?
    /// Set for an item that plays a composition rather than a file.
    package let composition: Composition?

    package init(_ name: String, preferences: ItemPreferences = ItemPreferences(), start: MediaTime = .zero,
         startPercent: Double? = nil, outputFormat: AudioFormat = .device) {
        self.name = name
        location = MediaLocation(name)
        self.preferences = preferences
        self.outputFormat = outputFormat
        fixedStart = start
        self.startPercent = startPercent
        composition = nil
        createdAt = HostTime.now()
    }

    /// An item that plays `composition` (its sources were checked when it was built).
    package init(composition: Composition, name: String, start: MediaTime = .zero, outputFormat: AudioFormat = .device) {
        self.name = name
        location = MediaLocation(name)
        preferences = ItemPreferences()
        self.outputFormat = outputFormat
        fixedStart = start
        startPercent = nil
        self.composition = composition
        createdAt = HostTime.now()
    }

    /// A fresh item like this one, from its beginning (to replay it).
    package func reopened() -> PlayerItem {
        if let composition { return PlayerItem(composition: composition, name: name, outputFormat: outputFormat) }
        return PlayerItem(name, preferences: preferences, outputFormat: outputFormat)
    }

    /// Degrees the video turns on top of the file's own rotation (nil: the
    /// file's ignored too), as `--video-rotate` set it for this item.
    package var extraRotation: Int? { preferences.video.extraRotation }

    /// This file again, turned another way, from `start`: how a file turns
    /// is settled when it opens (`video-rotate` while it plays). Nil for a composition.
    package func rotated(_ extraRotation: Int?, from start: MediaTime) -> PlayerItem? {
        guard composition == nil else { return nil }
        var turned = preferences
        turned.video.extraRotation = extraRotation
        return PlayerItem(name, preferences: turned, start: start, outputFormat: outputFormat)
    }

    deinit {
        interrupt.set()
        state.withLock { $0.pipeline }?.stop()
    }

    package var status: Status { state.withLock { $0.status } }
    package var error: MediaError? {
        if case .failed(let e) = status { return e }
        return nil
    }
    package var pipeline: (any ItemSource)? { state.withLock { $0.pipeline } }
    package var info: MediaInfo? { state.withLock { $0.info } }

    /// Starts recording the item's live input (a camera) to `url`, with a
    /// microphone's sound when `audio` (see `MicrophoneCapture`).
    package func record(to url: URL, audio: Bool = false) throws(MediaError) -> CameraRecorder {
        guard let pipeline = pipeline as? ItemPipeline else {
            throw MediaError(status == .readyToPlay ? "only a camera can be recorded" : "the camera is not open yet")
        }
        return try pipeline.record(to: url, audio: audio)
    }
    /// Packets FFmpeg refused and frames it concealed, so far (kept after the item ends).
    package var decodeErrors: Int { state.withLock { $0.decodeErrors?.total } ?? 0 }
    package var duration: MediaTime? { info?.duration }

    /// Non-fatal problems met so far (a stream that cannot be decoded, a
    /// damaged tail); each is returned once.
    func takeWarnings() -> [String] {
        state.withLock { s in
            defer { s.warnings.removeAll() }
            return s.warnings
        }
    }

    /// How many times to play the item in all (nil: loop forever). Set it
    /// before the item is read to its end; later changes apply to the next seek.
    func setPasses(_ passes: Int?) {
        let p = state.withLock { s in
            s.passes = passes
            return s.pipeline
        }
        p?.setPasses(passes)
    }

    /// How fast its audio is made (the player's speed); kept for a pipeline still opening.
    func setSpeed(_ speed: PlaybackSpeed) {
        let p = state.withLock { s in
            s.speed = speed
            return s.pipeline
        }
        p?.setSpeed(speed)
    }

    /// The A-B loop (kept for a pipeline still opening); it takes effect with the next seek.
    func setLoopInterval(_ interval: LoopInterval?) {
        let p = state.withLock { s in
            s.loopInterval = interval
            return s.pipeline
        }
        p?.setLoopInterval(interval)
    }

    /// The output's picture size for this item's video (the player's
    /// setting): applied as soon as the video's size is known, before its first picture.
    func setOutputSizing(_ sizing: OutputSizing?) {
        let p = state.withLock { s in
            s.outputSizing = sizing
            return s.pipeline
        }
        if let p, let sizing { PlayerItem.apply(sizing, to: p) }
    }

    private static func apply(_ sizing: OutputSizing, to pipeline: any ItemSource) {
        let info = pipeline.info
        guard info.hasVideo, let size = sizing(info.displayWidth, info.displayHeight) else { return }
        pipeline.setDisplaySize(width: size.width, height: size.height)
    }

    /// Starts opening in the background (idempotent).
    func load() {
        let start = state.withLock { s -> Bool in
            guard case .unknown = s.status, s.pipeline == nil, !s.cancelled else { return false }
            s.cancelled = false
            return true
        }
        guard start else { return }
        // The thread holds the item only while opening, and lets go before
        // its `loaded` signal: a waiter then sees the item's other holders.
        let payload = ThreadPayload(self), loaded = self.loaded
        let thread = Thread {
            payload.take()?.open()
            loaded.signal()
        }
        thread.name = "deskplayer.open"
        thread.start()
    }

    /// Waits for the opening to finish (tests and command-line tools).
    @discardableResult
    func waitUntilLoaded(timeout: Double = 10) -> Status {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let seen = loaded.generation
            if status != .unknown { return status }
            loaded.wait(after: seen, timeout: max(0, deadline.timeIntervalSinceNow))
        }
        return status
    }

    /// Stops loading and buffering; frees the decoders and buffers.
    func cancel() {
        interrupt.set()
        let p = state.withLock { s -> (any ItemSource)? in
            s.cancelled = true
            defer { s.pipeline = nil }
            return s.pipeline
        }
        p?.stop()
        loaded.signal()
    }

    private func addWarning(_ text: String) {
        state.withLock { $0.warnings.append(text) }
    }

    private func open() {
        do {
            let pipeline: any ItemSource
            if let composition {
                pipeline = CompositionPipeline(composition, format: outputFormat,
                                               warning: { [weak self] text in self?.addWarning(text) })
            } else {
                pipeline = try openMedia()
            }
            // From the pipeline's length: `info` is published under the lock below.
            let start = startTime(of: pipeline.info.duration)
            let accepted = state.withLock { s -> Bool in
                guard !s.cancelled else { return false }
                pipeline.setPasses(s.passes)
                pipeline.setSpeed(s.speed)
                pipeline.setLoopInterval(s.loopInterval)
                if let sizing = s.outputSizing { PlayerItem.apply(sizing, to: pipeline) }
                // The start time is sought before the pipeline is published: a
                // player that looked in between followed the serial before the
                // seek and threw away every frame of it (a comparison's tile
                // with `--start` stayed without a picture on a loaded machine).
                if start > .zero { pipeline.seek(to: start, pass: 0) }
                s.pipeline = pipeline
                s.info = pipeline.info
                s.decodeErrors = pipeline.decodeErrors
                s.status = .readyToPlay
                return true
            }
            if accepted {
                pipeline.start()
                decodeCover(of: pipeline.info)
            }
        } catch {
            state.withLock { $0.status = .failed(error) }
        }
    }

    /// The media's pipeline. An HLS master playlist's variants are tried
    /// best first: one that fails (a missing segment, a codec not
    /// installed) gives way to the next, said once; when none plays, the
    /// first one's error is the item's.
    private func openMedia() throws(MediaError) -> any ItemSource {
        let choices = try MediaAsset.variantChoices(of: location, preferences: preferences, interrupt: interrupt)
        var firstFailure: (variant: HLSVariant, error: MediaError)?
        for choice in choices.isEmpty ? [nil] : choices.map(Optional.some) {
            do {
                let pipeline = try openMedia(choice)
                if let firstFailure, let choice {
                    addWarning("variant \(firstFailure.variant.label) cannot play: \(firstFailure.error); "
                               + "playing \(choice.variant.label)")
                }
                return pipeline
            } catch {
                if interrupt.isSet { throw error }
                if firstFailure == nil, let choice { firstFailure = (choice.variant, error) } else if choice == nil { throw error }
            }
        }
        if let firstFailure {
            state.withLock { $0.variant = firstFailure.variant }
            throw firstFailure.error
        }
        throw MediaError("the playlist has no variant")
    }

    /// The pipeline of `choice` (nil: the location itself). The variant and
    /// the cache are kept as soon as they are known: a stream that then
    /// fails still reports them.
    private func openMedia(_ choice: MediaAsset.HLSChoice?) throws(MediaError) -> any ItemSource {
        state.withLock { $0.variant = choice?.variant }
        let source = try MediaAsset.source(for: location, choice: choice, preferences: preferences)
        state.withLock { $0.cache = source.cache }
        let asset = try MediaAsset(source, of: location, interrupt: interrupt)
        return try asset.makePipeline(preferences: preferences, outputFormat: outputFormat,
                                      warning: { [weak self] text in self?.addWarning(text) })
    }

    /// The cover picture of an audio item, once decoded (nil: none, not
    /// yet, or it could not be decoded).
    package var cover: CoverPicture? { state.withLock { $0.cover } }

    /// Decodes an audio item's cover on the opening thread, after playback
    /// has started (a large picture never delays the sound). One that does
    /// not decode leaves the placeholder, and `-v` says why.
    private func decodeCover(of info: MediaInfo) {
        guard !info.hasVideo, let art = info.coverArt else { return }
        do {
            let picture = try CoverPicture(decoding: art)
            state.withLock { s in if !s.cancelled { s.cover = picture } }
        } catch {
            let source = art.path.map { DisplayText.shortName($0) } ?? "the picture it carries"
            FFmpegLog.noticeOnce("\(name): cover (\(source)) cannot be decoded: \(error); not shown")
        }
    }

    /// What the segment cache did: bytes held (of them in memory), hits, misses (nil without one).
    package var cacheCounters: (bytes: Int, memoryBytes: Int, hits: Int, misses: Int)? {
        state.withLock { $0.cache }.map { ($0.bytes, $0.memoryBytes, $0.hits, $0.misses) }
    }

    /// The most bytes a segment being read held to be kept (nil without a cache).
    package var cachePeakRecordingBytes: Int? { state.withLock { $0.cache }?.peakRecordingBytes }

    /// The segment cache of an HLS stream (its thumbnails read through it too).
    package var segmentCache: SegmentCache? { state.withLock { $0.cache } }

    /// The HLS variant playing (from a master playlist), if any.
    package var variant: HLSVariant? { state.withLock { $0.variant } }

    // MARK: Tracks

    /// Every track: the item's streams, then the subtitle files loaded with it.
    package var tracks: [MediaTrack] {
        guard let pipeline else { return [] }
        return pipeline.tracks + (pipeline.subtitles?.trackList.filter { $0.externalPath != nil } ?? [])
    }

    package var selectedAudioTrack: Int? { pipeline?.selectedAudioTrack }

    package var selectedSubtitleTrack: Int? { pipeline?.subtitles?.selected }

    /// Shows subtitle track `id` (nil: none). False when there is no such track.
    @discardableResult
    package func selectSubtitleTrack(_ id: Int?) -> Bool {
        guard let subtitles = pipeline?.subtitles else { return id == nil }
        if let id, !subtitles.hasTrack(id) { return false }
        subtitles.selected = id
        return true
    }

    /// Seconds subtitles are shown later than their timestamps (mpv's sub-delay).
    package var subtitleDelay: Double {
        get { pipeline?.subtitles?.delay ?? 0 }
        set { pipeline?.subtitles?.delay = newValue }
    }

    package var subtitlesVisible: Bool {
        get { pipeline?.subtitles?.isVisible ?? true }
        set { pipeline?.subtitles?.isVisible = newValue }
    }

    /// Loads a subtitle file in the background and shows it once read; a
    /// file that cannot be read is reported as a warning, playback goes on.
    /// Subtitle files being read, and how many were read: a paused player
    /// draws its picture again when one arrives (its lines may show on it).
    package var subtitleLoads: (reading: Int, read: Int) { state.withLock { $0.subtitleLoads } }

    package func addSubtitleFile(_ path: String) {
        guard let subtitles = pipeline?.subtitles, let pipeline else {
            addWarning("subtitles \((path as NSString).lastPathComponent): the item has no video to show them on")
            return
        }
        state.withLock { $0.subtitleLoads.reading += 1 }
        let thread = Thread { [self] in
            defer { state.withLock { $0.subtitleLoads = ($0.subtitleLoads.reading - 1, $0.subtitleLoads.read + 1) } }
            let id = pipeline.tracks.count + 1000 + subtitles.trackList.count
            do {
                let track = try SubtitleFile.load(path, id: id, into: subtitles)
                subtitles.selected = track.id
            } catch {
                addWarning("subtitles \((path as NSString).lastPathComponent): \(error)")
            }
        }
        thread.name = "deskplayer.subtitles"
        thread.start()
    }
}
