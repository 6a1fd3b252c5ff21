// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Owns a copy of a stream's AVCodecParameters: what a decoder is made
/// from, kept so that it can be made again after the stream itself is gone
/// (an HLS input is opened anew to rewind it, freeing its streams).
package final class CodecParameters: @unchecked Sendable {  // immutable after init; read by its decoder's one thread
    package let pointer: UnsafeMutablePointer<AVCodecParameters>

    package init(copying source: UnsafePointer<AVCodecParameters>) throws(MediaError) {
        guard let p = avcodec_parameters_alloc() else { throw MediaError("out of memory (codec parameters)") }
        pointer = p
        try MediaError.check(avcodec_parameters_copy(p, source), "cannot copy codec parameters")
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&p)
    }
}
