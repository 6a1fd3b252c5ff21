// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Owns a SwsContext that converts decoded frames to 32-bit BGRA (SDL's
/// ARGB8888) at the size they are shown, so the main thread only copies.
/// A scaler for the video shown resizes through zimg instead
/// (`PlanarRGBResizer`: a closer picture for the same CPU); swscale stays
/// for the same size (its SIMD converter), for YUV out, and for whatever
/// zimg cannot take.
package final class Scaler {
    private var sws: OpaquePointer?
    private var resizer: PlanarRGBResizer?

    /// `display`: resizing to BGRA goes through zimg (the playing video);
    /// otherwise swscale's bilinear (thumbnails, covers, scopes: cheap).
    package init(display: Bool = false) {
        resizer = display && PlanarRGBResizer.isAvailable ? try? PlanarRGBResizer() : nil
    }

    deinit { sws_freeContext(sws) }

    /// Converts `frame` into `picture`, whose size decides the output size.
    package func scale(_ frame: UnsafeMutablePointer<AVFrame>, into picture: PictureBuffer) throws(MediaError) {
        let srcW = frame.pointee.width, srcH = frame.pointee.height
        let dstW = Int32(picture.width), dstH = Int32(picture.height)
        let sameSize = srcW == dstW && srcH == dstH
        if !sameSize, picture.layout == .bgra, let resizer {
            do {
                try resizer.scale(frame, into: picture)
                return
            } catch {
                self.resizer = nil  // zimg cannot take this video: swscale from now on
            }
        }
        // Same size needs no interpolation; bilinear is cheap and clean for
        // resizing. More than 8 bits a sample: full-precision chroma and
        // rounding, so the step down to 8 bits adds no bands of its own.
        let deep = av_pix_fmt_desc_get(AVPixelFormat(frame.pointee.format)).map { $0.pointee.comp.0.depth > 8 } ?? false
        let flags = (sameSize ? SWS_POINT : SWS_BILINEAR) | (deep ? SWS_FULL_CHR_H_INT | SWS_ACCURATE_RND : 0)
        let dstFormat = picture.layout == .bgra ? AV_PIX_FMT_BGRA : AV_PIX_FMT_YUV420P
        sws = sws_getCachedContext(sws, srcW, srcH, AVPixelFormat(frame.pointee.format),
                                   dstW, dstH, dstFormat, Int32(flags), nil, nil, nil)
        guard let sws else { throw MediaError("cannot convert \(srcW)x\(srcH) video for display") }
        applyColorspace(frame, to: picture)
        let planes = picture.planes
        var dstData: [UnsafeMutablePointer<UInt8>?] = planes.map { $0.pixels } + [nil]
        var dstStride: [Int32] = planes.map { Int32($0.pitch) } + [0]
        while dstData.count < 4 { dstData.append(nil); dstStride.append(0) }
        let rows = frame.pointee.data.0 != nil ? withUnsafePointer(to: frame.pointee.data) { dataTuple in
            dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                withUnsafePointer(to: frame.pointee.linesize) { strideTuple in
                    strideTuple.withMemoryRebound(to: Int32.self, capacity: 8) { srcStride in
                        sws_scale(sws, src, srcStride, 0, srcH, &dstData, &dstStride)
                    }
                }
            }
        } : -1
        if rows <= 0 { throw MediaError("video conversion failed") }
    }

    /// The colour matrix of video that does not say, as mpv guesses it:
    /// BT.709 for HD sizes (1280 wide or 720 high and up), BT.601 below.
    package static func assumedMatrix(width: Int32, height: Int32) -> AVColorSpace {
        width >= 1280 || height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M
    }

    /// Uses the frame's own matrix and range; unspecified, mpv's guess by
    /// size (the decode loop fills it in before filtering; a screenshot
    /// that needs no filter comes here with it unset). To YUV nothing is
    /// converted: the picture says which matrix its renderer is to use.
    private func applyColorspace(_ frame: UnsafeMutablePointer<AVFrame>, to picture: PictureBuffer) {
        let space: Int32
        switch frame.pointee.colorspace {
        case AVCOL_SPC_BT709: space = SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: space = SWS_CS_BT2020
        case AVCOL_SPC_SMPTE240M: space = SWS_CS_SMPTE240M
        case AVCOL_SPC_FCC: space = SWS_CS_FCC
        case AVCOL_SPC_UNSPECIFIED where Scaler.assumedMatrix(width: frame.pointee.width, height: frame.pointee.height) == AVCOL_SPC_BT709:
            space = SWS_CS_ITU709
        default: space = SWS_CS_DEFAULT
        }
        let fullRange: Int32 = frame.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
        let coefficients = sws_getCoefficients(space)
        switch picture.layout {
        case .bgra:
            _ = sws_setColorspaceDetails(sws, coefficients, fullRange, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                                         0, 1 << 16, 1 << 16)
        case .yuv420:
            _ = sws_setColorspaceDetails(sws, coefficients, fullRange, coefficients, fullRange, 0, 1 << 16, 1 << 16)
            picture.matrix = fullRange == 1 ? .fullRangeBT601 : space == SWS_CS_ITU709 ? .bt709 : .bt601
        }
    }
}
