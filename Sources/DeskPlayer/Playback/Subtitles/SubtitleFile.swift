// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media

/// Subtitle files beside a video (SRT, ASS/SSA, WebVTT, PGS .sup): read
/// whole when loaded, since they are small and every event is wanted at once.
package enum SubtitleFile {
    /// The extensions looked for next to a video, as mpv's sub-auto=exact does.
    static let extensions = ["srt", "ass", "ssa", "vtt", "sup", "sub"]

    package static func isSubtitleFile(_ path: String) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// Files next to the local video `videoPath` with its base name: `movie.srt`, `movie.en.ass`.
    static func siblings(of videoPath: String) -> [String] {
        let url = URL(fileURLWithPath: videoPath)
        let folder = url.deletingLastPathComponent()
        let base = url.deletingPathExtension().lastPathComponent
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { name in
            guard isSubtitleFile(name), name.hasPrefix(base + ".") else { return false }
            // "movie.srt" or "movie.LANG.srt": at most one part between.
            let middle = (name as NSString).deletingPathExtension.dropFirst(base.count)
            return middle.isEmpty || (middle.hasPrefix(".") && !middle.dropFirst().contains("."))
        }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// The language a file name gives ("movie.en.srt" → "en"), if any.
    static func language(of path: String) -> String? {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let last = (stem as NSString).pathExtension
        return (2...3).contains(last.count) && last.allSatisfy(\.isLetter) ? last.lowercased() : nil
    }

    /// UTF-8 unless its high bytes mostly fail to form UTF-8 sequences (as
    /// Windows-1252 text does): one damaged line does not make a file Latin.
    static func looksLikeUTF8(_ bytes: Data) -> Bool {
        var valid = 0, invalid = 0, i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            let length = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0
            if length == 1 { i += 1; continue }
            if length > 1, bytes.endIndex - i >= length,
               bytes[(i + 1)..<(i + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) {
                valid += 1
                i += length
            } else {
                invalid += 1
                i += 1
            }
        }
        return valid >= invalid
    }

    /// The largest subtitle file loaded.
    static let sizeLimit = 256 << 20

    /// Reads every subtitle of the file at `path` into `tracks` as track `id`.
    static func load(_ path: String, id: Int, into tracks: SubtitleTracks) throws(MediaError) -> MediaTrack {
        // Every event is read and kept: a file past this (a film's PGS track is
        // tens of MB) is not a subtitle file to hold in memory.
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
        guard size <= SubtitleFile.sizeLimit else {
            throw MediaError("larger than \(SubtitleFile.sizeLimit >> 20) MiB, not loaded")
        }
        let input: MediaInput
        do {
            input = try MediaInput(location: MediaLocation(path), interrupt: InterruptFlag())
        } catch {
            throw MediaError(error.message.replacingOccurrences(of: "not a playable media file", with: "not a subtitle file"))
        }
        guard let index = input.bestStream(AVMEDIA_TYPE_SUBTITLE), let stream = input.stream(index) else {
            throw MediaError("not a subtitle file")
        }
        // FFmpeg wants UTF-8 text; older files are often Windows-1252.
        // The first MiB tells the encoding.
        let bytes = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: path)).read(upToCount: 1 << 20)) ?? Data()
        let found = MediaTrack(stream: stream, id: id)
        let options = !found.isBitmap && !looksLikeUTF8(bytes) ? ["sub_charenc": "WINDOWS-1252"] : [:]
        let decoder = try Decoder(stream: stream, threads: 1, options: options)
        let track = MediaTrack(id: id, kind: .subtitle, codec: found.codec, language: found.language ?? language(of: path),
                               title: found.title, isBitmap: found.isBitmap, externalPath: path)
        guard tracks.addTrack(track, header: decoder.subtitleHeader, canvas: decoder.subtitleCanvas) else {
            throw MediaError("cannot set up the subtitle renderer")
        }
        var count = 0
        do {
            let packet = try Packet()
            while try input.read(into: packet) {
                if Int(packet.streamIndex) == index, let subtitle = decoder.decodeSubtitle(packet, origin: .zero) {
                    tracks.add(subtitle, to: id)
                    count += 1
                }
                packet.unref()
            }
        } catch {
            // A damaged file: keep the subtitles read before the damage.
            if count == 0 { tracks.removeTrack(id); throw error }
        }
        if count == 0 {
            tracks.removeTrack(id)
            throw MediaError("no subtitle in it could be read")
        }
        return track
    }
}
