// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// One variant of an HLS master playlist (`#EXT-X-STREAM-INF`).
package struct HLSVariant: Sendable, Equatable {
    package var uri: String
    package var bandwidth: Int
    var width: Int?
    var height: Int?
    /// The group of alternate audio renditions it plays with (`AUDIO=`).
    package var audioGroup: String? = nil

    package var label: String {
        let size = width.flatMap { w in height.map { "\(w)x\($0) " } } ?? ""
        return size + String(format: "%.2f Mbit/s", Double(bandwidth) / 1e6)
    }
}

/// An alternate audio rendition of an HLS master playlist (`#EXT-X-MEDIA`).
package struct HLSRendition: Sendable, Equatable {
    var group: String
    var name: String?
    var language: String?
    var isDefault: Bool
    package var uri: String
}

/// Picking a variant before FFmpeg sees the stream: FFmpeg's HLS demuxer
/// reads a segment of every variant while probing, so DeskPlayer reads the
/// master playlist itself and opens only the chosen variant's playlist. No
/// other variant's segment is ever requested.
package enum HLSMaster {
    /// The largest BANDWIDTH taken from a playlist, in bits per second; larger is read as this.
    package static let bandwidthLimit = 1_000_000_000_000
    /// The largest RESOLUTION side taken; a larger one is ignored.
    package static let sideLimit = 65_536

    /// The variants of a master playlist, URIs resolved against `base`;
    /// empty for a media playlist (or anything else).
    package static func variants(in text: String, base: String) -> [HLSVariant] {
        var variants: [HLSVariant] = []
        var pending: HLSVariant?
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                let attributes = parseAttributes(String(line.dropFirst("#EXT-X-STREAM-INF:".count)))
                // A server's numbers within what any stream has (a terabit, 64K
                // pixels), so arithmetic on them (cache sizes, ordering) cannot overflow.
                let bandwidth = Int(attributes["BANDWIDTH"] ?? "").map { min(max($0, 0), HLSMaster.bandwidthLimit) } ?? 0
                var v = HLSVariant(uri: "", bandwidth: bandwidth)
                if let resolution = attributes["RESOLUTION"]?.split(separator: "x"), resolution.count == 2,
                   let width = Int(resolution[0]), let height = Int(resolution[1]),
                   (1...HLSMaster.sideLimit).contains(width), (1...HLSMaster.sideLimit).contains(height) {
                    v.width = width
                    v.height = height
                }
                v.audioGroup = attributes["AUDIO"]
                pending = v
            } else if !line.isEmpty && !line.hasPrefix("#"), var v = pending {
                v.uri = URL(string: line, relativeTo: URL(string: base))?.absoluteString ?? line
                variants.append(v)
                pending = nil
            }
        }
        return variants
    }

    /// The alternate audio renditions (`#EXT-X-MEDIA:TYPE=AUDIO` with a URI).
    package static func audioRenditions(in text: String, base: String) -> [HLSRendition] {
        text.split(whereSeparator: \.isNewline).compactMap { raw -> HLSRendition? in
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("#EXT-X-MEDIA:") else { return nil }
            let a = parseAttributes(String(line.dropFirst("#EXT-X-MEDIA:".count)))
            guard a["TYPE"] == "AUDIO", let group = a["GROUP-ID"], let uri = a["URI"] else { return nil }
            return HLSRendition(group: group, name: a["NAME"], language: a["LANGUAGE"], isDefault: a["DEFAULT"] == "YES",
                                uri: URL(string: uri, relativeTo: URL(string: base))?.absoluteString ?? uri)
        }
    }

    /// The rendition of `group` to play: the preferred language, else the
    /// default one, else the first.
    package static func chooseAudio(_ renditions: [HLSRendition], group: String?, languages: [String]) -> HLSRendition? {
        let inGroup = renditions.filter { $0.group == group }
        for wanted in languages {
            if let r = inGroup.first(where: { LanguageCode.matches(wanted, $0.language) }) { return r }
        }
        return inGroup.first(where: \.isDefault) ?? inGroup.first
    }

    /// A master playlist of just `variant` and its one audio rendition, for
    /// FFmpeg to open in place of the real one: nothing else is fetched.
    package static func playlist(for variant: HLSVariant, audio: HLSRendition) -> String {
        var media = "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"\(audio.group)\",NAME=\"\(audio.name ?? "audio")\",DEFAULT=YES,AUTOSELECT=YES"
        if let language = audio.language { media += ",LANGUAGE=\"\(language)\"" }
        media += ",URI=\"\(audio.uri)\""
        var info = "#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),AUDIO=\"\(audio.group)\""
        if let w = variant.width, let h = variant.height { info += ",RESOLUTION=\(w)x\(h)" }
        return "#EXTM3U\n\(media)\n\(info)\n\(variant.uri)\n"
    }

    /// `NAME=value,NAME="quoted, value"` as HLS writes attribute lists.
    static func parseAttributes(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var name = "", value = "", inName = true, quoted = false
        func finish() {
            if !name.isEmpty { result[name.trimmingCharacters(in: .whitespaces)] = value }
            name = ""; value = ""; inName = true
        }
        for c in text {
            if inName {
                if c == "=" { inName = false } else if c != "," { name.append(c) }
            } else if c == "\"" {
                quoted.toggle()
            } else if c == "," && !quoted {
                finish()
            } else {
                value.append(c)
            }
        }
        finish()
        return result
    }

    /// The best variant within the limits: the highest bandwidth that fits;
    /// when none fits, the smallest there is. Without limits, the highest.
    package static func choose(_ variants: [HLSVariant], maxWidth: Int?, maxHeight: Int?, maxBitrate: Int?) -> HLSVariant? {
        ranked(variants, maxWidth: maxWidth, maxHeight: maxHeight, maxBitrate: maxBitrate).first
    }

    /// Every variant, best first: those within the limits from the highest
    /// bandwidth down, then the others from the smallest up (the next best
    /// to fall back to when one does not play).
    package static func ranked(_ variants: [HLSVariant], maxWidth: Int?, maxHeight: Int?, maxBitrate: Int?) -> [HLSVariant] {
        func fits(_ v: HLSVariant) -> Bool {
            (maxWidth.map { w in (v.width ?? 0) <= w } ?? true) && (maxHeight.map { h in (v.height ?? 0) <= h } ?? true)
                && (maxBitrate.map { v.bandwidth <= $0 } ?? true)
        }
        let fitting = variants.filter(fits).sorted { $0.bandwidth > $1.bandwidth }
        let others = variants.filter { !fits($0) }.sorted { ($0.width ?? 0, $0.bandwidth) < ($1.width ?? 0, $1.bandwidth) }
        return fitting + others
    }
}
