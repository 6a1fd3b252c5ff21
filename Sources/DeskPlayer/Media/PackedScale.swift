// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// One packed picture (`pixels`, `height` rows `pitch` bytes apart)
/// converted by `sws` into `frame`'s planes; the rows written (0: failed).
/// What the PNG writer and the movie encoder both do with a drawn picture.
func scalePacked(_ sws: OpaquePointer, _ pixels: UnsafePointer<UInt8>, pitch: Int, height: Int32,
                 into frame: UnsafeMutablePointer<AVFrame>) -> Int32 {
    var src: [UnsafePointer<UInt8>?] = [pixels, nil, nil, nil]
    var srcStride: [Int32] = [Int32(clamping: pitch), 0, 0, 0]
    return withUnsafeMutablePointer(to: &frame.pointee.data) { dataTuple in
        dataTuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { dst in
            withUnsafePointer(to: frame.pointee.linesize) { strideTuple in
                strideTuple.withMemoryRebound(to: Int32.self, capacity: 8) { dstStride in
                    sws_scale(sws, &src, &srcStride, 0, height, dst, dstStride)
                }
            }
        }
    }
}
