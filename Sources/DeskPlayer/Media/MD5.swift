// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// MD5 digests by libavutil's `av_md5_sum`: the freedesktop thumbnail
/// cache names each picture by the MD5 of its file's URI. (MD5 is what
/// the standard asks for, not a security measure.)
package enum MD5 {
    /// The digest of `bytes` as 32 lowercase hexadecimal digits.
    package static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        bytes.withUnsafeBufferPointer { source in
            digest.withUnsafeMutableBufferPointer { out in
                // av_md5_sum reads nothing when the length is 0, so an empty input's missing base is never used.
                if let target = out.baseAddress { av_md5_sum(target, source.baseAddress, source.count) }
            }
        }
        return digest.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 16 ? "0" + digits : digits
        }.joined()
    }

    package static func hex(_ text: String) -> String { hex(Array(text.utf8)) }
}
