import CFFmpeg
import Foundation
import Synchronization

/// One piece of media to play (AVPlayerItem). It opens and probes on a
/// background thread, so the UI never waits, and moves from `.unknown` to
/// `.readyToPlay` or `.failed`. Once ready it buffers ahead on its own
/// threads; a player consumes what it buffers. Thread-safe (Mutex).
final class PlayerItem: Sendable {
    enum Status: Sendable, Equatable {
        case unknown
        case readyToPlay
        case failed(MediaError)
    }

    private struct State {
        var status: Status = .unknown
        var pipeline: (any ItemSource)?
        var warnings: [String] = []
        var cancelled = false
        var passes: Int? = 1
        var variant: HLSVariant?
        var cache: SegmentCache?
    }

    let location: MediaLocation
    /// The name the user gave (for messages).
    let name: String
    let outputFormat: AudioFormat
    let createdAt: UInt64
    private let interrupt = InterruptFlag()
    private let state = Mutex(State())
    private let preferences: Mutex<ItemPreferences>
    /// Where playback begins (`--start`, a resumed position).
    let startTime: MediaTime
    /// Set for an item that plays a composition rather than a file.
    let composition: Composition?

    init(_ name: String, preferences: ItemPreferences = ItemPreferences(), start: MediaTime = .zero,
         outputFormat: AudioFormat = .device) {
        self.name = name
        location = MediaLocation(name)
        self.preferences = Mutex(preferences)
        self.outputFormat = outputFormat
        startTime = start
        composition = nil
        createdAt = HostTime.now()
    }

    /// An item that plays `composition` (its sources were checked when it was built).
    init(composition: Composition, name: String, start: MediaTime = .zero, outputFormat: AudioFormat = .device) {
        self.name = name
        location = MediaLocation(name)
        preferences = Mutex(ItemPreferences())
        self.outputFormat = outputFormat
        startTime = start
        self.composition = composition
        createdAt = HostTime.now()
    }

    /// A fresh item like this one, from its beginning (to replay it).
    func reopened() -> PlayerItem {
        if let composition { return PlayerItem(composition: composition, name: name, outputFormat: outputFormat) }
        return PlayerItem(name, preferences: preferences.withLock { $0 }, outputFormat: outputFormat)
    }

    deinit {
        interrupt.set()
        state.withLock { $0.pipeline }?.stop()
    }

    var status: Status { state.withLock { $0.status } }
    var error: MediaError? {
        if case .failed(let e) = status { return e }
        return nil
    }
    var pipeline: (any ItemSource)? { state.withLock { $0.pipeline } }
    var info: MediaInfo? { pipeline?.info }
    var duration: MediaTime? { info?.duration }

    /// Non-fatal problems met so far (a stream that cannot be decoded, a
    /// damaged tail); each is returned once.
    func takeWarnings() -> [String] {
        state.withLock { s in
            defer { s.warnings.removeAll() }
            return s.warnings
        }
    }

    var preferredForwardBufferDuration: Double {
        get { preferences.withLock { $0.forwardBufferDuration } }
        set {
            let p = preferences.withLock { $0.forwardBufferDuration = newValue; return $0 }
            pipeline?.setPreferences(p)
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

    /// Starts opening in the background (idempotent).
    func load() {
        let start = state.withLock { s -> Bool in
            guard case .unknown = s.status, s.pipeline == nil, !s.cancelled else { return false }
            s.cancelled = false
            return true
        }
        guard start else { return }
        let thread = Thread { [self] in self.open() }
        thread.name = "deskplayer.open"
        thread.start()
    }

    /// Waits for the opening to finish (tests and command-line tools).
    @discardableResult
    func waitUntilLoaded(timeout: Double = 10) -> Status {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if status != .unknown { return status }
            Thread.sleep(forTimeInterval: 0.002)
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
                let (source, master) = try chooseVariant()
                pipeline = try makePipeline(try MediaInput(location: source, interrupt: interrupt,
                                                           cache: segmentCache(for: source), playlist: master))
            }
            let accepted = state.withLock { s -> Bool in
                guard !s.cancelled else { return false }
                pipeline.setPasses(s.passes)
                s.pipeline = pipeline
                s.status = .readyToPlay
                return true
            }
            if accepted { pipeline.start(at: startTime) }
        } catch {
            state.withLock { $0.status = .failed(error) }
        }
    }

