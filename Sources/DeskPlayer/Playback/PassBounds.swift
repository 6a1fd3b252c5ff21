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
enum PassBounds: Sendable, Equatable {
    /// Each stream's own start and end, as the container marks them.
    case streams
    /// The video's presentation interval (audio and video MPEG-TS, HLS).
    case video

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

    /// The bounds for an input of `format` playing the given streams.
    static func of(format: String, hasVideo: Bool, hasAudio: Bool) -> PassBounds {
        hasVideo && hasAudio && (format == "mpegts" || format == "hls") ? .video : .streams
    }
}
