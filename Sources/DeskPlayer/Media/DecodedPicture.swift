// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// A reference to the planes of a decoded picture (the AVFrame the decoder,
/// or the filters after it, gave), kept beside its converted copy so the
/// comparison's loupe reads the video's own Y′CbCr code values: at the
/// video's resolution, through its chroma subsampling, at its bit depth.
/// Holds a reference, not a copy (FFmpeg counts the buffers' users), and
/// is only made while something reads it. Read-only once made.
package final class DecodedPicture: @unchecked Sendable {  // immutable after init; FFmpeg's buffer refs are thread-safe
    /// Code values at one pixel, as the file stores them.
    package struct CodeValues: Equatable, Sendable {
        package var y: Int
        /// nil for a grey (luma-only) picture.
        package var cb: Int?
        package var cr: Int?
        /// Bits per code value: 8, 10, 12…
        package var bits: Int
        /// Limited (16–235 at 8 bits, scaled for more) or full range.
        package var fullRange: Bool
    }

    private let frame: UnsafeMutablePointer<AVFrame>
    private let descriptor: UnsafePointer<AVPixFmtDescriptor>
    package let width: Int
    package let height: Int

    /// nil when the frame holds no Y′CbCr planes in memory (RGB, a
    /// hardware surface) or FFmpeg cannot reference it.
    package init?(referencing source: UnsafePointer<AVFrame>) {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(source.pointee.format)),
              descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_PAL
                                               | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_FLOAT) == 0,
              source.pointee.width > 0, source.pointee.height > 0,
              let f = av_frame_alloc() else { return nil }
        guard av_frame_ref(f, source) >= 0 else {
            var p: UnsafeMutablePointer<AVFrame>? = f
            av_frame_free(&p)
            return nil
        }
        frame = f
        self.descriptor = descriptor
        width = Int(source.pointee.width)
        height = Int(source.pointee.height)
    }

    deinit {
        var p: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&p)
    }

    /// The code values of pixel (x, y) (0-based, in the picture's own
    /// size); chroma is the sample that pixel shares (x >> log2 of the
    /// horizontal subsampling, the same down). nil outside the picture.
    package func codeValues(x: Int, y: Int) -> CodeValues? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let d = descriptor.pointee
        let bits = Int(d.comp.0.depth)
        let luma = read(component: 0, x: x, y: y)
        var values = CodeValues(y: luma, cb: nil, cr: nil, bits: bits, fullRange: frame.pointee.color_range == AVCOL_RANGE_JPEG)
        if d.nb_components >= 3 {
            let cx = x >> Int(d.log2_chroma_w), cy = y >> Int(d.log2_chroma_h)
            values.cb = read(component: 1, x: cx, y: cy)
            values.cr = read(component: 2, x: cx, y: cy)
        }
        return values
    }

    /// One component's value at (x, y) of its own plane: libavutil's
    /// reader, which knows every format's packing, shift and endianness.
    private func read(component: Int32, x: Int, y: Int) -> Int {
        var value: UInt32 = 0
        withUnsafePointer(to: frame.pointee.data) { dataTuple in
            withUnsafePointer(to: frame.pointee.linesize) { linesTuple in
                dataTuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { data in
                    linesTuple.withMemoryRebound(to: Int32.self, capacity: 8) { lines in
                        var planes: [UnsafePointer<UInt8>?] = (0..<4).map { UnsafePointer(data[$0]) }
                        planes.withUnsafeMutableBufferPointer { p in
                            av_read_image_line2(&value, p.baseAddress, lines, descriptor, Int32(x), Int32(y), component, 1, 0, 4)
                        }
                    }
                }
            }
        }
        return Int(value)
    }
}
