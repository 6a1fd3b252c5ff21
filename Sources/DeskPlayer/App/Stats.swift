// SPDX-License-Identifier: GPL-3.0-or-later
import Analysis
import Foundation
import Media
import Playback

/// What `--stats-json` writes at exit: one entry per item played.
struct StatsReport: Codable {
    struct Entry: Codable {
        var item: String
        var status: String
        var error: String?
        var framesPresented: Int
        var framesDropped: Int
        /// Frames left out by schedule at a speed faster than the display shows (not late).
        var framesSkipped: Int?
        /// Frames that came due while the window was minimized or covered (never converted).
        var framesUnseen: Int?
        var audioUnderruns: Int
        var maxAVOffsetMs: Double
        var meanAVOffsetMs: Double
        var timeToFirstFrameMs: Double?
        var loopCount: Int
        /// Packets the decoders refused and frames they concealed (damaged data).
        var decodeErrors: Int
        /// What decoded the video at the end (`hwdec-current`: no, or a method's copy-back name).
        var hwdecCurrent: String?
        /// The HLS variant chosen from a master playlist.
        var variant: String?
        /// The HLS segment cache: bytes held at the end, segments served from it and downloaded.
        var cacheBytes: Int?
        /// Of `cacheBytes`, those in memory (the rest spilled to a private temporary folder).
        var cacheMemoryBytes: Int?
        var cacheHits: Int?
        var cacheMisses: Int?
        /// The most bytes a segment being read held to be kept: at most the cache's size.
        var cachePeakRecordingBytes: Int?
        /// Seconds spent waiting for data while meant to play (a stalled stream).
        var waitingSeconds: Double?
        /// What the tile showed of it: the media title (title tag, else the
        /// file's name), the artist and album tags, whether a cover picture
        /// showed (audio with a cover that decoded), and the chapters' titles.
        var title: String?
        var artist: String?
        var album: String?
        var hasCover = false
        var chapterCount = 0
        var chapters: [String] = []
    }

    var renderer: String
    var players: [Entry] = []
    /// With --sync: how late (ms) any tile's picture was against the group
    /// clock, i.e. how long a frame stayed past its interval, checked every refresh.
    var maxSyncErrorMs: Double?
    /// How the main window reached the screen: whole-window presents, and
    /// presents of only the tiles whose picture changed.
    var fullPresents = 0
    var tilePresents = 0
    /// Seek-bar thumbnails: how many times hovered had to be decoded (and
    /// were still under the mouse when their picture came), and how long
    /// (ms) from the mouse reaching such a time to its picture (mean,
    /// largest); how many were ready at once (made on the way to others);
    /// how many pictures the thumbnail decoders made in all, and the CPU
    /// seconds their threads spent.
    var thumbnailsDecoded = 0
    var thumbnailMeanMs: Double?
    var thumbnailMaxMs: Double?
    var thumbnailsReady = 0
    var thumbnailsMade = 0
    var thumbnailCpuSeconds = 0.0

    init(renderer: String) { self.renderer = renderer }

    /// The seek-bar thumbnails' figures, from the seconds each waited.
    mutating func recordThumbnails(waits: [Double], ready: Int) {
        thumbnailsDecoded = waits.count
        thumbnailsReady = ready
        thumbnailsMade = ThumbnailSource.picturesMadeInAll
        thumbnailCpuSeconds = (ThumbnailSource.cpuSecondsInAll * 1000).rounded() / 1000
        guard !waits.isEmpty else { return }
        thumbnailMeanMs = (waits.reduce(0, +) / Double(waits.count) * 10_000).rounded() / 10
        thumbnailMaxMs = ((waits.max() ?? 0) * 10_000).rounded() / 10
    }

    mutating func record(_ item: PlayerItem, _ s: PlayerStats) {
        let status: String
        switch item.status {
        case .unknown: status = "loading"
        case .readyToPlay: status = "ready"
        case .failed: status = "failed"
        }
        players.append(Entry(item: item.name, status: status, error: item.error?.message,
                             framesPresented: s.framesPresented, framesDropped: s.framesDropped,
                             framesSkipped: s.framesSkipped, framesUnseen: s.framesUnseen, audioUnderruns: s.audioUnderruns,
                             maxAVOffsetMs: (s.maxAVOffsetMs * 100).rounded() / 100,
                             meanAVOffsetMs: (s.meanAVOffsetMs * 100).rounded() / 100,
                             timeToFirstFrameMs: s.timeToFirstFrameMs.map { ($0 * 10).rounded() / 10 },
                             loopCount: s.loopCount, decodeErrors: item.decodeErrors, variant: item.variant?.label, cacheBytes: item.cacheCounters?.bytes,
                             cacheMemoryBytes: item.cacheCounters?.memoryBytes, cacheHits: item.cacheCounters?.hits, cacheMisses: item.cacheCounters?.misses,
                             waitingSeconds: (s.waitingSeconds * 100).rounded() / 100))
        players[players.count - 1].hwdecCurrent = item.pipeline.flatMap { $0.hasVideo ? $0.hardwareDecodingInUse : nil }
        players[players.count - 1].cachePeakRecordingBytes = item.cachePeakRecordingBytes
        if let info = item.info {
            players[players.count - 1].describe(info, name: item.name, hasCover: item.cover != nil)
        }
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

extension StatsReport.Entry {
    /// The title, tags, cover and chapters the item opened with.
    mutating func describe(_ info: MediaInfo, name: String, hasCover: Bool) {
        func tag(_ key: String) -> String? { info.tags[key].flatMap { $0.isEmpty ? nil : $0 } }
        title = tag("title") ?? DisplayText.shortName(name)
        artist = tag("artist")
        album = tag("album")
        self.hasCover = hasCover
        chapterCount = info.chapters.count
        chapters = info.chapters.map(\.title)
    }
}
