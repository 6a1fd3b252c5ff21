import CFFmpeg

/// The hardware side of one codec context: the device it decodes on, the
/// surface format its `get_format` asks for, and the copy of every decoded
/// surface back to system memory (`av_hwframe_transfer_data`), so the
/// renderer, subtitles, filters, screenshots and metrics see a software
/// frame as ever. Or, for tests, a simulated device (`HardwareFault`): the
/// context decodes in software and each frame passes the same copy step,
/// which fails when the fault says. One decode thread uses it.
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
            av_frame_move_ref(frame.pointer, surface.pointer)
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
