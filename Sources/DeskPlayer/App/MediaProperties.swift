// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Playback
import Media
/// The properties that describe the file playing (mpv's `width`,
/// `video-params`, `audio-params`, `estimated-frame-count`…), read from
/// what the item found when it opened. Unavailable until it has opened,
/// and for a stream it lacks (no video: no `width`).
enum MediaProperties {
    /// What the item found, once open.
    private static func info(_ t: PropertyTarget) throws(CommandError) -> MediaInfo {
        guard let info = try t.item().info else { throw .propertyUnavailable }
        return info
    }

    private static func video(_ t: PropertyTarget) throws(CommandError) -> MediaInfo {
        let info = try info(t)
        guard info.hasVideo else { throw .propertyUnavailable }
        return info
    }

    private static func audio(_ t: PropertyTarget) throws(CommandError) -> MediaInfo {
        let info = try info(t)
        guard info.hasAudio else { throw .propertyUnavailable }
        return info
    }

    private static func frameRate(_ t: PropertyTarget) throws(CommandError) -> Double {
        guard let rate = try video(t).frameRate, rate > 0 else { throw .propertyUnavailable }
        return rate
    }

    /// A quarter turn clockwise in degrees, as mpv's `rotate` (0 for flips).
    private static func degrees(_ o: VideoOrientation) -> Int {
        switch (o.xx, o.xy, o.yx, o.yy) {
        case (0, -1, 1, 0): return 90
        case (-1, 0, 0, -1): return 180
        case (0, 1, -1, 0): return 270
        default: return 0
        }
    }

    /// mpv's names for the usual channel counts.
    private static func channelLayout(_ count: Int) -> String {
        switch count {
        case 1: return "mono"
        case 2: return "stereo"
        case 6: return "5.1"
        case 8: return "7.1"
        default: return "\(count)ch"
        }
    }

    static let all: [Property] = [
        Property("width", format: .integer, get: { t throws(CommandError) in .number(Double(try video(t).videoWidth)) }),
        Property("height", format: .integer, get: { t throws(CommandError) in .number(Double(try video(t).videoHeight)) }),
        Property("container-fps", format: .decimal(shown: 3), get: { t throws(CommandError) in .number(try frameRate(t)) }),
        Property("video-format", get: { t throws(CommandError) in .string(try video(t).videoCodec ?? "") }),
        Property("video-codec", get: { t throws(CommandError) in .string(try video(t).videoCodec ?? "") }),
        Property("audio-codec-name", get: { t throws(CommandError) in .string(try audio(t).audioCodec ?? "") }),
        Property("audio-codec", get: { t throws(CommandError) in .string(try audio(t).audioCodec ?? "") }),
        // mpv's guesses from the frame rate: the length and the position in frames.
        Property("estimated-frame-count", format: .integer, get: { t throws(CommandError) in
            guard let d = try info(t).duration?.seconds else { throw .propertyUnavailable }
            return .number((d * (try frameRate(t))).rounded())
        }),
        Property("estimated-frame-number", format: .integer, get: { t throws(CommandError) in
            let rate = try frameRate(t)
            return .number((try t.player().currentTime.seconds * rate).rounded())
        }),
        // mpv's count of frames dropped late, and DeskPlayer's of frames that
        // came due while the window was minimized or covered (never converted).
        Property("frame-drop-count", format: .integer, get: { t throws(CommandError) in
            .number(Double(try t.player().stats.framesDropped))
        }),
        Property("frames-unseen", format: .integer, get: { t throws(CommandError) in
            .number(Double(try t.player().stats.framesUnseen))
        }),
        Property("video-params", get: { t throws(CommandError) in
            let info = try video(t)
            return .object([("w", .number(Double(info.videoWidth))), ("h", .number(Double(info.videoHeight))),
                            ("dw", .number(Double(info.displayWidth))), ("dh", .number(Double(info.displayHeight))),
                            ("aspect", .number(Double(info.displayWidth) / Double(max(1, info.displayHeight)))),
                            ("rotate", .number(Double(degrees(info.videoOrientation))))])
        }),
        Property("audio-params", get: { t throws(CommandError) in
            let info = try audio(t)
            return .object([("samplerate", .number(Double(info.audioSampleRate))),
                            ("channel-count", .number(Double(info.audioChannels))),
                            ("channels", .string(channelLayout(info.audioChannels)))])
        }),
    ]
}
