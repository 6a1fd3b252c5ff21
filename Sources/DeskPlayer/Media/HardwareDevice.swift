// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Owns one opened hardware device (an AVHWDeviceContext in its AVBufferRef):
/// what a codec context decodes on. Each decoder using it holds a reference
/// of its own (`av_buffer_ref`), so this one can go first.
final class HardwareDevice {
    let pointer: UnsafeMutablePointer<AVBufferRef>
    let method: HardwareMethod

    /// Opens the default device for `method`; refuses at once, without the
    /// driver's noise, where the machine plainly has none.
    init(_ method: HardwareMethod) throws(MediaError) {
        if let missing = method.missingDevice() { throw MediaError(missing) }
        var device: UnsafeMutablePointer<AVBufferRef>?
        let ret = av_hwdevice_ctx_create(&device, method.deviceType, nil, nil, 0)
        guard ret >= 0, let device else {
            throw MediaError(code: ret < 0 ? ret : DP_AVERROR_ENOMEM, context: "cannot open the \(method.rawValue) device")
        }
        pointer = device
        self.method = method
    }

    deinit {
        var p: UnsafeMutablePointer<AVBufferRef>? = pointer
        av_buffer_unref(&p)
    }

    /// The surface format `codec` decodes to on this device, when it can.
    func surfaceFormat(for codec: UnsafePointer<AVCodec>) -> AVPixelFormat? {
        var index: Int32 = 0
        while let config = avcodec_get_hw_config(codec, index) {
            index += 1
            if config.pointee.device_type == method.deviceType,
               config.pointee.methods & Int32(AV_CODEC_HW_CONFIG_METHOD_HW_DEVICE_CTX) != 0 {
                return config.pointee.pix_fmt
            }
        }
        return nil
    }
}
