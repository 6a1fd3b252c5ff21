// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Which full-reference metrics to compute (`--compare-metrics psnr,ssim`).
package enum VideoMetric: String, CaseIterable, Sendable {
    case psnr
    case ssim

    /// "psnr,ssim" (either, any order) as a set; nil for anything else.
    package static func parseList(_ text: String) -> Set<VideoMetric>? {
        var metrics = Set<VideoMetric>()
        for word in text.split(separator: ",") {
            guard let metric = VideoMetric(rawValue: word.lowercased().filter { $0 != " " }) else { return nil }
            metrics.insert(metric)
        }
        return metrics.isEmpty ? nil : metrics
    }
}

/// One reference frame's values as FFmpeg's `psnr` and `ssim` filters put
/// them in its metadata (nil: not computed, or no frame of the other side
/// to measure against yet). PSNR in dB (infinite for identical planes),
/// SSIM from 0 to 1.
package struct FrameMetrics: Sendable, Equatable {
    package var psnrY: Double?
    package var psnrU: Double?
    package var psnrV: Double?
    package var psnrAverage: Double?
    package var ssimY: Double?
    package var ssimU: Double?
    package var ssimV: Double?
    package var ssimAll: Double?

    package var isEmpty: Bool { psnrAverage == nil && ssimAll == nil }

    /// The filters' keys: `lavfi.psnr.psnr.y` … (the components are named
    /// r/g/b for RGB video), `lavfi.ssim.Y` … `lavfi.ssim.All`.
    package init(metadata: OpaquePointer?) {
        func value(_ key: String) -> Double? {
            guard let entry = av_dict_get(metadata, key, nil, 0), let text = entry.pointee.value else { return nil }
            return Double(String(cString: text))
        }
        psnrY = value("lavfi.psnr.psnr.y") ?? value("lavfi.psnr.psnr.r")
        psnrU = value("lavfi.psnr.psnr.u") ?? value("lavfi.psnr.psnr.g")
        psnrV = value("lavfi.psnr.psnr.v") ?? value("lavfi.psnr.psnr.b")
        psnrAverage = value("lavfi.psnr.psnr_avg")
        ssimY = value("lavfi.ssim.Y") ?? value("lavfi.ssim.R")
        ssimU = value("lavfi.ssim.U") ?? value("lavfi.ssim.G")
        ssimV = value("lavfi.ssim.V") ?? value("lavfi.ssim.B")
        ssimAll = value("lavfi.ssim.All")
    }

    package init() {}
}

/// The metrics of one reference frame: its number (from 0) and time (s,
/// from the file's start, as FFmpeg's command line counts it).
package struct MeasuredFrame: Sendable, Equatable {
    package var index: Int
    package var time: Double
    package var metrics: FrameMetrics
    /// The reference's frame as coded, and the other side's frame paired with it (nil: none yet).
    package var coded: CodedFrame?
    package var otherCoded: CodedFrame?
}

/// A decoded frame as it was coded: its packet's size in bytes and its
/// picture type, as the decoder says (`AVFrame.pkt_size`, `pict_type`,
/// `key_frame`: what ffprobe's -show_frames prints).
package struct CodedFrame: Sendable, Equatable {
    package var size: Int
    /// "I", "P", "B" (FFmpeg's letter: also "S", "SI", "SP", "BI"; "?" unknown).
    package var type: String
    package var isKeyframe: Bool

    package init(size: Int, type: String, isKeyframe: Bool) {
        self.size = size
        self.type = type
        self.isKeyframe = isKeyframe
    }

    /// What the decoder said of `frame`.
    package init(_ frame: UnsafePointer<AVFrame>) {
        size = Int(max(frame.pointee.pkt_size, 0))
        let letter = av_get_picture_type_char(frame.pointee.pict_type)
        type = letter == 0 ? "?" : String(UnicodeScalar(UInt8(bitPattern: letter)))
        isKeyframe = frame.pointee.key_frame != 0
    }

    /// "P 18.2 kB" (kB of 1000 bytes), a keyframe's letter starred ("I* 95.0 kB").
    package var text: String {
        String(format: "%@%@ %.1f kB", type, isKeyframe && type != "I" ? "*" : "", Double(size) / 1000)
    }
}