    /// A segment cache for an HLS stream: its later loop passes come from
    /// memory. Sized by `--stream-cache-size`, else for three minutes of the
    /// variant (64 MB when its bit rate is unknown), at most 512 MB.
    private func segmentCache(for source: MediaLocation) -> SegmentCache? {
        guard source.isNetworkPlaylist else { return nil }
        let bytes = preferences.withLock { $0.streamCacheBytes }
            ?? variant.map { min($0.bandwidth / 8 * 180, 512 << 20) } ?? (64 << 20)
        let cache = SegmentCache(limit: max(bytes, 0))
        state.withLock { $0.cache = cache }
        return cache
    }

    /// What the segment cache did: bytes held (of them in memory), hits, misses (nil without one).
    var cacheCounters: (bytes: Int, memoryBytes: Int, hits: Int, misses: Int)? {
        state.withLock { $0.cache }.map { ($0.bytes, $0.memoryBytes, $0.hits, $0.misses) }
    }

    /// The HLS variant playing (from a master playlist), if any.
    var variant: HLSVariant? { state.withLock { $0.variant } }

    /// For an HLS master playlist, the variant that fits the preferred
    /// resolution and bit rate; any other location as it is. A variant whose
    /// audio is a separate rendition is opened through a master playlist cut
    /// down to it and its one rendition (`--alang`, else the default), which
    /// the segment cache serves in place of the real one.
    private func chooseVariant() throws(MediaError) -> (MediaLocation, master: String?) {
        guard location.isNetworkPlaylist else { return (location, nil) }
        let text = String(decoding: try TextResource(location, interrupt: interrupt).readAll(), as: UTF8.self)
        let variants = HLSMaster.variants(in: text, base: location.url)
        let p = preferences.withLock { $0 }
        guard let chosen = HLSMaster.choose(variants, maxWidth: p.maxWidth, maxHeight: p.maxHeight,
                                            maxBitrate: p.maxBitrate) else { return (location, nil) }
        state.withLock { $0.variant = chosen }
        let audio = HLSMaster.chooseAudio(HLSMaster.audioRenditions(in: text, base: location.url),
                                          group: chosen.audioGroup, languages: p.audioLanguages)
        // A network playlist may only lead to network media.
        for uri in [chosen.uri, audio?.uri].compactMap({ $0 }) where !MediaLocation(uri).isNetwork {
            throw MediaError("the playlist refers to a local file: \(uri)")
        }
        if let audio { return (location, HLSMaster.playlist(for: chosen, audio: audio)) }
        return (MediaLocation(chosen.uri), nil)
    }

