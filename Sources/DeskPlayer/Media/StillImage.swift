// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// One still picture (a cover) decoded with FFmpeg's image decoders into
/// BGRA, and such a picture scaled to another size with libswscale. Both
/// run off the main thread (the item's opening thread, a cover's scaling
/// thread), which then only copies the result.
package enum StillImage {
    /// Larger than any picture a decoder or texture should be asked for:
    /// a damaged header, not a cover.
    static let largestSide = 16384
    /// The most pixels a cover may have (a 6000x6000 scan has 36 million):
    /// the decoder refuses more before it allocates a frame, so a header
    /// that lies costs nothing.
    static let largestPixels: Int64 = 40_000_000

    /// The picture in `bytes`, in BGRA at its own size or, when a side is
    /// longer than `maxSide`, scaled down to fit it (aspect kept). Pixels
    /// that are see-through are laid on `background`, since the picture is
    /// drawn without blending.
    package static func decode(_ bytes: [UInt8], format: CoverArt.Format, maxSide: Int,
                       background: (UInt8, UInt8, UInt8) = (0, 0, 0)) throws(MediaError) -> PictureBuffer {
        let codec = try ImageCodec(format.codec)
        let frame = try Frame()
        try codec.decode(bytes, into: frame)
        let w = Int(frame.pointer.pointee.width), h = Int(frame.pointer.pointee.height)
        guard w > 0, h > 0 else { throw MediaError("the picture has no size") }
        guard w <= largestSide, h <= largestSide else { throw MediaError("the picture is too large (\(w)x\(h))") }
        let (fw, fh) = fitted(width: w, height: h, maxSide: maxSide)
        let picture = PictureBuffer(width: fw, height: fh)
        try Scaler().scale(frame.pointer, into: picture)
        let format = AVPixelFormat(frame.pointer.pointee.format)
        if let descriptor = av_pix_fmt_desc_get(format), descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
            || format == AV_PIX_FMT_PAL8 {
            flatten(picture, onto: background)
        }
        return picture
    }

    /// `picture` scaled to `width` x `height` (a new buffer).
    package static func scaled(_ picture: PictureBuffer, width: Int, height: Int, with scaler: Scaler) throws(MediaError) -> PictureBuffer {
        // An AVFrame that borrows the picture's pixels (no buffer of its
        // own, so freeing it frees nothing of the picture's).
        let frame = try Frame()
        let f = frame.pointer
        f.pointee.width = Int32(picture.width)
        f.pointee.height = Int32(picture.height)
        f.pointee.format = AV_PIX_FMT_BGRA.rawValue
        f.pointee.data.0 = picture.pixels
        f.pointee.linesize.0 = Int32(picture.pitch)
        defer {
            f.pointee.data.0 = nil
            f.pointee.linesize.0 = 0
        }
        let out = PictureBuffer(width: width, height: height)
        try scaler.scale(f, into: out)
        return out
    }

    /// `width` x `height` scaled down (never up) so neither side passes `maxSide`.
    static func fitted(width: Int, height: Int, maxSide: Int) -> (Int, Int) {
        let longest = max(width, height)
        guard longest > maxSide, maxSide > 0 else { return (width, height) }
        let scale = Double(maxSide) / Double(longest)
        return (max(1, Int(saturating: (Double(width) * scale).rounded())), max(1, Int(saturating: (Double(height) * scale).rounded())))
    }

    /// Lays each pixel on an opaque background by its alpha.
    private static func flatten(_ picture: PictureBuffer, onto background: (UInt8, UInt8, UInt8)) {
        let (r, g, b) = (UInt32(background.0), UInt32(background.1), UInt32(background.2))
        for y in 0..<picture.height {
            let row = picture.pixels + y * picture.pitch
            for x in 0..<picture.width {
                let p = row + x * 4  // B, G, R, A
                let a = UInt32(p[3])
                guard a != 255 else { continue }
                p[0] = UInt8((UInt32(p[0]) * a + b * (255 - a) + 127) / 255)
                p[1] = UInt8((UInt32(p[1]) * a + g * (255 - a) + 127) / 255)
                p[2] = UInt8((UInt32(p[2]) * a + r * (255 - a) + 127) / 255)
                p[3] = 255
            }
        }
    }
}

/// Owns the codec context of one still-picture decode, freed in deinit.
private final class ImageCodec {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let name: String

    init(_ id: AVCodecID) throws(MediaError) {
        let name = avcodec_get_name(id).map { String(cString: $0) } ?? "?"
        guard let codec = avcodec_find_decoder(id) else { throw MediaError("this FFmpeg has no \(name) decoder") }
        guard let ctx = avcodec_alloc_context3(codec) else { throw MediaError("out of memory (picture decoder)") }
        context = ctx
        self.name = name
        ctx.pointee.thread_count = 1
        ctx.pointee.max_pixels = StillImage.largestPixels
        try MediaError.check(avcodec_open2(ctx, codec, nil), "cannot open the \(name) decoder")
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// The first picture in `bytes` (the whole encoded image, one packet).
    func decode(_ bytes: [UInt8], into frame: Frame) throws(MediaError) {
        guard !bytes.isEmpty, bytes.count < Int(Int32.max) - 64 else { throw MediaError("the picture is empty or too large") }
        let packet = try Packet()
        try MediaError.check(av_new_packet(packet.pointer, Int32(bytes.count)), "out of memory (picture)")
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress { packet.pointer.pointee.data.update(from: base, count: bytes.count) }
        }
        try MediaError.check(avcodec_send_packet(context, packet.pointer), "\(name) picture")
        _ = avcodec_send_packet(context, nil)  // no more: the decoder gives what it has
        try MediaError.check(avcodec_receive_frame(context, frame.pointer), "\(name) picture")
    }
}
