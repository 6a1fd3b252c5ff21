// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media

/// A stream of the input with its decoder opened, as the pipeline plays it.
struct OpenedStream: Sendable {
    let index: Int
    let timeBase: AVRational
    let decoder: Decoder
    /// Where the stream really ends in container time (its start plus its
    /// duration), when the container says; read when the item opens.
    let end: MediaTime?
}

/// An opened and probed piece of media (AVAsset): which HLS variant and
/// rendition to read, the segment cache for it, the input itself, and the
/// choice of streams, decoders and subtitles an item plays. Every raw read
/// of the input's AVStreams (starts, ends, sizes, font attachments) is here.
/// Used on the thread that opens the item (or takes a screenshot).
package final class MediaAsset {
    /// Where to read from: the location, or an HLS variant's playlist (or a
    /// master playlist of a variant and its one audio rendition, given to
    /// FFmpeg as a data: URL), and the segment cache for a network stream.
    struct Source {
        let location: MediaLocation
        let playlist: String?
        let cache: SegmentCache?
    }

    /// For an HLS master playlist, the variant chosen and its audio rendition.
    struct HLSChoice {
        let variant: HLSVariant
        let audio: HLSRendition?
    }

    /// The location as the user gave it.
    package let location: MediaLocation
    package let input: MediaInput

    init(_ source: Source, of location: MediaLocation, interrupt: InterruptFlag) throws(MediaError) {
        self.location = location
        input = try MediaInput(location: source.location, interrupt: interrupt, cache: source.cache,
                               playlist: source.playlist)
    }

    /// An input already opened (a stream segment read into memory), standing for `location`.
    package init(input: MediaInput, of location: MediaLocation) {
        self.location = location
        self.input = input
    }

    /// A local file or a plain URL, as it is (no variant choice, no cache).
    package convenience init(opening location: MediaLocation) throws(MediaError) {
        try self.init(Source(location: location, playlist: nil, cache: nil), of: location, interrupt: InterruptFlag())
    }

    // MARK: HLS

    /// For an HLS master playlist, every variant with the audio rendition
    /// it plays with (`--alang`, else the default), best first: the one
    /// that fits the preferred resolution and bit rate, then those to fall
    /// back to; empty for any other location. A local master playlist is
    /// chosen from the same way (a variant missing a segment gives way to
    /// the next), unless its audio comes as separate renditions, which
    /// FFmpeg's HLS demuxer pairs itself from a file.
    static func variantChoices(of location: MediaLocation, preferences p: ItemPreferences,
                               interrupt: InterruptFlag) throws(MediaError) -> [HLSChoice] {
        guard MediaLocation.isPlaylist(location.url) else { return [] }
        let text = String(decoding: try WholeResource(location, interrupt: interrupt).readAll(), as: UTF8.self)
        let variants = HLSMaster.variants(in: text, base: location.url)
        let renditions = HLSMaster.audioRenditions(in: text, base: location.url)
        if !location.isNetwork && (!renditions.isEmpty || variants.contains { $0.audioGroup != nil }) { return [] }
        return HLSMaster.ranked(variants, maxWidth: p.maxWidth, maxHeight: p.maxHeight, maxBitrate: p.maxBitrate).map {
            HLSChoice(variant: $0, audio: HLSMaster.chooseAudio(renditions, group: $0.audioGroup, languages: p.audioLanguages))
        }
    }

    /// What to open for `location` and its HLS choice. A variant whose audio
    /// is a separate rendition is opened through a master playlist cut down
    /// to the two, which the segment cache serves in place of the real one.
    static func source(for location: MediaLocation, choice: HLSChoice?,
                       preferences: ItemPreferences) throws(MediaError) -> Source {
        var opened = location, playlist: String?
        if let choice {
            // A network playlist may only lead to network media.
            for uri in [choice.variant.uri, choice.audio?.uri].compactMap({ $0 })
            where location.isNetwork && !MediaLocation(uri).isNetwork {
                throw MediaError("the playlist refers to a local file: \(uri)")
            }
            if let audio = choice.audio {
                playlist = HLSMaster.playlist(for: choice.variant, audio: audio)
            } else {
                opened = MediaLocation(choice.variant.uri)
            }
        }
        return Source(location: opened, playlist: playlist,
                      cache: segmentCache(for: opened, variant: choice?.variant, preferences: preferences))
    }

    /// A segment cache for an HLS stream: its later loop passes come from
    /// memory. Sized by `--stream-cache-size`, else for three minutes of the
    /// variant (64 MB when its bit rate is unknown), at most 512 MB.
    private static func segmentCache(for source: MediaLocation, variant: HLSVariant?,
                                     preferences: ItemPreferences) -> SegmentCache? {
        guard source.isNetworkPlaylist else { return nil }
        let bytes = preferences.streamCacheBytes
            ?? variant.map { min($0.bandwidth / 8 * 180, 512 << 20) } ?? (64 << 20)  // bandwidth is bounded (HLSMaster)
        return SegmentCache(limit: max(bytes, 0))
    }

    // MARK: Raw stream reads

    /// Where stream `index` starts, in its own time base (nil: unknown).
    func start(ofStream index: Int) -> MediaTime? {
        guard let s = input.stream(index), s.pointee.start_time != DP_AV_NOPTS_VALUE else { return nil }
        return MediaTime(s.pointee.start_time, s.pointee.time_base)
    }

    /// Where stream `index` ends in container time, when its duration is known.
    func end(ofStream index: Int) -> MediaTime? {
        guard let s = input.stream(index) else { return nil }
        let start = s.pointee.start_time == DP_AV_NOPTS_VALUE ? 0 : s.pointee.start_time
        guard s.pointee.duration != DP_AV_NOPTS_VALUE, s.pointee.duration > 0 else { return nil }
        // A start and a duration near Int64's ends (a hostile header) have no end we can know.
        return ContainerMath.sum(start, s.pointee.duration).map { MediaTime($0, s.pointee.time_base) }
    }

    /// What bounds a loop pass of this input playing `video` and `audio`
    /// (`trim`: what the user cuts from audio alone).
    func passBounds(video: Int?, audio: Int?, trim: SampleTrim? = nil) -> PassBounds {
        let bounds = PassBounds.of(format: input.formatName, hasVideo: video != nil, hasAudio: audio != nil, trim: trim)
        // Without a video start there is nothing to anchor to.
        return bounds == .video && video.flatMap(start(ofStream:)) == nil ? .streams : bounds
    }

    /// Subtracted from container timestamps so the item starts at zero. A
    /// pass bounded by its video starts at the first video frame (the audio
    /// before it is priming). Otherwise the earliest start of the streams
    /// played, exactly in their own time bases; never negative (AAC priming
    /// starts before zero on purpose).
    package func startOffset(video: Int?, audio: Int?, trim: SampleTrim? = nil) -> MediaTime {
        let earliest = max([video, audio].compactMap { $0.flatMap(start(ofStream:)) }.min() ?? .zero, .zero)
        switch passBounds(video: video, audio: audio, trim: trim) {
        case .video:
            return video.flatMap(start(ofStream:)) ?? earliest
        case .trimmed(let trim):
            // The audio's first sample plus the priming the user gave.
            let rate = audio.flatMap { input.stream($0)?.pointee.codecpar.pointee.sample_rate } ?? 0
            return earliest + MediaTime(value: Int64(trim.start), timescale: Int64(max(rate, 1)))
        case .streams:
            return earliest
        }
    }

    /// Fonts the file carries (Matroska attachments), for its ASS styles: at
    /// most `fontLimit` of them, each at most `fontBytesLimit` (a font is a
    /// few MB; a CJK one some 20), the rest skipped, said once.
    private func fonts(in tracks: [MediaTrack]) -> [(name: String, data: [UInt8])] {
        let attached = tracks.filter { $0.kind == .attachment }
        if attached.count > MediaAsset.fontLimit {
            FFmpegLog.noticeOnce("\(location.url): \(attached.count) attachments; the first \(MediaAsset.fontLimit) are read")
        }
        return attached.prefix(MediaAsset.fontLimit).compactMap { track -> (name: String, data: [UInt8])? in
            guard let stream = input.stream(track.id), let data = stream.pointee.codecpar.pointee.extradata,
                  stream.pointee.codecpar.pointee.extradata_size > 0 else { return nil }
            guard Int(stream.pointee.codecpar.pointee.extradata_size) <= MediaAsset.fontBytesLimit else {
                FFmpegLog.noticeOnce("\(location.url): attachment \(track.title ?? "\(track.id)") is larger than "
                                     + "\(MediaAsset.fontBytesLimit >> 20) MiB; not used as a font")
                return nil
            }
            let bytes = Array(UnsafeBufferPointer(start: data, count: Int(stream.pointee.codecpar.pointee.extradata_size)))
            return (track.title ?? "font\(track.id)", bytes)
        }
    }

    private func opened(_ index: Int, _ stream: UnsafeMutablePointer<AVStream>, _ decoder: Decoder) -> OpenedStream {
        // An estimated end is no end: trimmed to it, real samples go (MPEG-TS, ADTS).
        let end = PassBounds.streamDurationsAreEstimates(format: input.formatName) ? nil : end(ofStream: index)
        return OpenedStream(index: index, timeBase: stream.pointee.time_base, decoder: decoder, end: end)
    }

    // MARK: Choosing what plays

    /// The streams to play with their decoders, the subtitles, and the
    /// pipeline that plays them. A stream that cannot be decoded while
    /// another can is a warning; none that can is the error thrown.
    func makePipeline(preferences p: ItemPreferences, outputFormat: AudioFormat,
                      warning: @escaping @Sendable (String) -> Void) throws(MediaError) -> ItemPipeline {
        var info = MediaInfo()
        info.formatName = input.formatName
        info.tags = input.tags
        var problems: [String] = []
        let tracks = (0..<input.streamCount).compactMap { i in input.stream(i).map { MediaTrack(stream: $0, id: i) } }
        let video = openVideo(preferences: p, into: &info, problems: &problems, warning: warning)
        let (audio, otherAudio) = openAudio(tracks, preferences: p, problems: &problems)
        info.coverArt = coverArt(lookingBeside: video == nil && p.decodesVideo)  // not for a composition's sources
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
        for problem in problems { warning("\(problem); playing the other stream") }
        if let trim = p.audioTrim, passBounds(video: video?.index, audio: audio?.index, trim: trim) != .trimmed(trim) {
            warning("--audio-trim is for audio alone in MPEG-TS, HLS or ADTS, which cannot say their priming: not applied")
        }
        if let d = input.durationMicroseconds { info.duration = MediaTime(microseconds: d) }
        // A live HLS playlist (no EXT-X-ENDLIST) has no duration: FFmpeg sums only finished ones.
        info.isLive = input.formatName == "hls" && input.durationMicroseconds == nil
        // A camera, a screen or a lavfi graph plays as it comes: no end, no seeking.
        if input.isLiveDevice {
            info.isLive = true
            info.isDevice = true
            info.duration = nil
        }
        info.timelineStart = startOffset(video: video?.index, audio: audio?.index, trim: p.audioTrim)
        let (chapters, chapterProblem) = ChapterTable.make(from: input.chapters, offset: info.timelineStart,
                                                           duration: info.duration)
        info.chapters = chapters
        if let chapterProblem { warning(chapterProblem) }
        let (subtitles, decoders) = video != nil
            ? openSubtitles(tracks: tracks, info: info, preferences: p, warning: warning) : (nil, [:])
        return ItemPipeline(input: input, info: info, video: video, audio: audio, preferences: p,
                            outputFormat: outputFormat, otherAudio: otherAudio, tracks: tracks,
                            subtitles: subtitles, subtitleDecoders: decoders,
                            startOffset: info.timelineStart,
                            bounds: passBounds(video: video?.index, audio: audio?.index, trim: p.audioTrim),
                            warning: warning)
    }

    /// The cover the file carries, else (for local audio) an image beside
    /// it; a video's folder is not listed for one. One that is there but
    /// unusable is said under `-v` only: the placeholder shows instead,
    /// which is no loss to playback.
    private func coverArt(lookingBeside: Bool) -> CoverArt? {
        if let own = input.coverArt { return own }
        guard lookingBeside, !location.isNetwork else { return nil }
        return CoverArt.beside(location.url) { problem in FFmpegLog.noticeOnce("\(location.url): \(problem)") }
    }

    /// FFmpeg's pick of the video stream, unless it is a cover picture.
    private func openVideo(preferences p: ItemPreferences, into info: inout MediaInfo, problems: inout [String],
                           warning: (String) -> Void) -> OpenedStream? {
        guard p.decodesVideo, let index = input.bestStream(AVMEDIA_TYPE_VIDEO), let stream = input.stream(index),
              stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 else { return nil }
        do {
            // Beyond what any decoder or texture handles: a damaged header, not a picture.
            let w = stream.pointee.codecpar.pointee.width, h = stream.pointee.codecpar.pointee.height
            guard w <= 16384 && h <= 16384 else { throw MediaError("video size \(w)x\(h) is too large to play") }
            let decoder = try Decoder(stream: stream, threads: p.videoDecoderThreadCount,
                                      hardware: p.hardwareDecoding, fault: p.hardwareFault)
            if let problem = describeVideo(stream, decoder, into: &info) { warning(problem) }
            let turn = orientation(ofStream: index, settings: p.video)
            if let problem = turn.problem { warning(problem) }
            info.videoOrientation = turn.orientation
            let trc = stream.pointee.codecpar.pointee.color_trc
            info.videoIsHDR = trc == AVCOL_TRC_SMPTE2084 || trc == AVCOL_TRC_ARIB_STD_B67
            info.videoToneMapped = info.videoIsHDR && p.video.toneMapping != .no && VideoFilters.canToneMap
            if turn.orientation.swapsAxes { swap(&info.displayWidth, &info.displayHeight) }
            return opened(index, stream, decoder)
        } catch {
            problems.append("video: \(error)")
            return nil
        }
    }

    /// Every audio stream that can play gets a decoder (for track switches).
    /// The one played: the preferred language, else the file's default,
    /// else FFmpeg's pick; when that one cannot play, the next that can.
    private func openAudio(_ tracks: [MediaTrack], preferences p: ItemPreferences,
                           problems: inout [String]) -> (chosen: OpenedStream?, others: [OpenedStream]) {
        let audioTracks = tracks.filter { $0.kind == .audio }
        let chosenAudio = LanguageCode.first(audioTracks, in: p.audioLanguages)?.id
            ?? audioTracks.first(where: \.isDefault)?.id ?? input.bestStream(AVMEDIA_TYPE_AUDIO)
        var audio: OpenedStream?
        var others: [OpenedStream] = []
        for track in audioTracks {
            guard let stream = input.stream(track.id) else { continue }
            do {
                let rate = stream.pointee.codecpar.pointee.sample_rate
                guard rate > 0 && rate <= 768_000 else { throw MediaError("unsupported sample rate \(rate) Hz") }
                let decoder = try Decoder(stream: stream, threads: 1)
                if track.id == chosenAudio {
                    audio = opened(track.id, stream, decoder)
                } else {
                    others.append(opened(track.id, stream, decoder))
                }
            } catch {
                // Another track may still play; only the chosen one's failure is said.
                if track.id == chosenAudio { problems.append("audio: \(error)") }
            }
        }
        if audio == nil, !others.isEmpty {
            audio = others.removeFirst()
        }
        return (audio, others)
    }

    /// The item's subtitle tracks: its own streams (decoded as they are
    /// read), the files given and those found beside it; one is selected as
    /// the preferences and the file's flags say.
    private func openSubtitles(tracks: [MediaTrack], info: MediaInfo, preferences p: ItemPreferences,
                               warning: (String) -> Void) -> (SubtitleTracks, [Int: Decoder]) {
        let subtitles = SubtitleTracks(videoWidth: info.displayWidth, videoHeight: info.displayHeight,
                                       fonts: fonts(in: tracks))
        var decoders: [Int: Decoder] = [:]
        for track in tracks where track.kind == .subtitle {
            guard let stream = input.stream(track.id) else { continue }
            do {
                let decoder = try Decoder(stream: stream, threads: 1)
                if subtitles.addTrack(track, header: decoder.subtitleHeader, canvas: decoder.subtitleCanvas) {
                    decoders[track.id] = decoder
                }
            } catch {
                warning("subtitle track \(track.id): \(error)")
            }
        }
        var given: [MediaTrack] = [], found: [MediaTrack] = []
        let beside = p.autoloadSubtitles && !location.isNetwork && location.device == nil
            ? SubtitleFile.siblings(of: location.url) : []
        for (path, explicit) in p.subtitleFiles.map({ ($0, true) }) + beside.map({ ($0, false) }) {
            let id = input.streamCount + given.count + found.count
            do {
                let track = try SubtitleFile.load(path, id: id, into: subtitles)
                if explicit { given.append(track) } else { found.append(track) }
            } catch {
                warning("subtitles \((path as NSString).lastPathComponent): \(error)")
            }
        }
        let all = subtitles.trackList
        subtitles.selected = given.first?.id
            ?? LanguageCode.first(all, in: p.subtitleLanguages)?.id
            ?? all.first(where: { $0.externalPath == nil && ($0.isForced || $0.isDefault) })?.id
            ?? found.first?.id
        return (subtitles, decoders)
    }

    /// How stream `index` is shown: the turn its display matrix asks for
    /// (phones write one), with `settings`' extra rotation. A matrix that
    /// is not a quarter turn or flip (a shear, a scale) is not followed:
    /// `problem` says so, once, for the warning.
    package func orientation(ofStream index: Int, settings: VideoFilterSettings) -> (orientation: VideoOrientation, problem: String?) {
        guard settings.extraRotation != nil, let stream = input.stream(index) else { return (.upright, nil) }
        var size: Int = 0
        var file = VideoOrientation.upright
        var problem: String?
        if let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * 4 {
            let matrix = UnsafeRawPointer(data).bindMemory(to: Int32.self, capacity: 9)
            if let turn = VideoOrientation(displayMatrix: matrix) {
                file = turn
            } else {
                problem = "the display matrix is not a quarter turn or a flip (a shear or a scale); the video shows as stored"
            }
        }
        return (settings.orientation(file: file), problem)
    }

    /// The video's coded and display size (sample aspect applied), frame
    /// rate and whether its fields are interlaced.
    /// Returns the warning when the file's sample aspect ratio was ignored.
    private func describeVideo(_ stream: UnsafeMutablePointer<AVStream>, _ decoder: Decoder,
                               into info: inout MediaInfo) -> String? {
        let ctx = decoder.context.pointee
        info.videoCodec = decoder.codecName
        info.videoWidth = Int(ctx.width)
        info.videoHeight = Int(ctx.height)
        var sar = stream.pointee.sample_aspect_ratio
        if sar.num <= 0 || sar.den <= 0 { sar = ctx.sample_aspect_ratio }
        var aspect = ContainerMath.value(sar) ?? 1
        var problem: String?
        // Anamorphic video stretches pixels by 4:3 or 2:1, never by 100: a
        // header saying more would make a picture thousands of pixels wide.
        if !MediaAsset.sampleAspectRange.contains(aspect) {
            problem = "video: sample aspect ratio \(sar.num):\(sar.den) is out of range (1:16 to 16:1); ignored"
            aspect = 1
        }
        info.displayWidth = max(1, Int(saturating: (Double(ctx.width) * aspect).rounded()))
        info.displayHeight = max(1, Int(ctx.height))
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        if let fps = ContainerMath.value(rate) { info.frameRate = fps }
        let order = stream.pointee.codecpar.pointee.field_order
        info.videoInterlaced = order != AV_FIELD_UNKNOWN && order != AV_FIELD_PROGRESSIVE
        return problem
    }

    static let fontLimit = 64
    static let fontBytesLimit = 32 << 20

    /// The sample aspect ratios taken from a file.
    package static let sampleAspectRange = (1.0 / 16)...16.0
}
