// SPDX-License-Identifier: GPL-3.0-or-later
/// What bounds one loop pass of an item, and so where its timeline's zero is.
///
/// Files mark their own bounds: an edit list or a start trim says where the
/// audio starts (AAC's encoder priming is cut), the stream's duration where
/// it ends (the last frame's padding is cut). MPEG-TS (a `.ts`/`.m2ts` file
/// or HLS segments) carries no edit list, and HLS's fMP4 segments get none
/// applied (FFmpeg's muxer shifts the audio ahead of the video instead), so
/// the priming plays before the first video frame and the padding runs past
/// the last one. With audio and video, what plays is their intersection
/// (hls.js's answer, its issue #623): the pass is the video's presentation
/// interval, from its first frame's pts to its last frame's end, and the
/// audio outside it is cut at the sample (or, where audio is missing inside
/// it, made up with silence so picture and sound stay one timeline).
///
/// Audio alone (MPEG-TS, HLS, ADTS) has nothing to anchor to, and nothing
/// in it says how much is priming or padding (FFmpeg's muxers move the
/// priming to the stream's start), so every decoded sample plays, as mpv
/// and ffplay play it, unless the user says (`--audio-trim`, `.trimmed`).
enum PassBounds: Sendable, Equatable {
    /// Each stream's own start and end, as the container marks them.
    case streams
    /// The video's presentation interval (audio and video MPEG-TS, HLS).
    case video
    /// Audio alone, less the samples given at each pass's start and end.
    case trimmed(SampleTrim)

    /// Containers whose per-stream durations are estimates (from the last
    /// timestamps or the bit rate), not an end the encoder wrote: a trim to
    /// them cuts real samples (MPEG-TS: 0.1 s a pass) or keeps padding (ADTS).
    static func streamDurationsAreEstimates(format: String) -> Bool {
        ["mpegts", "hls", "aac"].contains(format)
    }

    /// Containers whose timestamps may jump inside a pass (discontinuities,
    /// a 33-bit wrap): they are made continuous (`TimestampContinuity`).
    static func timestampsMayJump(format: String) -> Bool {
        format == "mpegts" || format == "hls"
    }

    /// Formats that cannot say where their audio starts and ends.
    static func hasNoAudioTrims(format: String) -> Bool {
        ["mpegts", "hls", "aac"].contains(format)
    }

    /// The bounds for an input of `format` playing the given streams, with
    /// the trim the user gave for audio alone (nil: none).
    static func of(format: String, hasVideo: Bool, hasAudio: Bool, trim: SampleTrim? = nil) -> PassBounds {
        if hasVideo && hasAudio && (format == "mpegts" || format == "hls") { return .video }
        if let trim, !hasVideo && hasAudio && hasNoAudioTrims(format: format) { return .trimmed(trim) }
        return .streams
    }
}

/// Samples (at the stream's own rate) cut from the start and the end of
/// every pass of audio whose container cannot say: an encoder's priming
/// (FFmpeg's AAC encoder: 1024, Apple's: 2112) and the last frame's padding.
package struct SampleTrim: Sendable, Equatable {
    var start: Int
    var end: Int

    package init(start: Int, end: Int) { (self.start, self.end) = (start, end) }
}
