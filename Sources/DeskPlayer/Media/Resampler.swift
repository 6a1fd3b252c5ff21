// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Owns a SwrContext converting decoded frames to `AudioFormat` (stereo float).
/// Reconfigures itself when the input format changes. One thread only.
package final class Resampler {
    let output: AudioFormat
    private var swr: OpaquePointer?
    private var inputRate: Int32 = 0
    private var inputFormat: Int32 = -1
    private var inputLayout = AVChannelLayout()
    /// Converted samples of the last call (interleaved), valid until the next call.
    package private(set) var buffer: UnsafeMutablePointer<Float>
    private var bufferFrames: Int

    package init(output: AudioFormat) {
        self.output = output
        bufferFrames = 8192
        buffer = .allocate(capacity: bufferFrames * output.channels)
    }

    deinit {
        swr_free(&swr)
        av_channel_layout_uninit(&inputLayout)
        buffer.deallocate()
    }

    private func configure(for frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        var layout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || frame.pointee.ch_layout.nb_channels == 0 {
            av_channel_layout_default(&layout, max(frame.pointee.ch_layout.nb_channels, 1))
        } else {
            av_channel_layout_copy(&layout, &frame.pointee.ch_layout)
        }
        defer { av_channel_layout_uninit(&layout) }
        if swr != nil, frame.pointee.sample_rate == inputRate, frame.pointee.format == inputFormat,
           av_channel_layout_compare(&layout, &inputLayout) == 0 {
            return
        }
        swr_free(&swr)
        var outLayout = dp_channel_layout_stereo()
        var ctx: OpaquePointer? = nil
        try MediaError.check(swr_alloc_set_opts2(&ctx, &outLayout, AV_SAMPLE_FMT_FLT, Int32(output.sampleRate),
                                                 &layout, AVSampleFormat(frame.pointee.format),
                                                 frame.pointee.sample_rate, 0, nil), "cannot set up resampler")
        if layout.nb_channels == 1 {
            // A mono source goes to both channels at full, equal gain.
            var matrix: [Double] = [1, 1]
            swr_set_matrix(ctx, &matrix, 1)
        }
        let ret = swr_init(ctx)
        if ret < 0 {
            swr_free(&ctx)
            throw MediaError(code: ret, context: "cannot set up resampler")
        }
        swr = ctx
        inputRate = frame.pointee.sample_rate
        inputFormat = frame.pointee.format
        av_channel_layout_uninit(&inputLayout)
        av_channel_layout_copy(&inputLayout, &layout)
    }

    /// Converts `frame` (or drains when nil). Returns the number of output
    /// frames now in `buffer` and, given the time of the frame's first
    /// sample, the exact time of the first output sample: earlier by the
    /// input still buffered inside the resampler.
    package func convert(_ frame: UnsafeMutablePointer<AVFrame>?, startingAt time: MediaTime? = nil)
        throws(MediaError) -> (count: Int, time: MediaTime?) {
        if let frame { try configure(for: frame) }
        guard let swr else { return (0, nil) }
        let scale = Int64(inputRate) * Int64(output.sampleRate)
        let outputTime = time.map { $0 - MediaTime(value: swr_get_delay(swr, scale), timescale: max(scale, 1)) }
        let inCount = frame.map { Int($0.pointee.nb_samples) } ?? 0
        let needed = Int(swr_get_out_samples(swr, Int32(inCount))) + 16
        if needed > bufferFrames {
            buffer.deallocate()
            bufferFrames = needed
            buffer = .allocate(capacity: bufferFrames * output.channels)
        }
        var outPlanes: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self)
        let converted: Int32
        if let frame {
            converted = withUnsafeMutablePointer(to: &outPlanes) { out in
                frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { input in
                    swr_convert(swr, out, Int32(bufferFrames), input, frame.pointee.nb_samples)
                }
            }
        } else {
            converted = withUnsafeMutablePointer(to: &outPlanes) { out in
                swr_convert(swr, out, Int32(bufferFrames), nil, 0)
            }
        }
        try MediaError.check(converted, "resampling failed")
        return (Int(converted), outputTime)
    }

    /// Drops buffered input (after a seek).
    package func reset() {
        swr_free(&swr)
        inputRate = 0
        inputFormat = -1
    }
}
