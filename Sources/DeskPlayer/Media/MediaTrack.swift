// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// One track of an item (AVAssetTrack): a stream of the file, or a
/// subtitle file loaded beside it.
package struct MediaTrack: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case video, audio, subtitle, data, attachment
    }

    /// The stream index; tracks from subtitle files follow the file's streams.
    package let id: Int
    package let kind: Kind
    package let codec: String
    package let language: String?
    package let title: String?
    package let isDefault: Bool
    package let isForced: Bool
    /// Subtitles drawn from decoded pictures (PGS, DVB, VobSub), not text.
    package let isBitmap: Bool
    /// The subtitle file it came from, for tracks that are not in the item.
    package let externalPath: String?

    package init(id: Int, kind: Kind, codec: String, language: String? = nil, title: String? = nil,
         isDefault: Bool = false, isForced: Bool = false, isBitmap: Bool = false, externalPath: String? = nil) {
        self.id = id
        self.kind = kind
        self.codec = codec
        self.language = language
        self.title = title
        self.isDefault = isDefault
        self.isForced = isForced
        self.isBitmap = isBitmap
        self.externalPath = externalPath
    }

    /// The track as FFmpeg's demuxer describes stream `id`.
    package init(stream: UnsafeMutablePointer<AVStream>, id: Int) {
        let parameters = stream.pointee.codecpar.pointee
        let kind: Kind
        switch parameters.codec_type {
        case AVMEDIA_TYPE_VIDEO: kind = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 ? .attachment : .video
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_SUBTITLE: kind = .subtitle
        case AVMEDIA_TYPE_ATTACHMENT: kind = .attachment
        default: kind = .data
        }
        func tag(_ key: String) -> String? {
            guard let entry = av_dict_get(stream.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
            let text = String(cString: value)
            return text.isEmpty || text == "und" ? nil : text
        }
        let descriptor = avcodec_descriptor_get(parameters.codec_id)
        self.init(id: id, kind: kind,
                  codec: avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown",
                  language: tag("language"), title: tag("title"),
                  isDefault: stream.pointee.disposition & AV_DISPOSITION_DEFAULT != 0,
                  isForced: stream.pointee.disposition & AV_DISPOSITION_FORCED != 0,
                  isBitmap: descriptor.map { $0.pointee.props & AV_CODEC_PROP_BITMAP_SUB != 0 } ?? false)
    }

    /// What the OSD says when the track is selected: "[fre] French (aac)".
    package var label: String {
        var parts: [String] = []
        if let language { parts.append("[\(language)]") }
        if let title { parts.append(title) }
        if let externalPath { parts.append(externalPath.split(separator: "/").last.map(String.init) ?? externalPath) }
        var flags: [String] = []
        if isDefault { flags.append("default") }
        if isForced { flags.append("forced") }
        parts.append("(\(([codec] + flags).joined(separator: ", ")))")
        return parts.joined(separator: " ")
    }
}

/// Language codes as mpv's --alang/--slang take them: two- and three-letter
/// ISO 639 codes name the same language ("en" finds "eng").
package enum LanguageCode {
    private static let synonyms: [[String]] = [
        ["en", "eng"], ["fr", "fre", "fra"], ["de", "ger", "deu"], ["es", "spa"], ["it", "ita"],
        ["ja", "jpn"], ["pt", "por"], ["ru", "rus"], ["zh", "chi", "zho"], ["nl", "dut", "nld"],
        ["sv", "swe"], ["ko", "kor"], ["pl", "pol"], ["fi", "fin"], ["da", "dan"], ["no", "nor"],
        ["cs", "cze", "ces"], ["el", "gre", "ell"], ["tr", "tur"], ["ar", "ara"], ["he", "heb"],
        ["hu", "hun"], ["uk", "ukr"], ["hi", "hin"],
    ]

    static func matches(_ wanted: String, _ language: String?) -> Bool {
        guard let language else { return false }
        let a = wanted.lowercased(), b = language.lowercased()
        if a == b { return true }
        return synonyms.contains { $0.contains(a) && $0.contains(b) }
    }

    /// The first track of `tracks` in the earliest language of `preferences`.
    package static func first(_ tracks: [MediaTrack], in preferences: [String]) -> MediaTrack? {
        for wanted in preferences {
            if let track = tracks.first(where: { matches(wanted, $0.language) }) { return track }
        }
        return nil
    }
}
