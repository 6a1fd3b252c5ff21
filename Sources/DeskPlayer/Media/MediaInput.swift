// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Synchronization

/// Set from any thread to make a blocking FFmpeg read give up (FFmpeg polls it
/// through the AVIOInterruptCB).
package final class InterruptFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    package init() {}
    package func set() { flag.store(true, ordering: .relaxed) }
    package var isSet: Bool { flag.load(ordering: .relaxed) }
}

let interruptCallback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
    guard let opaque else { return 0 }
    return Unmanaged<InterruptFlag>.fromOpaque(opaque).takeUnretainedValue().isSet ? 1 : 0
}

/// Where media comes from, and which FFmpeg protocols it may use.
package struct MediaLocation: Sendable, Equatable, CustomStringConvertible {
    package let url: String
    package let isNetwork: Bool
    /// A live input device read through libavdevice (a camera, a screen, a
    /// lavfi graph), written as mpv writes it: `av://FORMAT:URL`, with the
    /// device's options after `#` (`av://v4l2:/dev/video0#video_size=1280x720,framerate=30`).
    package let device: LiveDevice?

    package init(_ text: String) {
        device = LiveDevice(location: text)
        if let device {
            url = device.url
            isNetwork = false
        } else if text.hasPrefix("file://") {
            url = String(text.dropFirst("file://".count))
            isNetwork = false
        } else if text.range(of: "^[a-zA-Z][a-zA-Z0-9+.-]*://", options: .regularExpression) != nil {
            url = text
            isNetwork = true
        } else {
            url = text
            isNetwork = false
        }
    }

    package var description: String { url }

    /// An HLS playlist by its name (query left out).
    package static func isPlaylist(_ url: String) -> Bool {
        url.lowercased().split(separator: "?").first?.hasSuffix(".m3u8") ?? false
    }

    /// An HLS playlist over the network: variants to choose, segments to cache.
    package var isNetworkPlaylist: Bool { isNetwork && MediaLocation.isPlaylist(url) }

    /// Local files may only use `file`; network protocols are allowed only
    /// for a URL the user gave.
    var protocolWhitelist: String {
        isNetwork ? "http,https,tcp,tls,crypto,hls,httpproxy" : "file"
    }

    /// Clear reasons for local paths that FFmpeg would describe vaguely.
    package func localProblem() -> String? {
        if let device { return device.problem() }
        guard !isNetwork else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url, isDirectory: &isDirectory) else {
            return "No such file or directory"
        }
        if isDirectory.boolValue { return "is a directory, not a media file" }
        guard FileManager.default.isReadableFile(atPath: url) else { return "Permission denied" }
        // Only a regular file can be known empty; a pipe streams what comes.
        let attributes = try? FileManager.default.attributesOfItem(atPath: url)
        if attributes?[.type] as? FileAttributeType == .typeRegular,
           let size = attributes?[.size] as? NSNumber, size.intValue == 0 {
            return "empty file"
        }
        return nil
    }
}