/// FFmpeg's `psnr` and `ssim` filters between two videos in one FilterGraph:
/// the reference into the source "ref", the other side into "dist", scaled
/// to the reference's size when it differs. Each frame that comes out is a
/// reference frame carrying the values in its metadata; FFmpeg's framesync
/// pairs it with the other side's latest frame at or before its time, as
/// `ffmpeg -i A -i B -lavfi "[0:v][1:v]psnr"` does, so the numbers are
/// FFmpeg's. Used by one thread.
package final class MetricFilters {
    package let metrics: Set<VideoMetric>
    /// The other side is scaled to the reference's size.
    package let scalesOther: Bool
    private let graph: FilterGraph
    private let output: Frame
    private var count = 0

    /// What a buffer source needs of a side: its first frame's picture and
    /// the stream's time base and frame rate.
    package struct Side {
        package var width: Int32
        package var height: Int32
        package var format: AVPixelFormat
        package var sampleAspect: AVRational
        package var timeBase: AVRational
        package var frameRate: AVRational

        package init(frame: UnsafePointer<AVFrame>, timeBase: AVRational, frameRate: AVRational) {
            width = frame.pointee.width
            height = frame.pointee.height
            format = AVPixelFormat(frame.pointee.format)
            sampleAspect = frame.pointee.sample_aspect_ratio
            self.timeBase = timeBase
            self.frameRate = frameRate
        }

        package var source: FilterGraph.Source {
            .video(width: width, height: height, format: format, timeBase: timeBase, sampleAspect: sampleAspect,
                   frameRate: frameRate)
        }
    }

    /// The filter chain for `metrics`; `scale` is the reference's size when
    /// the other side must be scaled to it (FFmpeg's `scale`, bicubic).
    package static func chain(_ metrics: Set<VideoMetric>, scaleTo scale: (Int32, Int32)?) -> String {
        let resize = scale.map { "scale=\($0.0):\($0.1)," } ?? ""
        switch (metrics.contains(.psnr), metrics.contains(.ssim)) {
        case (true, true): return "[dist]\(resize)split[d0][d1];[ref][d0]psnr[p];[p][d1]ssim"
        case (false, true): return "[dist]\(resize)null[d];[ref][d]ssim"
        default: return "[dist]\(resize)null[d];[ref][d]psnr"
        }
    }

    /// `threads`: FFmpeg's slice threads for the metrics (0: as many as cores).
    package init(reference: Side, other: Side, metrics: Set<VideoMetric>, threads: Int32 = 0) throws(MediaError) {
        guard !metrics.isEmpty else { throw MediaError("no metric asked for") }
        self.metrics = metrics
        scalesOther = reference.width != other.width || reference.height != other.height
        let chain = MetricFilters.chain(metrics, scaleTo: scalesOther ? (reference.width, reference.height) : nil)
        graph = try FilterGraph(sources: [("ref", reference.source), ("dist", other.source)], filters: chain,
                                threads: threads)
        output = try Frame()
    }

    /// Hands a reference frame (its data is taken over); nil: no more.
    package func pushReference(_ frame: Frame?) throws(MediaError) { try graph.push(frame, into: 0) }

    /// Hands a frame of the other side; nil: it has ended (the reference's
    /// later frames are measured against its last one, as FFmpeg does).
    package func pushOther(_ frame: Frame?) throws(MediaError) { try graph.push(frame, into: 1) }

    /// Every reference frame measured so far, in order; `ended` once the
    /// last has come out.
    package func pull() throws(MediaError) -> (frames: [MeasuredFrame], ended: Bool) {
        var frames: [MeasuredFrame] = []
        let timeBase = graph.outputTimeBase
        while true {
            switch try graph.pull(into: output) {
            case .needsInput: return (frames, false)
            case .endOfStream: return (frames, true)
            case .frame:
                let pts = output.pointer.pointee.pts
                let time = pts == DP_AV_NOPTS_VALUE ? 0 : Double(pts) * av_q2d(timeBase)
                frames.append(MeasuredFrame(index: count, time: time, metrics: FrameMetrics(metadata: output.pointer.pointee.metadata)))
                count += 1
                output.unref()
            }
        }
    }
}
