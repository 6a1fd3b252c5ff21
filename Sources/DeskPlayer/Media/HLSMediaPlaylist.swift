// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The segments of an HLS media playlist and where each lies on the
/// stream's timeline (the sum of the `#EXTINF` durations before it, as
/// FFmpeg's HLS demuxer places them when it seeks), so one segment can be
/// read for the picture of a time without the demuxer (seek-bar thumbnails).
package struct HLSMediaPlaylist: Sendable, Equatable {
    package struct Segment: Sendable, Equatable {
        /// The URI, resolved against the playlist's.
        package let uri: String
        package let start: Double
        package let duration: Double
        package var end: Double { start + duration }
    }

    package private(set) var segments: [Segment] = []
    /// The `#EXT-X-MAP` (fMP4's initialisation section), resolved; it goes
    /// in front of a segment to make a file FFmpeg can read on its own.
    package private(set) var initSection: String?
    /// `#EXT-X-ENDLIST` or a VOD playlist type: the list will not change.
    package private(set) var isEnded = false
    /// Segments that cannot be read one by one as whole resources: an
    /// encryption key or byte ranges (of one resource) are in the way.
    package private(set) var needsDemuxer = false

    /// Parses `text`, URIs resolved against `base`; nil when it is not a
    /// media playlist (no `#EXTINF`: a master playlist or anything else).
    package init?(_ text: String, base: String) {
        var duration: Double?
        var start = 0.0
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#EXTINF:") {
                let value = line.dropFirst("#EXTINF:".count).split(separator: ",", maxSplits: 1).first ?? ""
                duration = Double(value.trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("#EXT-X-ENDLIST") || line == "#EXT-X-PLAYLIST-TYPE:VOD" {
                isEnded = true
            } else if line.hasPrefix("#EXT-X-BYTERANGE") {
                needsDemuxer = true
            } else if line.hasPrefix("#EXT-X-KEY:") {
                let method = HLSMaster.parseAttributes(String(line.dropFirst("#EXT-X-KEY:".count)))["METHOD"]
                if method != "NONE" { needsDemuxer = true }
            } else if line.hasPrefix("#EXT-X-MAP:") {
                let attributes = HLSMaster.parseAttributes(String(line.dropFirst("#EXT-X-MAP:".count)))
                if attributes["BYTERANGE"] != nil { needsDemuxer = true }
                initSection = attributes["URI"].map { HLSMediaPlaylist.resolve($0, against: base) }
            } else if !line.isEmpty && !line.hasPrefix("#"), let length = duration {
                let length = max(length, 0)
                segments.append(Segment(uri: HLSMediaPlaylist.resolve(line, against: base), start: start, duration: length))
                start += length
                duration = nil
            }
        }
        if segments.isEmpty { return nil }
    }

    /// The index of the segment holding `seconds` of the timeline (the last
    /// one for a time at or past the end); nil before any segment.
    package func segment(at seconds: Double) -> Int? {
        guard seconds >= 0, !segments.isEmpty else { return nil }
        var low = 0, high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= seconds { low = middle } else { high = middle - 1 }
        }
        return low
    }

    static func resolve(_ uri: String, against base: String) -> String {
        URL(string: uri, relativeTo: URL(string: base))?.absoluteString ?? uri
    }
}