/// Owns an opened AVFormatContext. Opened on a loading thread, then used by
/// the one demux thread; never by two threads at once.
package final class MediaInput: @unchecked Sendable {  // opened on the loading thread, then read (and reopened) by the one demux thread only
    /// The opened input; replaced when an HLS stream is opened again to rewind it.
    package private(set) var context: UnsafeMutablePointer<AVFormatContext>
    package let interrupt: InterruptFlag

    /// Serves a looping stream's segments again (installed as the input's io_open).
    let cache: SegmentCache?
    private let location: MediaLocation
    /// Whether it is read from the network (which stalls) rather than a file.
    package var isNetwork: Bool { location.isNetwork }
    private let playlist: String?
    /// The bytes an input opened on memory reads (freed after the input).
    private let memory: MemoryIO?

    /// `playlist`: for an HLS stream, a master playlist to open in place of
    /// `location`'s (one variant and its audio rendition), given to FFmpeg
    /// as a data: URL so it is never fetched.
    package init(location: MediaLocation, interrupt: InterruptFlag, cache: SegmentCache? = nil,
         playlist: String? = nil) throws(MediaError) {
        if let problem = location.localProblem() { throw MediaError(problem) }
        self.location = location
        self.playlist = playlist
        self.cache = cache
        self.interrupt = interrupt
        memory = nil
        context = try MediaInput.open(location, playlist: playlist, cache: cache, interrupt: interrupt)
        let probe = avformat_find_stream_info(context, nil)
        if probe < 0 {
            // Every property is set, so throwing runs deinit, which closes the
            // input: closing it here too freed it twice (found by `make fuzz`).
            if let failure = cache?.firstFailure, probe != DP_AVERROR_EXIT { throw MediaInput.missingSegment(failure) }
            throw MediaError(code: probe, context: "cannot read stream information")
        }
    }

    /// An input on `bytes` held in memory (a stream segment read whole),
    /// its format probed from them. It may open nothing else: a playlist
    /// or a reference among the bytes reaches no file and no network.
    package init(bytes: Data) throws(MediaError) {
        let memory = try MemoryIO(bytes)
        guard let allocated = avformat_alloc_context() else { throw MediaError("out of memory (format context)") }
        allocated.pointee.pb = memory.context
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var ctx: UnsafeMutablePointer<AVFormatContext>? = allocated
        var options: OpaquePointer? = nil
        av_dict_set(&options, "protocol_whitelist", "none", 0)
        let ret = avformat_open_input(&ctx, nil, nil, &options)  // frees the context when it fails
        av_dict_free(&options)
        guard ret >= 0, let opened = ctx else { throw MediaError(code: ret, context: "cannot read the segment") }
        self.memory = memory
        context = opened
        location = MediaLocation("memory")
        playlist = nil
        cache = nil
        interrupt = InterruptFlag()
        let probe = avformat_find_stream_info(context, nil)
        if probe < 0 { throw MediaError(code: probe, context: "cannot read stream information") }
    }

    private static func open(_ location: MediaLocation, playlist: String?, cache: SegmentCache?,
                             interrupt: InterruptFlag) throws(MediaError) -> UnsafeMutablePointer<AVFormatContext> {
        guard let allocated = avformat_alloc_context() else { throw MediaError("out of memory (format context)") }
        var ctx: UnsafeMutablePointer<AVFormatContext>? = allocated
        allocated.pointee.interrupt_callback.callback = interruptCallback
        allocated.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(interrupt).toOpaque()
        var options: OpaquePointer? = nil
        if let cache {
            cache.install(on: allocated)
            // HLS reuses an HTTP connection by reaching into the previous
            // segment's context, which is the cache's here: new requests instead.
            av_dict_set(&options, "http_persistent", "0", 0)
        }
        av_dict_set(&options, "protocol_whitelist", location.protocolWhitelist + (playlist != nil ? ",data" : ""), 0)
        if location.isNetwork {
            av_dict_set(&options, "rw_timeout", "10000000", 0)  // 10 s, in µs
        }
        var format: UnsafePointer<AVInputFormat>?
        if let device = location.device {
            format = try device.inputFormat()
            for (key, value) in device.options { av_dict_set(&options, key, value, 0) }
        }
        let url = playlist.map { "data:application/vnd.apple.mpegurl;base64," + Data($0.utf8).base64EncodedString() }
        let ret = avformat_open_input(&ctx, url ?? location.url, format, &options)
        av_dict_free(&options)
        guard ret >= 0, let opened = ctx else {
            if let failure = cache?.firstFailure, ret != DP_AVERROR_EXIT { throw MediaInput.missingSegment(failure) }
            if let device = location.device { throw device.describeOpenFailure(ret) }
            throw MediaInput.describeOpenFailure(ret, local: !location.isNetwork)
        }
        return opened
    }

    /// A stream that failed because a segment could not be read (FFmpeg's
    /// HLS demuxer then reports data it does not recognise), named as such.
    private static func missingSegment(_ failure: (url: String, code: Int32)) -> MediaError {
        let name = failure.url.split(separator: "?").first.flatMap { $0.split(separator: "/").last }.map(String.init)
            ?? failure.url
        let what = failure.code == dp_averror(ENOENT) || MediaError.ffmpegText(failure.code).contains("404")
            ? "is missing" : "cannot be read"
        return MediaError("segment \(name) \(what) (\(MediaError.ffmpegText(failure.code)))", code: failure.code)
    }

    deinit {
        var c: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&c)
    }

    /// Back to the input's very first packet, `start` (µs, container time).
    /// Any input seeks there, except HLS: its demuxer rounds its first
    /// timestamp to the microsecond and drops every packet before a seek's
    /// target, so no target gets it all back when the first packet's time
    /// is not a whole microsecond (FFmpeg's fMP4 segments: video at
    /// 353/15360 s). HLS is opened again instead: its playlist is read
    /// again, its segments come from the segment cache.
    ///
    /// An MPEG-TS file goes back to its first byte, where its first pass
    /// was read from: FFmpeg seeks it by decode timestamps, which a
    /// packager may leave out of the first keyframe's header (a PTS alone),
    /// and a seek by time then lands on a later keyframe.
    package func rewind(toMicroseconds start: Int64) throws(MediaError) {
        if formatName == "mpegts" {
            try MediaError.check(av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE), "seek failed")
            return
        }
        guard formatName == "hls" else { return try seek(toMicroseconds: start) }
        let reopened = try MediaInput.open(location, playlist: playlist, cache: cache, interrupt: interrupt)
        var fresh: UnsafeMutablePointer<AVFormatContext>? = reopened
        let probe = avformat_find_stream_info(reopened, nil)
        // The same playlist gives the same streams; anything else is not the stream that played.
        let same = probe >= 0 && reopened.pointee.nb_streams == context.pointee.nb_streams
            && (0..<Int(reopened.pointee.nb_streams)).allSatisfy { i in
                reopened.pointee.streams[i]?.pointee.codecpar.pointee.codec_type
                    == context.pointee.streams[i]?.pointee.codecpar.pointee.codec_type
            }
        guard same else {
            avformat_close_input(&fresh)
            throw probe < 0 ? MediaError(code: probe, context: "cannot open the stream again")
                : MediaError("the stream changed its tracks when opened again")
        }
        var old: UnsafeMutablePointer<AVFormatContext>? = context
        context = reopened
        avformat_close_input(&old)
    }

    private static func describeOpenFailure(_ code: Int32, local: Bool) -> MediaError {
        if code == DP_AVERROR_INVALIDDATA {
            return MediaError("not a playable media file (format not recognised, or the file is damaged)",
                              shown: tr("not a playable media file (format not recognised, or the file is damaged)"), code: code)
        }
        if code == DP_AVERROR_EOF {
            return MediaError("no audio or video in the file (it ends before any)",
                              shown: tr("no audio or video in the file (it ends before any)"), code: code)
        }
        // A readable local file that FFmpeg still cannot open: its reason
        // (whatever errno a demuxer chose) alone would mislead.
        if local {
            let reason = MediaError.ffmpegText(code)
            return MediaError("not a playable media file (\(reason))",
                              shown: String(format: tr("not a playable media file (%@)"), reason), code: code)
        }
        return MediaError(code: code)
    }

    package var streamCount: Int { Int(context.pointee.nb_streams) }

    package func stream(_ index: Int) -> UnsafeMutablePointer<AVStream>? {
        guard index >= 0, index < streamCount else { return nil }
        return context.pointee.streams[index]
    }

    /// FFmpeg's pick of the main stream of a type, or nil.
    package func bestStream(_ type: AVMediaType) -> Int? {
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// A live device (camera, screen, lavfi graph): no duration, no seeking.
    package var isLiveDevice: Bool { location.device != nil }

    /// The container's duration in µs, or nil when unknown.
    package var durationMicroseconds: Int64? {
        let d = context.pointee.duration
        return d == DP_AV_NOPTS_VALUE || d <= 0 ? nil : d
    }

    package var formatName: String {
        guard let f = context.pointee.iformat, let name = f.pointee.name else { return "?" }
        return String(cString: name)
    }

    /// The file's tags (title, artist, album…), keys in lower case: the
    /// container's, else the first stream's that has any (Ogg keeps them there).
    package var tags: [String: String] {
        func read(_ dictionary: OpaquePointer?) -> [String: String] {
            var tags: [String: String] = [:]
            var entry: UnsafeMutablePointer<AVDictionaryEntry>?
            while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
                entry = next
                guard let key = next.pointee.key, let value = next.pointee.value else { continue }
                tags[String(cString: key).lowercased()] = String(cString: value)
            }
            return tags
        }
        let container = read(context.pointee.metadata)
        if container["title"] != nil || container["artist"] != nil { return container }
        for i in 0..<streamCount {
            guard let stream = stream(i) else { continue }
            let own = read(stream.pointee.metadata)
            if own["title"] != nil || own["artist"] != nil { return container.merging(own) { $1 } }
        }
        return container
    }

    /// The cover picture a file carries (an attached picture stream), as
    /// its encoded bytes and their image type.
    package var coverArt: CoverArt? {
        for i in 0..<streamCount {
            guard let stream = stream(i), stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0,
                  let data = stream.pointee.attached_pic.data, stream.pointee.attached_pic.size > 0 else { continue }
            guard let format = CoverArt.Format(codec: stream.pointee.codecpar.pointee.codec_id) else { continue }
            return CoverArt(bytes: Array(UnsafeBufferPointer(start: data, count: Int(stream.pointee.attached_pic.size))),
                            format: format)
        }
        return nil
    }

    /// The container's chapter table as it stands (Matroska, MP4, Ogg's
    /// CHAPTERxxx comments): each start and end in container time (nil
    /// when its time base or value cannot be a time) and its title tag.
    /// Nothing is checked or sorted here: that is the item's business.
    package var chapters: [ContainerChapter] {
        (0..<Int(context.pointee.nb_chapters)).compactMap { i -> ContainerChapter? in
            guard let chapter = context.pointee.chapters[i]?.pointee else { return nil }
            let title = av_dict_get(chapter.metadata, "title", nil, 0)?.pointee.value.map { String(cString: $0) }
            return ContainerChapter(start: ContainerChapter.time(chapter.start, chapter.time_base),
                                    end: ContainerChapter.time(chapter.end, chapter.time_base), title: title ?? "")
        }
    }

    /// The same local file opened again, for a reader of its own on another
    /// thread (playing backward decodes ahead of the steps). A file only: a
    /// network stream, a device or bytes in memory cannot be read twice.
    package func openedAgain(interrupt: InterruptFlag) throws(MediaError) -> MediaInput {
        guard !location.isNetwork, location.device == nil, playlist == nil, memory == nil, cache == nil else {
            throw MediaError("only a local file can be read twice")
        }
        return try MediaInput(location: location, interrupt: interrupt)
    }

    /// Reads the next packet. Returns false at the end of the input.
    package func read(into packet: Packet) throws(MediaError) -> Bool {
        let ret = av_read_frame(context, packet.pointer)
        if ret == DP_AVERROR_EOF { return false }
        try MediaError.check(ret, "read error")
        return true
    }

    /// The latest start time of any stream, in µs.
    private var latestStreamStart: Int64? {
        (0..<streamCount).compactMap { i -> Int64? in
            guard let s = stream(i), s.pointee.start_time != DP_AV_NOPTS_VALUE else { return nil }
            return av_rescale_q(s.pointee.start_time, s.pointee.time_base, AVRational(num: 1, den: 1_000_000))
        }.max()
    }

    /// Seeks to the keyframe at or before `microseconds` (container time).
    package func seek(toMicroseconds target: Int64) throws(MediaError) {
        var ret = avformat_seek_file(context, -1, Int64.min, target, target, 0)
        if ret < 0, let latest = latestStreamStart, latest > target {
            // HLS refuses any time before the first packet it read (which may
            // be a stream starting after another). From the latest stream
            // start, with ANY so it drops no packet on the way, it rewinds to
            // the first segment: a loop gets every sample again.
            ret = avformat_seek_file(context, -1, Int64.min, latest, latest, AVSEEK_FLAG_ANY)
        }
        if ret < 0 {
            // Some formats only seek with a backward flag on one stream.
            ret = av_seek_frame(context, -1, target, AVSEEK_FLAG_BACKWARD)
        }
        if ret < 0, target <= max(context.pointee.start_time == DP_AV_NOPTS_VALUE ? 0 : context.pointee.start_time, 0),
           let format = context.pointee.iformat, format.pointee.flags & AVFMT_NO_BYTE_SEEK == 0 {
            // A raw stream (.h264, .hevc) has no times to seek by: its start
            // is its first byte (a loop, a seek to zero).
            ret = av_seek_frame(context, -1, 0, AVSEEK_FLAG_BYTE)
        }
        try MediaError.check(ret, "seek failed")
    }
}
