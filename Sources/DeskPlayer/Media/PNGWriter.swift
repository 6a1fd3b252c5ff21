// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// Owns a PNG encoder context (FFmpeg's): turns a BGRA picture into the
/// bytes of a PNG file.
package final class PNGEncoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let frame: Frame
    private let packet: Packet
    private var sws: OpaquePointer?

    package init(width: Int, height: Int) throws(MediaError) {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG), let ctx = avcodec_alloc_context3(codec) else {
            throw MediaError("this FFmpeg has no PNG encoder")
        }
        context = ctx
        ctx.pointee.width = Int32(width)
        ctx.pointee.height = Int32(height)
        ctx.pointee.pix_fmt = AV_PIX_FMT_RGB24
        ctx.pointee.time_base = AVRational(num: 1, den: 1)
        frame = try Frame()
        packet = try Packet()
        try MediaError.check(avcodec_open2(ctx, codec, nil), "cannot open the PNG encoder")
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
        try MediaError.check(av_frame_get_buffer(frame.pointer, 0), "out of memory (PNG frame)")
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
        sws_freeContext(sws)
    }

    /// The PNG of `pixels` (BGRA rows `pitch` bytes apart, the size given at init).
    package func encode(bgra pixels: UnsafePointer<UInt8>, pitch: Int) throws(MediaError) -> Data {
        let w = context.pointee.width, h = context.pointee.height
        sws = sws_getCachedContext(sws, w, h, AV_PIX_FMT_BGRA, w, h, AV_PIX_FMT_RGB24, Int32(SWS_POINT), nil, nil, nil)
        guard let sws else { throw MediaError("cannot convert the picture for PNG") }
        let f = frame.pointer
        let rows = scalePacked(sws, pixels, pitch: pitch, height: h, into: f)
        guard rows > 0 else { throw MediaError("picture conversion failed") }
        try MediaError.check(avcodec_send_frame(context, f), "PNG encoding failed")
        try MediaError.check(avcodec_receive_packet(context, packet.pointer), "PNG encoding failed")
        defer { packet.unref() }
        return Data(bytes: packet.pointer.pointee.data, count: packet.size)
    }
}
