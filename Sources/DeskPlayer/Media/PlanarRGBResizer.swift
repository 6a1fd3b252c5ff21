// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Resizes a decoded picture and turns it into BGRA through libavfilter's
/// `zscale` (zimg, what mpv draws with): bicubic on every channel, chroma
/// upsampled properly before the matrix. Against a lanczos reference of a
/// detailed 1080p frame shown at 1280x720 it is 3–4 dB closer than
/// swscale's bilinear (whose packed-RGB output takes chroma from the
/// nearest sample) and costs about the same; swscale's own full-chroma
/// path would cost twice as much (bench/lighter.sh). zimg writes planar
/// RGB; `pack` interleaves it into the picture.
/// Owns its filter graph, rebuilt when the input or the size changes.
package final class PlanarRGBResizer {
    private struct Key: Equatable {
        var width: Int32, height: Int32, format: Int32
        var colorspace: UInt32, range: UInt32, primaries: UInt32, transfer: UInt32
        var outWidth: Int, outHeight: Int
    }

    private var graph: FilterGraph?
    private var key: Key?
    private let input: Frame
    private let output: Frame

    package init() throws(MediaError) {
        input = try Frame()
        output = try Frame()
    }

    /// Whether this FFmpeg was built with zimg (Debian's is).
    package static let isAvailable = FilterGraph.isAvailable("zscale")

    /// Resizes `frame` into `picture` (BGRA, whose size is the output's).
    /// Throws when zimg cannot take this input (a matrix it does not know):
    /// the caller then converts with swscale.
    package func scale(_ frame: UnsafeMutablePointer<AVFrame>, into picture: PictureBuffer) throws(MediaError) {
        try resize(frame, width: picture.width, height: picture.height, into: output)
        defer { output.unref() }
        try pack(output.pointer, into: picture)
    }

    /// Resizes `frame` into `result` as zimg gives it: 8-bit planar RGB
    /// (GBRP) at `width` x `height`, before the packing into BGRA. Playing
    /// backward, the prefetch thread keeps the pictures so (smaller than a
    /// decoded 1080p or 2160p frame, and what is left for the thread that
    /// draws is the packing: the same pixels as `scale` gives).
    package func resize(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int,
                        into result: Frame) throws(MediaError) {
        let f = frame.pointee
        let wanted = Key(width: f.width, height: f.height, format: f.format, colorspace: f.colorspace.rawValue,
                         range: f.color_range.rawValue, primaries: f.color_primaries.rawValue,
                         transfer: f.color_trc.rawValue, outWidth: width, outHeight: height)
        if key != wanted || graph == nil {
            graph = nil
            key = wanted
            graph = try FilterGraph(source: .video(width: f.width, height: f.height, format: AVPixelFormat(f.format),
                                                   timeBase: AVRational(num: 1, den: 1000), sampleAspect: f.sample_aspect_ratio,
                                                   frameRate: AVRational(num: 0, den: 0)),
                                    filters: PlanarRGBResizer.chain(for: f, width: width, height: height))
        }
        guard let graph else { throw MediaError("no zscale graph") }
        input.unref()
        try MediaError.check(av_frame_ref(input.pointer, frame), "cannot reference the frame to scale")
        try graph.push(input)
        result.unref()
        guard try graph.pull(into: result) == .frame else { throw MediaError("zscale gave no picture") }
        let r = result.pointer.pointee
        guard r.format == AV_PIX_FMT_GBRP.rawValue, Int(r.width) == width, Int(r.height) == height else {
            result.unref()
            throw MediaError("zscale gave another picture")
        }
    }

    /// zscale to 8-bit planar RGB at the size shown. The input's matrix and
    /// range come with each frame; where the frame leaves them unset, the
    /// size-based guess (as mpv) and limited range are written in, since
    /// zimg refuses to guess.
    private static func chain(for f: AVFrame, width: Int, height: Int) -> String {
        var options = "w=\(width):h=\(height):filter=bicubic"
        if f.colorspace == AVCOL_SPC_UNSPECIFIED {
            options += Scaler.assumedMatrix(width: f.width, height: f.height) == AVCOL_SPC_BT709 ? ":min=709" : ":min=170m"
        }
        if f.color_range == AVCOL_RANGE_UNSPECIFIED { options += ":rin=limited" }
        // Primaries and transfer are left as they come: only the matrix and range change here.
        if f.color_primaries == AVCOL_PRI_UNSPECIFIED { options += ":pin=709:p=709" }
        if f.color_trc == AVCOL_TRC_UNSPECIFIED { options += ":tin=709:t=709" }
        return "zscale=\(options),format=gbrp"
    }

    /// Interleaves zimg's planes (G, B, R) into BGRA, opaque.
    private func pack(_ frame: UnsafeMutablePointer<AVFrame>, into picture: PictureBuffer) throws(MediaError) {
        let f = frame.pointee
        guard Int(f.width) == picture.width, Int(f.height) == picture.height, let g = f.data.0, let b = f.data.1, let r = f.data.2 else { throw MediaError("zscale gave another picture") }
        let (gs, bs, rs) = (Int(f.linesize.0), Int(f.linesize.1), Int(f.linesize.2))
        let width = picture.width, pitch = picture.pitch
        picture.pixels.withMemoryRebound(to: UInt8.self, capacity: pitch * picture.height) { base in
            for y in 0..<picture.height {
                let row = UnsafeMutableRawPointer(base + y * pitch).assumingMemoryBound(to: UInt32.self)
                let gr = g + y * gs, br = b + y * bs, rr = r + y * rs
                for x in 0..<width {
                    row[x] = UInt32(br[x]) | UInt32(gr[x]) << 8 | UInt32(rr[x]) << 16 | 0xFF00_0000
                }
            }
        }
    }
}
