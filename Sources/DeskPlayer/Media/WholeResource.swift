// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// Owns an AVIOContext opened for reading one resource whole through
/// FFmpeg's protocols (a playlist, a stream segment), with the location's
/// protocol whitelist and an interrupt flag that makes it give up.
package final class WholeResource {
    private var context: UnsafeMutablePointer<AVIOContext>?

    package init(_ location: MediaLocation, interrupt: InterruptFlag) throws(MediaError) {
        var callback = AVIOInterruptCB(callback: interruptCallback, opaque: Unmanaged.passUnretained(interrupt).toOpaque())
        var options: OpaquePointer? = nil
        av_dict_set(&options, "protocol_whitelist", location.protocolWhitelist, 0)
        av_dict_set(&options, "rw_timeout", "10000000", 0)  // 10 s, in µs
        let ret = avio_open2(&context, location.url, AVIO_FLAG_READ, &callback, &options)
        av_dict_free(&options)
        try MediaError.check(ret, "cannot open \(location.url)")
    }

    deinit { avio_closep(&context) }

    /// Everything, up to `limit` bytes (a playlist is small; anything bigger
    /// is not one): the first `limit` bytes of a bigger resource.
    package func readAll(limit: Int = 1 << 20) throws(MediaError) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while data.count < limit {
            let n = avio_read(context, &buffer, Int32(min(buffer.count, limit - data.count)))
            if n == DP_AVERROR_EOF || n == 0 { break }
            try MediaError.check(n, "read error")
            data.append(contentsOf: buffer[0..<Int(n)])
        }
        return data
    }

    /// Everything, or an error when it is bigger than `limit` bytes.
    package func readWhole(limit: Int) throws(MediaError) -> Data {
        let data = try readAll(limit: limit + 1)
        guard data.count <= limit else { throw MediaError("bigger than \(limit >> 20) MB") }
        return data
    }
}
