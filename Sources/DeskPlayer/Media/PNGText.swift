// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// The tEXt chunks of a PNG file (keyword and Latin-1 text, PNG 1.2
/// §11.3.4.3): added to the bytes FFmpeg's PNG encoder gives (it writes
/// none), and read back from a file, as the freedesktop thumbnail cache
/// keeps a picture's source URI and modification time in them.
package enum PNGText {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The longest chunk read: far more than any thumbnail's text or
    /// picture data chunk; a length past it is a damaged file.
    static let largestChunk = 1 << 26

    /// `png` with a tEXt chunk for each of `entries`, in their order, right
    /// after the IHDR chunk (before the picture data, so a reader that
    /// stops at the first IDAT sees them). Keywords are 1-79 Latin-1
    /// characters; text that is not Latin-1 is refused rather than mangled
    /// (a URI is percent-encoded ASCII, the rest is numbers and names).
    package static func adding(_ entries: [(keyword: String, text: String)], to png: [UInt8]) throws(MediaError) -> [UInt8] {
        // The signature, then IHDR: length 13, type, 13 bytes, CRC.
        let afterHeader = signature.count + 8 + 13 + 4
        guard png.count >= afterHeader, Array(png[0..<signature.count]) == signature,
              Array(png[12..<16]) == Array("IHDR".utf8) else { throw MediaError("not a PNG picture") }
        var out = Array(png[0..<afterHeader])
        for (keyword, text) in entries {
            guard (1...79).contains(keyword.unicodeScalars.count),
                  let key = latin1(keyword), let value = latin1(text), !key.contains(0), !value.contains(0) else {
                throw MediaError("PNG text \(keyword) cannot be written as Latin-1")
            }
            out += chunk("tEXt", key + [0] + value)
        }
        out += png[afterHeader...]
        return out
    }

    /// The tEXt chunks of `png` (keyword: text) up to its first IDAT chunk
    /// or its end; nil when it is not a PNG or its chunks do not add up.
    package static func read(_ png: [UInt8]) -> [String: String]? {
        guard png.count >= signature.count, Array(png[0..<signature.count]) == signature else { return nil }
        var found: [String: String] = [:]
        var at = signature.count
        while at + 12 <= png.count {
            let length = png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
            guard length <= largestChunk, at + 12 + length <= png.count else { return nil }
            let data = png[(at + 8)..<(at + 8 + length)]
            if type == "IDAT" || type == "IEND" { break }
            if type == "tEXt", let zero = data.firstIndex(of: 0) {
                found[text(data[data.startIndex..<zero])] = text(data[(zero + 1)...])
            }
            at += 12 + length
        }
        return found
    }

    /// One chunk: length, type, data, and the CRC-32 of type and data
    /// (libavutil's, the table PNG's own encoder uses).
    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var out = bigEndian(UInt32(data.count)) + typeBytes + data
        let body = typeBytes + data
        let crc = body.withUnsafeBufferPointer { b -> UInt32 in
            guard let base = b.baseAddress else { return 0 }
            return ~av_crc(av_crc_get_table(AV_CRC_32_IEEE_LE), UInt32.max, base, b.count)
        }
        out += bigEndian(crc)
        return out
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func latin1(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard scalar.value < 256 else { return nil }
            out.append(UInt8(scalar.value))
        }
        return out
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