    private func makePipeline(_ input: MediaInput) throws(MediaError) -> ItemPipeline {
        var info = MediaInfo()
        info.formatName = input.formatName
        info.tags = input.tags
        info.coverArt = input.coverArt
        let p = preferences.withLock { $0 }
        var problems: [String] = []
        var video: ItemPipeline.Stream?
        var audio: ItemPipeline.Stream?
        let tracks = (0..<input.streamCount).compactMap { i in input.stream(i).map { MediaTrack(stream: $0, id: i) } }

        if p.decodesVideo, let index = input.bestStream(AVMEDIA_TYPE_VIDEO),
           let stream = input.stream(index),
           stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 {
            do {
                // Beyond what any decoder or texture handles: a damaged header, not a picture.
                let w = stream.pointee.codecpar.pointee.width, h = stream.pointee.codecpar.pointee.height
                guard w <= 16384 && h <= 16384 else { throw MediaError("video size \(w)x\(h) is too large to play") }
                let decoder = try Decoder(stream: stream, threads: Int32(p.videoDecoderThreads))
                video = .init(index: index, timeBase: stream.pointee.time_base, decoder: decoder)
                describeVideo(stream, decoder, into: &info)
            } catch {
                problems.append("video: \(error)")
            }
        }
        // The audio track: the preferred language, else the file's default, else FFmpeg's pick.
        let audioTracks = tracks.filter { $0.kind == .audio }
        let chosenAudio = LanguageCode.first(audioTracks, in: p.audioLanguages)?.id
            ?? audioTracks.first(where: \.isDefault)?.id ?? input.bestStream(AVMEDIA_TYPE_AUDIO)
        var otherAudio: [ItemPipeline.Stream] = []
        for track in audioTracks {
            guard let stream = input.stream(track.id) else { continue }
            do {
                let rate = stream.pointee.codecpar.pointee.sample_rate
                guard rate > 0 && rate <= 768_000 else { throw MediaError("unsupported sample rate \(rate) Hz") }
                let decoder = try Decoder(stream: stream, threads: 1)
                let opened = ItemPipeline.Stream(index: track.id, timeBase: stream.pointee.time_base, decoder: decoder)
                if track.id == chosenAudio {
                    audio = opened
                } else {
                    otherAudio.append(opened)
                }
            } catch {
                // Another track may still play; only the chosen one's failure is said.
                if track.id == chosenAudio { problems.append("audio: \(error)") }
            }
        }
        if audio == nil, !otherAudio.isEmpty {
            // The chosen track cannot play: the next one that can.
            audio = otherAudio.removeFirst()
        }
        if let decoder = audio?.decoder {
            info.audioCodec = decoder.codecName
            info.audioSampleRate = Int(decoder.context.pointee.sample_rate)
            info.audioChannels = Int(decoder.context.pointee.ch_layout.nb_channels)
        }
        if video == nil && audio == nil {
            if problems.count == 1, let only = problems.first {
                throw MediaError(String(only.drop { $0 != " " }.dropFirst()))
            }
            throw MediaError(problems.isEmpty ? "no audio or video stream" : problems.joined(separator: "; "))
        }
        for problem in problems { addWarning("\(problem); playing the other stream") }
        if let d = input.durationMicroseconds { info.duration = MediaTime(microseconds: d) }
        let (subtitles, decoders) = video != nil ? openSubtitles(input, tracks: tracks, info: info, preferences: p) : (nil, [:])
        return ItemPipeline(input: input, info: info, video: video, audio: audio,
                            preferences: p, outputFormat: outputFormat, otherAudio: audio != nil ? otherAudio : [],
                            tracks: tracks, subtitles: subtitles, subtitleDecoders: decoders,
                            warning: { [weak self] text in self?.addWarning(text) })
    }

