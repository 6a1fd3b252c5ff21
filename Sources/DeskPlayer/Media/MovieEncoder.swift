// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// Owns what writes a movie file: libavformat's muxer (the container from
/// the file name, MP4 for `.mp4`), libavcodec's video encoder fed BGRA
/// pictures, and an optional AAC track fed interleaved float samples.
/// `.exact` pictures are H.264 in RGB (libx264rgb: the BGRA bytes as they
/// are, no colour conversion or chroma subsampling, High 4:4:4), what
/// players built on FFmpeg (mpv, VLC, ffplay) show; `.compatible` ones
/// are H.264 in YUV 4:2:0 (BT.601, limited range, tagged so) that every
/// player and browser shows, with colour edges softened by the 4:2:0
/// chroma. Without libx264: MPEG-4 part 2. Everything is freed in
/// deinit; `finish()` writes the trailer. One thread at a time.
package final class MovieEncoder {
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var video: UnsafeMutablePointer<AVCodecContext>?
    private var audio: UnsafeMutablePointer<AVCodecContext>?
    private var videoStream: UnsafeMutablePointer<AVStream>?
    private var audioStream: UnsafeMutablePointer<AVStream>?
    private let frame: Frame
    private let audioFrame: Frame
    private let packet: Packet
    private var sws: OpaquePointer?
    private var swr: OpaquePointer?
    private var isOpen = false
    private var finished = false
    private var nextVideoPts: Int64 = 0
    private var nextAudioPts: Int64 = 0
    /// Samples waiting for a whole encoder frame (interleaved stereo float).
    private var pendingSamples: [Float] = []
    package let width: Int
    package let height: Int
    /// The encoder used ("libx264rgb", "libx264", "mpeg4").
    package let codecName: String

    /// How the pictures are coded.
    package enum Pictures: String, Sendable, CaseIterable {
        /// RGB as drawn (libx264rgb): frame for frame what was drawn, for players built on FFmpeg.
        case exact
        /// YUV 4:2:0 (libx264): plays everywhere.
        case compatible
    }
    private let pixelFormat: AVPixelFormat

    /// Audio given to `writeAudio`: interleaved float samples at this rate, 2 channels.
    package struct AudioInput: Sendable {
        package var sampleRate: Int
        package init(sampleRate: Int) { self.sampleRate = sampleRate }
    }

    /// Opens `path` for writing: `width` x `height` (made even) at `frameRate`,
    /// with a stereo AAC track when `audio` is given; the container is the
    /// one `name` (else `path`) ends in. `quality`: x264's CRF.
    /// What a live recording asks beyond an export: x264's tune, the
    /// stamps' time base (frames come with their own times, not one per
    /// tick), a keyframe interval and the muxer's options
    /// (`movflags=frag_keyframe+empty_moov`: a killed recording still plays).
    package struct Live: Sendable {
        package var tune: String
        package var timeBase: AVRational
        package var keyframeInterval: Int
        package var muxerOptions: [String: String]
        package init(tune: String, timeBase: AVRational, keyframeInterval: Int, muxerOptions: [String: String]) {
            self.tune = tune
            self.timeBase = timeBase
            self.keyframeInterval = keyframeInterval
            self.muxerOptions = muxerOptions
        }
    }

    package init(path: String, name: String? = nil, width: Int, height: Int, frameRate: AVRational, audio: AudioInput?,
                 pictures: Pictures = .exact, quality: Int = 12, preset: String = "ultrafast",
                 live: Live? = nil) throws(MediaError) {
        self.width = max(2, width & ~1)
        self.height = max(2, height & ~1)
        frame = try Frame()
        audioFrame = try Frame()
        packet = try Packet()
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        guard let container = av_guess_format(nil, name ?? path, nil) else {
            throw MediaError("cannot write \(name ?? path): no container for its name (.mp4, .mkv, .mov)")
        }
        try MediaError.check(avformat_alloc_output_context2(&ctx, container, nil, path), "cannot write \(name ?? path)")
        guard let ctx else { throw MediaError("cannot write \(path)") }
        format = ctx
        let rgb = pictures == .exact ? avcodec_find_encoder_by_name("libx264rgb") : nil
        guard let codec = rgb ?? avcodec_find_encoder_by_name("libx264") ?? avcodec_find_encoder(AV_CODEC_ID_MPEG4),
              let v = avcodec_alloc_context3(codec) else { throw MediaError("this FFmpeg has no H.264 or MPEG-4 encoder") }
        video = v
        codecName = String(cString: codec.pointee.name)
        pixelFormat = rgb != nil ? AV_PIX_FMT_BGR0 : AV_PIX_FMT_YUV420P
        let rate = frameRate.num > 0 && frameRate.den > 0 ? frameRate : AVRational(num: 25, den: 1)
        v.pointee.width = Int32(self.width)
        v.pointee.height = Int32(self.height)
        v.pointee.pix_fmt = pixelFormat
        v.pointee.time_base = live?.timeBase ?? av_inv_q(rate)
        v.pointee.framerate = rate
        v.pointee.gop_size = Int32(live?.keyframeInterval
                                   ?? min(max(ContainerMath.wholeFramesPerSecond(rate) ?? 25, 6), 300) * 2)
        v.pointee.colorspace = rgb != nil ? AVCOL_SPC_RGB : AVCOL_SPC_SMPTE170M
        v.pointee.color_primaries = AVCOL_PRI_SMPTE170M
        v.pointee.color_trc = AVCOL_TRC_SMPTE170M
        v.pointee.color_range = rgb != nil ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        v.pointee.thread_count = 0
        if codecName.hasPrefix("libx264") {
            av_opt_set(v.pointee.priv_data, "preset", preset, 0)
            av_opt_set(v.pointee.priv_data, "crf", String(quality), 0)
            // Pixels as drawn, not what looks sharp: no psycho-visual tuning
            // (a live recording: no frames held back, zerolatency).
            av_opt_set(v.pointee.priv_data, "tune", live?.tune ?? "psnr", 0)
        } else {
            v.pointee.bit_rate = Int64(self.width * self.height) * 8
            v.pointee.qmin = 1
            v.pointee.qmax = 4
        }
        if ctx.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            v.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        try MediaError.check(avcodec_open2(v, codec, nil), "cannot open the \(codecName) encoder")
        guard let vs = avformat_new_stream(ctx, nil) else { throw MediaError("cannot add a video stream to \(path)") }
        videoStream = vs
        try MediaError.check(avcodec_parameters_from_context(vs.pointee.codecpar, v), "cannot describe the video stream")
        vs.pointee.time_base = v.pointee.time_base
        vs.pointee.avg_frame_rate = rate
        if let audio { try openAudio(audio, in: ctx) }
        if ctx.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            try MediaError.check(avio_open(&ctx.pointee.pb, path, AVIO_FLAG_WRITE), "cannot write \(path)")
        }
        isOpen = true
        var muxerOptions: OpaquePointer? = nil
        for (key, value) in live?.muxerOptions ?? [:] { av_dict_set(&muxerOptions, key, value, 0) }
        let header = avformat_write_header(ctx, &muxerOptions)
        av_dict_free(&muxerOptions)
        try MediaError.check(header, "cannot write \(name ?? path)'s header")
        let f = frame.pointer
        f.pointee.width = Int32(self.width)
        f.pointee.height = Int32(self.height)
        f.pointee.format = pixelFormat.rawValue
        try MediaError.check(av_frame_get_buffer(f, 0), "out of memory (export frame)")
    }

    private func openAudio(_ input: AudioInput, in ctx: UnsafeMutablePointer<AVFormatContext>) throws(MediaError) {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC), let a = avcodec_alloc_context3(codec) else {
            throw MediaError("this FFmpeg has no AAC encoder")
        }
        audio = a
        a.pointee.sample_rate = Int32(clamping: input.sampleRate)
        a.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        a.pointee.ch_layout = dp_channel_layout_stereo()
        a.pointee.bit_rate = 192_000
        a.pointee.time_base = AVRational(num: 1, den: Int32(clamping: input.sampleRate))
        if ctx.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { a.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        try MediaError.check(avcodec_open2(a, codec, nil), "cannot open the AAC encoder")
        guard let s = avformat_new_stream(ctx, nil) else { throw MediaError("cannot add an audio stream") }
        audioStream = s
        try MediaError.check(avcodec_parameters_from_context(s.pointee.codecpar, a), "cannot describe the audio stream")
        s.pointee.time_base = a.pointee.time_base
        let af = audioFrame.pointer
        af.pointee.nb_samples = a.pointee.frame_size > 0 ? a.pointee.frame_size : 1024
        af.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        af.pointee.sample_rate = a.pointee.sample_rate
        try MediaError.check(av_channel_layout_copy(&af.pointee.ch_layout, &a.pointee.ch_layout), "audio layout")
        try MediaError.check(av_frame_get_buffer(af, 0), "out of memory (export audio)")
    }

    deinit {
        if let format, isOpen, format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 { avio_closep(&format.pointee.pb) }
        avcodec_free_context(&video)
        avcodec_free_context(&audio)
        avformat_free_context(format)
        sws_freeContext(sws)
        swr_free(&swr)
    }

    /// Encodes the next picture (BGRA, `width` x `height` or larger: its top-left part).
    package func writeVideo(bgra pixels: UnsafePointer<UInt8>, pitch: Int) throws(MediaError) {
        guard let video, !finished else { return }
        let w = Int32(width), h = Int32(height)
        try MediaError.check(av_frame_make_writable(frame.pointer), "out of memory (export frame)")
        let f = frame.pointer
        if pixelFormat == AV_PIX_FMT_BGR0, let plane = f.pointee.data.0 {
            // The bytes as drawn: BGRA is BGR0 with its alpha ignored.
            av_image_copy_plane(plane, f.pointee.linesize.0, pixels, Int32(clamping: pitch), w * 4, h)
            f.pointee.pts = nextVideoPts
            nextVideoPts += 1
            try encode(f, with: video, to: videoStream)
            return
        }
        sws = sws_getCachedContext(sws, w, h, AV_PIX_FMT_BGRA, w, h, AV_PIX_FMT_YUV420P,
                                   Int32(SWS_BICUBIC | SWS_ACCURATE_RND), nil, nil, nil)
        guard let sws else { throw MediaError("cannot convert the picture for encoding") }
        let rows = scalePacked(sws, pixels, pitch: pitch, height: h, into: f)
        guard rows > 0 else { throw MediaError("picture conversion failed") }
        f.pointee.pts = nextVideoPts
        nextVideoPts += 1
        try encode(f, with: video, to: videoStream)
    }

    /// Encodes a decoded picture of any size and pixel format (a camera's),
    /// scaled to the encoder's, stamped `pts` in the live time base.
    package func writeVideo(frame source: UnsafePointer<AVFrame>, pts: Int64) throws(MediaError) {
        guard let video, !finished else { return }
        try MediaError.check(av_frame_make_writable(frame.pointer), "out of memory (recording frame)")
        let f = frame.pointer
        sws = sws_getCachedContext(sws, source.pointee.width, source.pointee.height,
                                   AVPixelFormat(rawValue: source.pointee.format), Int32(width), Int32(height),
                                   pixelFormat, Int32(SWS_BILINEAR), nil, nil, nil)
        guard let sws else { throw MediaError("cannot convert the camera's picture for encoding") }
        // Whole frames, planes and strides as FFmpeg's frames give them.
        let rows = sws_scale_frame(sws, f, source)
        guard rows >= 0 else { throw MediaError(code: rows, context: "picture conversion failed") }
        f.pointee.pts = pts
        try encode(f, with: video, to: videoStream)
    }

    /// Bytes written to the output so far (the muxer's count).
    package var bytesWritten: Int64 {
        guard let pb = format?.pointee.pb else { return 0 }
        return avio_tell(pb)
    }

    /// Encodes interleaved stereo float samples (at the rate given at init).
    package func writeAudio(_ samples: [Float]) throws(MediaError) {
        guard let audio, !finished else { return }
        pendingSamples.append(contentsOf: samples)
        let size = Int(audioFrame.pointer.pointee.nb_samples)
        while pendingSamples.count >= size * 2 {
            try sendAudio(count: size, with: audio)
        }
    }

    private func sendAudio(count: Int, with audio: UnsafeMutablePointer<AVCodecContext>) throws(MediaError) {
        let af = audioFrame.pointer
        try MediaError.check(av_frame_make_writable(af), "out of memory (export audio)")
        af.pointee.nb_samples = Int32(count)
        guard let left = af.pointee.extended_data[0], let right = af.pointee.extended_data[1] else { return }
        left.withMemoryRebound(to: Float.self, capacity: count) { l in
            right.withMemoryRebound(to: Float.self, capacity: count) { r in
                for i in 0..<count {
                    l[i] = pendingSamples[2 * i]
                    r[i] = pendingSamples[2 * i + 1]
                }
            }
        }
        pendingSamples.removeFirst(min(count * 2, pendingSamples.count))
        af.pointee.pts = nextAudioPts
        nextAudioPts += Int64(count)
        try encode(af, with: audio, to: audioStream)
    }

    /// Flushes the encoders and writes the trailer: the file is complete.
    package func finish() throws(MediaError) {
        guard !finished, let format else { return }
        if let audio {
            let size = Int(audioFrame.pointer.pointee.nb_samples)
            if !pendingSamples.isEmpty {
                pendingSamples.append(contentsOf: [Float](repeating: 0, count: size * 2 - pendingSamples.count % (size * 2)))
                while pendingSamples.count >= size * 2 { try sendAudio(count: size, with: audio) }
            }
            try encode(nil, with: audio, to: audioStream)
        }
        if let video { try encode(nil, with: video, to: videoStream) }
        finished = true
        try MediaError.check(av_write_trailer(format), "cannot finish the file")
    }

    private func encode(_ f: UnsafeMutablePointer<AVFrame>?, with codec: UnsafeMutablePointer<AVCodecContext>,
                        to stream: UnsafeMutablePointer<AVStream>?) throws(MediaError) {
        guard let stream, let format else { return }
        try MediaError.check(avcodec_send_frame(codec, f), "encoding failed")
        while true {
            let got = avcodec_receive_packet(codec, packet.pointer)
            if got == DP_AVERROR_EAGAIN || got == DP_AVERROR_EOF { return }
            try MediaError.check(got, "encoding failed")
            packet.pointer.pointee.stream_index = stream.pointee.index
            av_packet_rescale_ts(packet.pointer, codec.pointee.time_base, stream.pointee.time_base)
            let written = av_interleaved_write_frame(format, packet.pointer)
            packet.unref()
            try MediaError.check(written, "cannot write the file (disk full?)")
        }
    }
}
