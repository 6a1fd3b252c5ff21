import CFFmpeg

/// What an item found when it opened (AVAsset's tracks/duration/playable).
struct MediaInfo: Sendable {
    var formatName = ""
    var duration: MediaTime?
    var videoCodec: String?
    var audioCodec: String?
    /// Coded size and the size it is meant to be shown at (sample aspect applied).
    var videoWidth = 0
    var videoHeight = 0
    var displayWidth = 0
    var displayHeight = 0
    var frameRate: Double?
    var audioSampleRate = 0
    var audioChannels = 0

    var hasVideo: Bool { videoCodec != nil }
    var hasAudio: Bool { audioCodec != nil }
}

/// Buffering preferences an item honours (AVPlayerItem's `preferred…`).
struct ItemPreferences: Sendable, Equatable {
    /// How far ahead of the play head the demuxer reads, in seconds.
    var forwardBufferDuration: Double = 3
    /// Hard cap on queued compressed bytes, whatever the duration.
    var maxBufferBytes = 48 << 20
}
