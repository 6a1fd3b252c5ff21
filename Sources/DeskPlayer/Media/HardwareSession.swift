// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// The hardware side of one codec context: the device it decodes on, the
/// surface format its `get_format` asks for, and the copy of every decoded
/// surface back to system memory (`av_hwframe_transfer_data`), so the
/// renderer, subtitles, filters, screenshots and metrics see a software
/// frame as ever. Or, for tests, a simulated device (`HardwareFault`): the
/// context decodes in software and each frame passes the same copy step,
/// which fails when the fault says; 8-bit 4:2:0 comes out as NV12, as
/// VA-API's and NVDEC's copies do, so what follows sees what it would see
/// from a GPU. One decode thread uses it.
final class HardwareSession {
    /// nil: the simulated device.
    private let device: HardwareDevice?
    private let surfaceFormat: AVPixelFormat
    private let fault: HardwareFault?
    private var transfers = 0
    /// Where the context decodes to, before the copy.
    let surface: Frame

    /// What `hwdec-current` says.
    let name: String

    init(device: HardwareDevice, surfaceFormat: AVPixelFormat) throws(MediaError) {
        self.device = device
        self.surfaceFormat = surfaceFormat
        fault = nil
        surface = try Frame()
        name = device.method.copyName
    }

    init(simulating fault: HardwareFault) throws(MediaError) {
        device = nil
        surfaceFormat = AV_PIX_FMT_NONE
        self.fault = fault
        surface = try Frame()
        name = "simulated"
    }

    /// Sets a context up to decode on the device (before `avcodec_open2`).
    /// One thread, as mpv decodes in hardware: the GPU does the work.
    func configure(_ context: UnsafeMutablePointer<AVCodecContext>) throws(MediaError) {
        context.pointee.thread_count = 1
        guard let device else { return }
        guard let reference = av_buffer_ref(device.pointer) else { throw MediaError("out of memory (hardware device)") }
        context.pointee.hw_device_ctx = reference
        // The wanted format rides in `opaque` (the callback cannot capture):
        // stored plus one so that a format of 0 is not a null pointer.
        context.pointee.opaque = UnsafeMutableRawPointer(bitPattern: Int(surfaceFormat.rawValue) + 1)
        context.pointee.get_format = pickSurfaceFormat
    }

    /// Moves what the context decoded (`surface`) into `frame` in system
    /// memory. Throws when the surface cannot be copied, or when the
    /// context gave a software frame: its hwaccel refused the stream
    /// (profile, bit depth or size), and FFmpeg went on in software.
    func copyBack(into frame: Frame) throws(MediaError) {
        defer { surface.unref() }
        transfers += 1
        if let fault {
            guard transfers <= fault.transfersBeforeFailure else {
                throw MediaError("copying frame \(transfers) back failed (injected fault)")
            }
            if surface.pointer.pointee.format == AV_PIX_FMT_YUV420P.rawValue {
                try HardwareSession.copyAsNV12(surface, into: frame)
            } else {
                av_frame_move_ref(frame.pointer, surface.pointer)
            }
            return
        }
        guard surface.pointer.pointee.format == surfaceFormat.rawValue else {
            let format = av_get_pix_fmt_name(AVPixelFormat(rawValue: surface.pointer.pointee.format))
                .map { String(cString: $0) } ?? "?"
            throw MediaError("the hardware decoder cannot decode this stream (\(format))")
        }
        var ret = av_hwframe_transfer_data(frame.pointer, surface.pointer, 0)
        if ret >= 0 { ret = av_frame_copy_props(frame.pointer, surface.pointer) }
        if ret < 0 {
            frame.unref()
            throw MediaError(code: ret, context: "copying a frame back from the GPU failed")
        }
    }
}

extension HardwareSession {
    /// `source` (YUV 4:2:0, 8-bit) in NV12: the same samples, the chroma
    /// interleaved, as a GPU's surface is copied back.
    static func copyAsNV12(_ source: Frame, into frame: Frame) throws(MediaError) {
        let s = source.pointer
        let width = Int(s.pointee.width), height = Int(s.pointee.height)
        frame.pointer.pointee.format = AV_PIX_FMT_NV12.rawValue
        frame.pointer.pointee.width = s.pointee.width
        frame.pointer.pointee.height = s.pointee.height
        var ret = av_frame_get_buffer(frame.pointer, 0)
        if ret >= 0 { ret = av_frame_copy_props(frame.pointer, s) }
        guard ret >= 0, let y = s.pointee.data.0, let u = s.pointee.data.1, let v = s.pointee.data.2,
              let outY = frame.pointer.pointee.data.0, let outUV = frame.pointer.pointee.data.1 else {
            frame.unref()
            throw MediaError(code: ret < 0 ? ret : DP_AVERROR_EINVAL, context: "copying a frame back failed")
        }
        let (ys, us, vs) = (Int(s.pointee.linesize.0), Int(s.pointee.linesize.1), Int(s.pointee.linesize.2))
        let (outYs, outUVs) = (Int(frame.pointer.pointee.linesize.0), Int(frame.pointer.pointee.linesize.1))
        for row in 0..<height { (outY + row * outYs).update(from: y + row * ys, count: width) }
        let chromaWidth = (width + 1) / 2
        for row in 0..<(height + 1) / 2 {
            let out = outUV + row * outUVs, uRow = u + row * us, vRow = v + row * vs
            for x in 0..<chromaWidth {
                out[2 * x] = uRow[x]
                out[2 * x + 1] = vRow[x]
            }
        }
    }
}

/// `get_format`: the surface format stored in the context's `opaque` when
/// the decoder offers it, else FFmpeg's own choice (software).
private let pickSurfaceFormat: @convention(c) (UnsafeMutablePointer<AVCodecContext>?, UnsafePointer<AVPixelFormat>?)
    -> AVPixelFormat = { context, formats in
    guard let context, let formats else { return AV_PIX_FMT_NONE }
    let wanted = Int32(truncatingIfNeeded: Int(bitPattern: context.pointee.opaque) - 1)
    var candidate = formats
    while candidate.pointee != AV_PIX_FMT_NONE {
        if candidate.pointee.rawValue == wanted { return candidate.pointee }
        candidate += 1
    }
    return avcodec_default_get_format(context, formats)
}
