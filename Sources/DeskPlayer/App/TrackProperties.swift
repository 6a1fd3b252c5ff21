// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Playback

/// The track properties (`track-list`, `aid`, `sid`, `sub-text`) as mpv
/// numbers tracks: from 1 within each type, so a client's `set aid 2`
/// means the second audio track whatever its stream index.
enum TrackProperties {
    struct Entry {
        let id: Int
        let type: String
        let track: MediaTrack
        let selected: Bool
    }

    static func entries(_ item: PlayerItem) -> [Entry] {
        var counts: [String: Int] = [:]
        let audio = item.selectedAudioTrack, sub = item.selectedSubtitleTrack
        return item.tracks.compactMap { track in
            let type: String
            switch track.kind {
            case .video: type = "video"
            case .audio: type = "audio"
            case .subtitle: type = "sub"
            case .data, .attachment: return nil
            }
            counts[type, default: 0] += 1
            let selected = type == "audio" ? track.id == audio : type == "sub" ? track.id == sub : true
            return Entry(id: counts[type] ?? 1, type: type, track: track, selected: selected)
        }
    }

    /// mpv's `track-list`: id, type, src-id, lang, title, codec, default, forced, external, selected.
    static func list(_ item: PlayerItem) -> [JSONValue] {
        entries(item).map { entry in
            let t = entry.track
            var fields: [(String, JSONValue)] = [("id", .number(Double(entry.id))), ("type", .string(entry.type)),
                                                 ("codec", .string(t.codec)), ("default", .bool(t.isDefault)),
                                                 ("forced", .bool(t.isForced)), ("external", .bool(t.externalPath != nil)),
                                                 ("selected", .bool(entry.selected))]
            if t.externalPath == nil { fields.append(("src-id", .number(Double(t.id)))) }
            if let lang = t.language { fields.append(("lang", .string(lang))) }
            if let title = t.title { fields.append(("title", .string(title))) }
            if let path = t.externalPath { fields.append(("external-filename", .string(path))) }
            return .object(fields)
        }
    }

    /// The selected track's id of a type, or false (none).
    static func selected(_ type: String, in item: PlayerItem) -> JSONValue {
        guard let entry = entries(item).first(where: { $0.type == type && $0.selected }) else { return .bool(false) }
        return .number(Double(entry.id))
    }

    /// `set aid N`, `set sid N|no`.
    static func select(_ type: String, _ value: JSONValue, player: Player) throws(CommandError) {
        guard let item = player.currentItem else { throw .propertyUnavailable }
        let off: Bool
        switch value {
        case .bool(false), .string("no"): off = true
        default: off = false
        }
        if off && type == "sub" {
            item.selectSubtitleTrack(nil)
        } else {
            let id = Int(saturating: try PropertyValue.number(value))
            guard let entry = entries(item).first(where: { $0.type == type && $0.id == id }) else { throw .invalidParameter }
            let done = type == "audio" ? player.selectAudioTrack(entry.track.id) : item.selectSubtitleTrack(entry.track.id)
            guard done else { throw .propertyError }
        }
        player.subtitlesChanged()
    }

    /// Subtitle tracks in order, then none (mpv's j / J), said on the OSD.
    static func cycleSubtitles(_ target: PropertyTarget, forward: Bool) throws(CommandError) {
        let player = try target.player(), item = try target.item()
        let tracks = item.tracks.filter { $0.kind == .subtitle }
        guard !tracks.isEmpty else {
            target.osd(tr("No subtitles"), seconds: 1.5)
            return
        }
        let choices: [Int?] = tracks.map(\.id) + [nil]
        let now = choices.firstIndex(of: item.selectedSubtitleTrack) ?? choices.count - 1
        let next = choices[(now + (forward ? 1 : choices.count - 1)) % choices.count]
        item.selectSubtitleTrack(next)
        player.subtitlesChanged()
        if let i = tracks.firstIndex(where: { $0.id == next }) {
            target.osd(String(format: tr("Subtitles %d/%d: %@"), locale: .display, i + 1, tracks.count, tracks[i].label), seconds: 2, topic: "Subtitles")
        } else {
            target.osd(tr("Subtitles: off"), seconds: 1.5, topic: "Subtitles")
        }
    }

    /// The next audio track (mpv's #), switched while playing.
    static func cycleAudio(_ target: PropertyTarget) throws(CommandError) {
        let player = try target.player(), item = try target.item()
        let tracks = item.tracks.filter { $0.kind == .audio }
        guard tracks.count > 1, let now = tracks.firstIndex(where: { $0.id == item.selectedAudioTrack }) else {
            target.osd(tracks.isEmpty ? "No audio" : "Audio: one track only", seconds: 1.5)
            return
        }
        let next = (now + 1) % tracks.count
        if player.selectAudioTrack(tracks[next].id) {
            target.osd(String(format: tr("Audio %d/%d: %@"), locale: .display, next + 1, tracks.count, tracks[next].label), seconds: 2, topic: "Audio")
        } else {
            target.osd(String(format: tr("Audio %d/%d cannot play"), locale: .display, next + 1, tracks.count), seconds: 2)
            throw .propertyError
        }
    }

    /// The subtitle lines on the frame on screen, without their ASS tags.
    static func shownText(_ player: Player) -> String {
        guard let item = player.currentItem, let subtitles = item.pipeline?.subtitles,
              let shown = player.shownFrameInterval else { return "" }
        let lines = subtitles.activeText(at: MediaTime(seconds: shown.start) - player.currentPassStart)
        return lines.map { $0.replacingOccurrences(of: "\\{[^}]*\\}", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\\N", with: "\n") }.joined(separator: "\n")
    }
}
