// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media

/// What an item found when it opened (AVAsset's tracks/duration/playable).
package struct MediaInfo: Sendable {
    package var formatName = ""
    package var duration: MediaTime?
    package var videoCodec: String?
    package var audioCodec: String?
    /// Coded size and the size it is meant to be shown at (sample aspect
    /// applied, then turned as `videoOrientation` says: a phone's upright
    /// 640x360 recording is 360x640 here).
    package var videoWidth = 0
    package var videoHeight = 0
    package var displayWidth = 0
    package var displayHeight = 0
    package var frameRate: Double?
    /// How the picture is turned for display (the file's display matrix and `--video-rotate`).
    package var videoOrientation = VideoOrientation.upright
    /// The stream says its fields are interlaced (its field order).
    var videoInterlaced = false
    /// The video's transfer is HDR (PQ, SMPTE ST 2084, or HLG), as its stream says.
    package var videoIsHDR = false
    /// Its HDR frames are tone mapped to SDR for display (`--tone-mapping`, and FFmpeg has zscale and tonemap).
    package var videoToneMapped = false
    package var audioSampleRate = 0
    package var audioChannels = 0
    /// The file's tags (lower-case keys: title, artist, album…) and cover picture
    /// (the file's own, else an image beside it).
    package var tags: [String: String] = [:]
    package var coverArt: CoverArt?
    /// The chapters, in time order on the item's timeline (`ChapterTable`).
    package var chapters: [Chapter] = []
    /// A live stream (an HLS playlist without an end): it cannot loop.
    package var isLive = false
    /// A live input device (camera, screen, lavfi graph): it can be recorded.
    package var isDevice = false
    /// Where the item's timeline starts in container time: a timestamp of
    /// its streams less this is an item time.
    package var timelineStart = MediaTime.zero

    package init() {}

    package var hasVideo: Bool { videoCodec != nil }
    package var hasAudio: Bool { audioCodec != nil }
}

/// Buffering preferences an item honours (AVPlayerItem's `preferred…`).
package struct ItemPreferences: Sendable, Equatable {
    /// How far ahead of the play head the demuxer reads, in seconds; nil:
    /// one second from a local file (mpv's demuxer-readahead-secs: a disk
    /// answers at once, and each second of a 20 Mbit/s stream held is 2.5 MB),
    /// three from the network, which stalls.
    var forwardBufferDuration: Double?
    /// Hard cap on queued compressed bytes, whatever the duration.
    var maxBufferBytes = 48 << 20
    /// Video decoder threads: 0, one per core (best for one big stream);
    /// 1 when many tiles share the cores (measured: 9 tiles of 720p30 on 2
    /// cores, 7.5 CPU-s and 247 MB with 1 thread against 8.2 and 334 MB auto).
    package var videoDecoderThreads = 0

    /// The decoder threads for `videoDecoderThreads`: one per core, not
    /// FFmpeg's cores + 1. Each frame thread holds a picture in flight; the
    /// extra one bought nothing on 2 cores (2160p60 HEVC Main 10: 0 of 300
    /// dropped either way, 7.1 CPU-s either way) and cost 46 MB there, 9 MB
    /// at 1080p (bench/lighter.py).
    var videoDecoderThreadCount: Int32 {
        videoDecoderThreads > 0 ? Int32(videoDecoderThreads)
            : Int32(min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 16))
    }
    /// False opens the audio stream only (composition sources).
    var decodesVideo = true
    /// Seconds of resampled audio held ready for the device. Half a second
    /// covers any device buffer; an offline reader (export) wants more, so
    /// the decoder runs in long bursts instead of waking every few ms.
    var audioBufferSeconds = 0.5
    /// Limits for choosing an HLS variant (AVPlayerItem's
    /// preferredMaximumResolution and preferredPeakBitRate); nil: no limit.
    package var maxWidth: Int?
    package var maxHeight: Int?
    package var maxBitrate: Int?
    /// Bytes of stream segments kept for loops; nil: sized from the variant.
    package var streamCacheBytes: Int?
    /// Bytes of decoded frames kept around a seek while paused, for steps
    /// back (`--frame-cache-size`, `DecodedFrameCache`).
    package var frameCacheBytes = DecodedFrameCache.defaultBudget
    /// The same while playing backward: `--frame-cache-size` when given,
    /// else a larger default (`DecodedFrameCache.defaultBackwardBudget`).
    package var backwardFrameCacheBytes = DecodedFrameCache.defaultBackwardBudget
    /// Preferred audio and subtitle languages, best first (mpv's --alang, --slang).
    package var audioLanguages: [String] = []
    package var subtitleLanguages: [String] = []
    /// Subtitle files to load with the item (--sub-file); the first is shown.
    package var subtitleFiles: [String] = []
    /// Loads subtitle files found next to a local video (`movie.srt`, `movie.en.ass`).
    package var autoloadSubtitles = true
    /// Cut from each pass of audio-only MPEG-TS, HLS or ADTS (`--audio-trim`).
    package var audioTrim: SampleTrim?
    /// Rotation, deinterlacing and tone mapping (`--video-rotate`, `--deinterlace`, `--tone-mapping`).
    package var video = VideoFilterSettings()
    /// Video shown at half its size or less decodes without its loop filter
    /// (`--small-video-decode`; `Decoder.decodesFast`).
    package var decodesSmallVideoFast = true
    /// Pictures go out in YUV at the video's own size, for a renderer that
    /// converts and scales them on the GPU (`--vo=gpu`); else in BGRA at the size shown.
    package var picturesForGPU = false
    /// `--hwdec`: how the video decodes (a change while playing goes to the
    /// pipeline); `hardwareFault`: a simulated device that fails (tests).
    package var hardwareDecoding = HardwareDecoding.autoSafe
    package var hardwareFault: HardwareFault?

    package init(forwardBufferDuration: Double? = nil) { self.forwardBufferDuration = forwardBufferDuration }

    /// The forward buffer for an input from the network or from a file.
    func forwardBuffer(isNetwork: Bool) -> Double { forwardBufferDuration ?? (isNetwork ? 3 : 1) }
}