    /// The item's subtitle tracks: its own streams (decoded as they are
    /// read), the files given and those found beside it; one is selected as
    /// the preferences and the file's flags say.
    private func openSubtitles(_ input: MediaInput, tracks: [MediaTrack], info: MediaInfo,
                               preferences p: ItemPreferences) -> (SubtitleTracks, [Int: Decoder]) {
        // Fonts the file carries (Matroska attachments), for its ASS styles.
        let fonts = tracks.filter { $0.kind == .attachment }.compactMap { track -> (name: String, data: [UInt8])? in
            guard let stream = input.stream(track.id), let data = stream.pointee.codecpar.pointee.extradata,
                  stream.pointee.codecpar.pointee.extradata_size > 0 else { return nil }
            let bytes = Array(UnsafeBufferPointer(start: data, count: Int(stream.pointee.codecpar.pointee.extradata_size)))
            return (track.title ?? "font\(track.id)", bytes)
        }
        let subtitles = SubtitleTracks(videoWidth: info.displayWidth, videoHeight: info.displayHeight, fonts: fonts)
        var decoders: [Int: Decoder] = [:]
        for track in tracks where track.kind == .subtitle {
            guard let stream = input.stream(track.id) else { continue }
            do {
                let decoder = try Decoder(stream: stream, threads: 1)
                if subtitles.addTrack(track, header: decoder.subtitleHeader, canvas: decoder.subtitleCanvas) {
                    decoders[track.id] = decoder
                }
            } catch {
                addWarning("subtitle track \(track.id): \(error)")
            }
        }
        var given: [MediaTrack] = [], found: [MediaTrack] = []
        let beside = p.autoloadSubtitles && !location.isNetwork ? SubtitleFile.siblings(of: location.url) : []
        for (path, explicit) in p.subtitleFiles.map({ ($0, true) }) + beside.map({ ($0, false) }) {
            let id = input.streamCount + given.count + found.count
            do {
                let track = try SubtitleFile.load(path, id: id, into: subtitles)
                if explicit { given.append(track) } else { found.append(track) }
            } catch {
                addWarning("subtitles \((path as NSString).lastPathComponent): \(error)")
            }
        }
        let all = subtitles.trackList
        subtitles.selected = given.first?.id
            ?? LanguageCode.first(all, in: p.subtitleLanguages)?.id
            ?? all.first(where: { $0.externalPath == nil && ($0.isForced || $0.isDefault) })?.id
            ?? found.first?.id
        return (subtitles, decoders)
    }

    // MARK: Tracks

    /// Every track: the item's streams, then the subtitle files loaded with it.
    var tracks: [MediaTrack] {
        guard let pipeline else { return [] }
        return pipeline.tracks + (pipeline.subtitles?.trackList.filter { $0.externalPath != nil } ?? [])
    }

    var selectedAudioTrack: Int? { pipeline?.selectedAudioTrack }

    var selectedSubtitleTrack: Int? { pipeline?.subtitles?.selected }

    /// Shows subtitle track `id` (nil: none). False when there is no such track.
    @discardableResult
    func selectSubtitleTrack(_ id: Int?) -> Bool {
        guard let subtitles = pipeline?.subtitles else { return id == nil }
        if let id, !subtitles.hasTrack(id) { return false }
        subtitles.selected = id
        return true
    }

    /// Seconds subtitles are shown later than their timestamps (mpv's sub-delay).
    var subtitleDelay: Double {
        get { pipeline?.subtitles?.delay ?? 0 }
        set { pipeline?.subtitles?.delay = newValue }
    }

    var subtitlesVisible: Bool {
        get { pipeline?.subtitles?.isVisible ?? true }
        set { pipeline?.subtitles?.isVisible = newValue }
    }

    /// Loads a subtitle file in the background and shows it once read; a
    /// file that cannot be read is reported as a warning, playback goes on.
    func addSubtitleFile(_ path: String) {
        guard let subtitles = pipeline?.subtitles, let pipeline else {
            addWarning("subtitles \((path as NSString).lastPathComponent): the item has no video to show them on")
            return
        }
        let thread = Thread { [self] in
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

    private func describeVideo(_ stream: UnsafeMutablePointer<AVStream>, _ decoder: Decoder, into info: inout MediaInfo) {
        let ctx = decoder.context.pointee
        info.videoCodec = decoder.codecName
        info.videoWidth = Int(ctx.width)
        info.videoHeight = Int(ctx.height)
        var sar = stream.pointee.sample_aspect_ratio
        if sar.num <= 0 || sar.den <= 0 { sar = ctx.sample_aspect_ratio }
        let aspect = sar.num > 0 && sar.den > 0 ? Double(sar.num) / Double(sar.den) : 1
        info.displayWidth = max(1, Int((Double(ctx.width) * aspect).rounded()))
        info.displayHeight = max(1, Int(ctx.height))
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        if rate.num > 0 && rate.den > 0 { info.frameRate = Double(rate.num) / Double(rate.den) }
    }
}
