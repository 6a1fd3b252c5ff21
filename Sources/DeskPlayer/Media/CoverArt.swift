// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// A piece of media's cover picture, still encoded: the one the file
/// carries (ID3 APIC, a FLAC or Vorbis/Opus picture block, MP4's `covr`,
/// all of which FFmpeg gives as an attached picture stream), or an image
/// file beside it (`cover.jpg`, `folder.png`, `front.jpeg`…).
package struct CoverArt: Sendable, Equatable {
    /// The image formats a cover comes in that FFmpeg decodes.
    package enum Format: String, Sendable, CaseIterable {
        case png, jpeg, webp, bmp, gif

        init?(codec: AVCodecID) {
            switch codec {
            case AV_CODEC_ID_PNG: self = .png
            case AV_CODEC_ID_MJPEG: self = .jpeg
            case AV_CODEC_ID_WEBP: self = .webp
            case AV_CODEC_ID_BMP: self = .bmp
            case AV_CODEC_ID_GIF: self = .gif
            default: return nil
            }
        }

        /// The format the bytes say they are in (their magic numbers), as
        /// a file's name may lie.
        init?(sniffing bytes: [UInt8]) {
            func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
                bytes.count >= offset + magic.count && Array(bytes[offset..<(offset + magic.count)]) == magic
            }
            if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
            else if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
            else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { self = .webp }
            else if starts(Array("GIF8".utf8)) { self = .gif }
            else if starts(Array("BM".utf8)) { self = .bmp }
            else { return nil }
        }

        var codec: AVCodecID {
            switch self {
            case .png: return AV_CODEC_ID_PNG
            case .jpeg: return AV_CODEC_ID_MJPEG
            case .webp: return AV_CODEC_ID_WEBP
            case .bmp: return AV_CODEC_ID_BMP
            case .gif: return AV_CODEC_ID_GIF
            }
        }

        /// How a file of this type's name ends.
        var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    }

    package let bytes: [UInt8]
    package let format: Format
    /// The image file beside the media it came from; nil for a cover the file carries.
    package var path: String?

    /// The image type as a file name ends: "jpg", "png".
    package var fileExtension: String { format.fileExtension }

    // MARK: A cover beside the file

    /// The names a cover beside the media goes by, best first (the ones
    /// music players and mpv's `--cover-art-auto` look for), any case.
    static let besideNames = ["cover", "folder", "front"]
    static let besideExtensions = ["jpg", "jpeg", "png"]
    /// Bigger than any cover: a file this size beside the media is not one.
    static let besideLimit = 32 << 20

    /// The cover image in the folder of the local file at `mediaPath`:
    /// `cover`, else `folder`, else `front`, with .jpg, .jpeg or .png, in
    /// any case. Nil when there is none; `problem` hears about one that is
    /// there but cannot be read or is not an image.
    package static func beside(_ mediaPath: String, problem: (String) -> Void = { _ in }) -> CoverArt? {
        let folder = URL(fileURLWithPath: mediaPath).deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return nil }
        func rank(_ name: String) -> Int? {
            let lower = name.lowercased()
            let stem = (lower as NSString).deletingPathExtension, ext = (lower as NSString).pathExtension
            guard let n = besideNames.firstIndex(of: stem), let e = besideExtensions.firstIndex(of: ext) else { return nil }
            return n * besideExtensions.count + e
        }
        let candidates = names.compactMap { name in rank(name).map { (name, $0) } }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        for (name, _) in candidates {
            let path = folder.appendingPathComponent(name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= besideLimit else {
                problem("cover \(name): \(size >> 20) MB is too large for a cover picture")
                continue
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                problem("cover \(name): cannot be read")
                continue
            }
            let bytes = [UInt8](data)
            guard let format = Format(sniffing: bytes) else {
                problem("cover \(name): not a JPEG or PNG picture")
                continue
            }
            return CoverArt(bytes: bytes, format: format, path: path)
        }
        return nil
    }
}
