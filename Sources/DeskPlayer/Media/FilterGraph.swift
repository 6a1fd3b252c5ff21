// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Owns one AVFilterGraph: a buffer source, a chain of FFmpeg's filters
/// written in its filtergraph syntax ("bwdif=mode=send_field,transpose=clock",
/// "atempo=1.5"), and a buffer sink. Video or audio. Frames go in and come
/// out on the thread that owns the graph; nothing here is shared.
/// A graph may also have several named sources (two videos into `psnr`):
/// its filters then name them as pads, `[ref][dist]psnr`.
package final class FilterGraph {
    /// What the buffer source is told about the frames it will be given.
    package enum Source {
        case video(width: Int32, height: Int32, format: AVPixelFormat, timeBase: AVRational,
                   sampleAspect: AVRational, frameRate: AVRational)
        case audio(sampleRate: Int32, format: AVSampleFormat, channelLayout: String, timeBase: AVRational)
    }

    package enum Output {
        case frame
        case needsInput
        case endOfStream
    }

    /// The chain as it was given (for messages and to tell graphs apart).
    package let description: String
    private let graph: UnsafeMutablePointer<AVFilterGraph>
    /// The buffer sources, in the order they were given (one for a plain chain).
    private let sources: [UnsafeMutablePointer<AVFilterContext>]
    private let sink: UnsafeMutablePointer<AVFilterContext>

    /// Whether this FFmpeg has a filter of that name (Debian's may lack some).
    package static func isAvailable(_ name: String) -> Bool { avfilter_get_by_name(name) != nil }

    /// Builds and configures the graph; an unknown filter, a bad option or
    /// a format the chain cannot take is the error thrown. An empty chain
    /// passes frames through (FFmpeg's null filters).
    package convenience init(source input: Source, filters: String, threads: Int32 = 1) throws(MediaError) {
        try self.init(sources: [("in", input)], filters: filters, threads: threads)
    }

    /// A graph fed by several sources, each named as the pad `filters`
    /// reads it from (`[ref][dist]psnr`); with one source named "in" the
    /// chain may leave it unnamed. The graph has one output.
    package init(sources inputs: [(name: String, source: Source)], filters: String, threads: Int32 = 1) throws(MediaError) {
        guard let first = inputs.first else { throw MediaError("a filter graph needs a source") }
        guard let allocated = avfilter_graph_alloc() else { throw MediaError("out of memory (filter graph)") }
        graph = allocated
        description = filters
        // Until both ends exist, deinit cannot run: free the graph here on failure.
        var built: ([UnsafeMutablePointer<AVFilterContext>], UnsafeMutablePointer<AVFilterContext>)?
        defer {
            if built == nil {
                var g: UnsafeMutablePointer<AVFilterGraph>? = allocated
                avfilter_graph_free(&g)
            }
        }
        // The graph runs on the caller's thread (a decode thread): FFmpeg's
        // own worker threads would compete with the other decoders.
        allocated.pointee.nb_threads = threads
        let isVideo: Bool
        if case .video = first.source { isVideo = true } else { isVideo = false }
        var made: [UnsafeMutablePointer<AVFilterContext>] = []
        for (name, input) in inputs {
            let arguments = FilterGraph.sourceArguments(input)
            var src: UnsafeMutablePointer<AVFilterContext>?
            let kind: String
            if case .video = input { kind = "buffer" } else { kind = "abuffer" }
            try MediaError.check(avfilter_graph_create_filter(&src, avfilter_get_by_name(kind), name, arguments, nil, allocated),
                                 "cannot make the filter source (\(arguments))")
            guard let src else { throw MediaError("cannot make the filter ends") }
            made.append(src)
        }
        var snk: UnsafeMutablePointer<AVFilterContext>?
        try MediaError.check(avfilter_graph_create_filter(&snk, avfilter_get_by_name(isVideo ? "buffersink" : "abuffersink"),
                                                          "out", nil, nil, allocated),
                             "cannot make the filter sink")
        guard let snk else { throw MediaError("cannot make the filter ends") }
        let names = inputs.map(\.name)
        try FilterGraph.link(Array(zip(names, made)), through: filters.isEmpty ? (isVideo ? "null" : "anull") : filters,
                             to: snk, in: allocated)
        try MediaError.check(avfilter_graph_config(allocated, nil), "filters '\(filters)' do not fit this \(isVideo ? "video" : "audio")")
        sources = made
        sink = snk
        built = (made, snk)
    }

    /// The buffer source's options for frames like `input`.
    private static func sourceArguments(_ input: Source) -> String {
        switch input {
        case .video(let width, let height, let format, let timeBase, let sar, let rate):
            let aspect = sar.num > 0 && sar.den > 0 ? sar : AVRational(num: 1, den: 1)
            return "video_size=\(width)x\(height):pix_fmt=\(format.rawValue)"
                + ":time_base=\(timeBase.num)/\(timeBase.den):pixel_aspect=\(aspect.num)/\(aspect.den)"
                + (rate.num > 0 && rate.den > 0 ? ":frame_rate=\(rate.num)/\(rate.den)" : "")
        case .audio(let rate, let format, let layout, let timeBase):
            let name = av_get_sample_fmt_name(format).map { String(cString: $0) } ?? "\(format.rawValue)"
            return "sample_rate=\(rate):sample_fmt=\(name):channel_layout=\(layout)"
                + ":time_base=\(timeBase.num)/\(timeBase.den)"
        }
    }

    deinit {
        var g: UnsafeMutablePointer<AVFilterGraph>? = graph
        avfilter_graph_free(&g)
    }

    /// Parses `chain` between the ends: each source feeds the pad of its
    /// name (a lone "in" feeds the chain's first filter), the chain's last
    /// output feeds "out".
    private static func link(_ sources: [(String, UnsafeMutablePointer<AVFilterContext>)], through chain: String,
                             to snk: UnsafeMutablePointer<AVFilterContext>,
                             in graph: UnsafeMutablePointer<AVFilterGraph>) throws(MediaError) {
        // Both lists are handed to FFmpeg, which takes them over and gives
        // back what it left open (nil when everything was linked): that is
        // what is freed, as FFmpeg's filtering example does.
        var outputs: UnsafeMutablePointer<AVFilterInOut>? = nil
        var inputs = avfilter_inout_alloc()
        defer {
            avfilter_inout_free(&outputs)
            avfilter_inout_free(&inputs)
        }
        for (name, src) in sources.reversed() {
            guard let out = avfilter_inout_alloc() else { throw MediaError("out of memory (filter graph)") }
            out.pointee.name = av_strdup(name)
            out.pointee.filter_ctx = src
            out.pointee.pad_idx = 0
            out.pointee.next = outputs
            outputs = out
        }
        guard let into = inputs else { throw MediaError("out of memory (filter graph)") }
        into.pointee.name = av_strdup("out")
        into.pointee.filter_ctx = snk
        into.pointee.pad_idx = 0
        into.pointee.next = nil
        let ret = avfilter_graph_parse_ptr(graph, chain, &inputs, &outputs, nil)
        try MediaError.check(ret, "cannot set up filters '\(chain)'")
    }

    /// Hands a frame to the graph (its data is taken over: `frame` is empty
    /// afterwards); nil ends the input, so delayed frames come out.
    package func push(_ frame: Frame?) throws(MediaError) {
        try push(frame, into: 0)
    }

    /// The same for the source at `index` (in the order given).
    package func push(_ frame: Frame?, into index: Int) throws(MediaError) {
        guard sources.indices.contains(index) else { throw MediaError("filters '\(description)' have no source \(index)") }
        try MediaError.check(av_buffersrc_add_frame_flags(sources[index], frame?.pointer, 0), "filters '\(description)' failed")
    }

    /// The next filtered frame, if one is ready.
    package func pull(into frame: Frame) throws(MediaError) -> Output {
        let ret = av_buffersink_get_frame(sink, frame.pointer)
        if ret == DP_AVERROR_EAGAIN { return .needsInput }
        if ret == DP_AVERROR_EOF { return .endOfStream }
        try MediaError.check(ret, "filters '\(description)' failed")
        return .frame
    }

    /// The time base of the frames that come out (a deinterlacer halves it).
    package var outputTimeBase: AVRational { av_buffersink_get_time_base(sink) }

    /// The frame rate that comes out (0/0 when unknown; doubled by a
    /// deinterlacer that outputs each field).
    package var outputFrameRate: AVRational { av_buffersink_get_frame_rate(sink) }

    /// Changes a filter's option while running (`atempo` `tempo` 1.25),
    /// as avfilter_graph_send_command does; `target` is a filter's name,
    /// instance name or "all". Returns the filter's answer.
    @discardableResult
    package func sendCommand(to target: String, _ command: String, _ argument: String) throws(MediaError) -> String {
        var answer = [CChar](repeating: 0, count: 256)
        let ret = avfilter_graph_send_command(graph, target, command, argument, &answer, Int32(answer.count), 0)
        try MediaError.check(ret, "filter command '\(command) \(argument)' to '\(target)' failed")
        return String(decoding: answer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
