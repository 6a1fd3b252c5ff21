// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Media

/// The filters a video stream's frames go through on its decode thread,
/// before they are scaled for display: deinterlacing (bwdif, else yadif),
/// HDR tone mapping (zscale and tonemap) and the turn the stream's display
/// matrix asks for (transpose, hflip, vflip, as ffplay's autorotate). All
/// are FFmpeg's own, in one `FilterGraph`; a stream that needs none has no
/// graph at all and its frames pass straight through. The graph is built
/// when first needed and again only when the frames' size, format or
/// colours or the wanted filters change.
///
/// Bad luck is never fatal: a filter this FFmpeg lacks is said once under
/// `-v` and that feature is left out; a chain that cannot be built or
/// fails while running is one warning, and frames go on unfiltered.
package final class VideoFilters {
    /// What the graph was built for.
    private struct Key: Equatable {
        var width: Int32, height: Int32, format: Int32
        var sar: (Int32, Int32), colors: (UInt32, UInt32, UInt32, UInt32)
        var chain: String

        static func == (a: Key, b: Key) -> Bool {
            a.width == b.width && a.height == b.height && a.format == b.format && a.sar == b.sar
                && a.colors == b.colors && a.chain == b.chain
        }
    }

    /// Hands on a frame to show: its data, the time base of its pts, and
    /// how its duration relates to the input frame's (½ when a
    /// deinterlacer makes a frame of each field).
    package typealias Emit = (_ frame: UnsafeMutablePointer<AVFrame>, _ timeBase: AVRational, _ durationScale: AVRational) -> Void

    private let orientation: VideoOrientation
    /// The stream says its fields are interlaced (its field order).
    private let streamInterlaced: Bool
    private let timeBase: AVRational
    private let frameRate: AVRational
    private let warning: (String) -> Void
    private var graph: FilterGraph?
    private var graphKey: Key?
    /// A chain that could not be built or broke: its frames go unfiltered.
    private var failedChain: String?
    /// `auto` keeps deinterlacing once a frame said it is interlaced, so a
    /// stream mixing flagged frames does not rebuild the graph back and forth.
    private var sawInterlaced = false
    private let output: Frame

    /// `interlaced`: the stream says its fields are interlaced (its field order).
    package init(orientation: VideoOrientation, interlaced: Bool, timeBase: AVRational, frameRate: AVRational,
         warning: @escaping (String) -> Void) throws(MediaError) {
        self.orientation = orientation
        streamInterlaced = interlaced
        self.timeBase = timeBase
        self.frameRate = frameRate
        self.warning = warning
        output = try Frame()
    }

    // MARK: Frames

    /// Filters `frame` (its pts in the stream's time base; its data is
    /// taken) and hands on what comes out, which may be nothing yet (a
    /// deinterlacer looks one frame ahead) or two frames (one per field).
    package func process(_ frame: Frame, deinterlace: DeinterlaceMode, toneMapping: ToneMapping, emit: Emit) {
        VideoFilters.fillInColorMatrix(frame.pointer)
        let chain = self.chain(for: frame.pointer.pointee, deinterlace: deinterlace, toneMapping: toneMapping)
        let key = VideoFilters.key(frame.pointer.pointee, chain)
        if graphKey != key {
            drain(emit: emit)
            if !chain.isEmpty && chain != failedChain { build(key, for: frame.pointer.pointee) }
        }
        guard let graph else {
            emit(frame.pointer, timeBase, AVRational(num: 1, den: 1))
            return
        }
        do {
            try graph.push(frame)
            try pullAll(emit: emit)
        } catch {
            fail(error)
            // The frame was given to the graph only if the push worked; what is left of it shows as it is.
            if frame.pointer.pointee.data.0 != nil { emit(frame.pointer, timeBase, AVRational(num: 1, den: 1)) }
        }
    }

    /// Whether a frame like `frame` goes through untouched (no filter wanted
    /// for it): only such frames are kept decoded for steps back.
    func leavesAsIs(_ frame: AVFrame, deinterlace: DeinterlaceMode, toneMapping: ToneMapping) -> Bool {
        chain(for: frame, deinterlace: deinterlace, toneMapping: toneMapping).isEmpty
    }

    /// At the end of a loop pass or of the stream: the frames the filters
    /// still hold come out, and the graph goes (the next frame builds anew).
    package func drain(emit: Emit) {
        guard let graph else { return }
        do {
            try graph.push(nil)
            try pullAll(emit: emit)
        } catch {
            fail(error)
        }
        self.graph = nil
        graphKey = nil
    }

    /// After a seek: what the filters hold is stale; dropped with the graph.
    func reset() {
        graph = nil
        graphKey = nil
    }

    private func pullAll(emit: Emit) throws(MediaError) {
        guard let graph else { return }
        let outRate = graph.outputFrameRate
        // A phone's 30000090/1001003 times another such rate overflows Int32: FFmpeg reduces it.
        let scale = ContainerMath.quotient(frameRate, outRate) ?? AVRational(num: 1, den: 1)
        while try graph.pull(into: output) == .frame {
            emit(output.pointer, graph.outputTimeBase, scale)
            output.unref()
        }
    }

    private func fail(_ error: MediaError) {
        if let chain = graph?.description ?? graphKey?.chain, failedChain != chain {
            warning("video filters '\(chain)' failed (\(error)); frames go on unfiltered")
            failedChain = chain
        }
        graph = nil
    }

    private func build(_ key: Key, for frame: AVFrame) {
        do {
            graph = try FilterGraph(source: .video(width: frame.width, height: frame.height,
                                                   format: AVPixelFormat(frame.format), timeBase: timeBase,
                                                   sampleAspect: frame.sample_aspect_ratio, frameRate: frameRate),
                                    filters: key.chain)
            graphKey = key
        } catch {
            warning("video filters: \(error); frames go on unfiltered")
            failedChain = key.chain
            graph = nil
            graphKey = key
        }
    }

    private static func key(_ f: AVFrame, _ chain: String) -> Key {
        Key(width: f.width, height: f.height, format: f.format, sar: (f.sample_aspect_ratio.num, f.sample_aspect_ratio.den),
            colors: (f.colorspace.rawValue, f.color_trc.rawValue, f.color_primaries.rawValue, f.color_range.rawValue),
            chain: chain)
    }

    // MARK: What is wanted

    /// The filter chain for a frame like this one ("" for none).
    private func chain(for f: AVFrame, deinterlace: DeinterlaceMode, toneMapping: ToneMapping) -> String {
        var parts: [String] = []
        if f.interlaced_frame != 0 { sawInterlaced = true }
        let wantsDeinterlace = deinterlace == .yes || (deinterlace == .auto && (streamInterlaced || sawInterlaced))
        if wantsDeinterlace, let filter = VideoFilters.deinterlacer {
            // One picture per field, as mpv does: TV motion stays fluid.
            // `auto` leaves frames that say they are progressive alone.
            parts.append("\(filter)=mode=send_field:parity=auto:deint=\(deinterlace == .yes ? "all" : "interlaced")")
        }
        if toneMapping != .no, f.color_trc == AVCOL_TRC_SMPTE2084 || f.color_trc == AVCOL_TRC_ARIB_STD_B67,
           VideoFilters.canToneMap {
            parts.append(VideoFilters.toneMapChain(toneMapping))
        }
        if !orientation.isUpright, VideoFilters.canTurn { parts += orientation.filters }
        return parts.joined(separator: ",")
    }

    /// HDR (PQ or HLG, BT.2020) to SDR BT.709: to linear light at 100 nits
    /// reference white, BT.2020 to BT.709 primaries, the curve, back to
    /// BT.709's transfer; the last step to 8-bit RGB diffuses the rounding
    /// error, so 10-bit gradients show no bands.
    static func toneMapChain(_ curve: ToneMapping) -> String {
        "zscale=t=linear:npl=100,format=gbrpf32le,zscale=p=bt709,tonemap=tonemap=\(curve.rawValue):desat=0,"
            + "zscale=t=bt709:m=bt709:r=tv:d=error_diffusion,format=gbrp"
    }

    /// bwdif, else yadif; nil (said once under -v) when this FFmpeg has neither.
    private static let deinterlacer: String? = {
        for name in ["bwdif", "yadif"] where FilterGraph.isAvailable(name) { return name }
        FFmpegLog.noticeOnce("this FFmpeg has no deinterlacing filter (bwdif, yadif): interlaced video shows as it is")
        return nil
    }()

    package static let canToneMap: Bool = {
        let missing = ["zscale", "tonemap"].filter { !FilterGraph.isAvailable($0) }
        if !missing.isEmpty {
            FFmpegLog.noticeOnce("this FFmpeg lacks \(missing.joined(separator: ", ")): HDR video shows without tone mapping")
        }
        return missing.isEmpty
    }()

    private static let canTurn: Bool = {
        let missing = ["transpose", "hflip", "vflip"].filter { !FilterGraph.isAvailable($0) }
        if !missing.isEmpty {
            FFmpegLog.noticeOnce("this FFmpeg lacks \(missing.joined(separator: ", ")): rotated video shows as stored")
        }
        return missing.isEmpty
    }()

    // MARK: Colours

    /// A YUV frame whose colour matrix is not given gets mpv's guess
    /// (`Scaler.assumedMatrix`), so the filters and the scaler agree on it.
    static func fillInColorMatrix(_ frame: UnsafeMutablePointer<AVFrame>) {
        guard frame.pointee.colorspace == AVCOL_SPC_UNSPECIFIED,
              let format = av_pix_fmt_desc_get(AVPixelFormat(frame.pointee.format)),
              format.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0 else { return }
        frame.pointee.colorspace = Scaler.assumedMatrix(width: frame.pointee.width, height: frame.pointee.height)
    }
}
