// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Playback

/// Seek-bar thumbnails of an HLS stream (VOD), one segment at a time: the
/// playlist's segment times say which segment holds the time; that segment
/// comes from the item's segment cache when it is there, else it alone is
/// fetched (whole, at most `segmentLimit` bytes, given up when the mouse
/// leaves or rests on another segment) and kept in that cache for the
/// player, within `--stream-cache-size`; it is decoded from its start in
/// memory (`ThumbnailDecoder`). Nothing else is downloaded: not the
/// segments before it, nor any of another variant. A segment that cannot
/// be had (a 404, a refused connection, not media) gives no picture, once:
/// it is not asked again. Used by the thumbnail worker thread only.
final class HLSThumbnails: ThumbnailMaker {
    /// What the item plays: the media playlist of its variant (or, for a
    /// local master playlist, the master: its best variant is read), the
    /// segment cache its demuxer reads through, and where its timeline starts.
    struct Stream: Sendable {
        let playlist: MediaLocation
        let cache: SegmentCache?
        let timelineStart: MediaTime
    }

    /// A segment bigger than this is not fetched for a picture (a 10 s
    /// segment at 20 Mbit/s is 25 MB).
    static let segmentLimit = 32 << 20

    private let stream: Stream
    private let playlist: HLSMediaPlaylist
    private let settings: VideoFilterSettings
    private let maxWidth: Int, maxHeight: Int
    /// fMP4's initialisation section, once read (nil: none, or not yet).
    private var initSection: Data?
    private var initFailed = false
    /// The segment read last (its bytes stay for times before where its decoder is).
    private var current: (index: Int, bytes: Data, decoder: ThumbnailDecoder)?
    private var failed: Set<Int> = []

    init(_ stream: Stream, playlist: HLSMediaPlaylist, settings: VideoFilterSettings, maxWidth: Int, maxHeight: Int) {
        self.stream = stream
        self.playlist = playlist
        self.settings = settings
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
    }

    /// The media playlist of `location` (a master playlist's best variant's):
    /// one whose segments can be read whole and one by one, and which ends
    /// (a live playlist changes under the times of its bar).
    static func playlist(of location: MediaLocation, interrupt: InterruptFlag) throws(MediaError) -> HLSMediaPlaylist {
        var text = String(decoding: try WholeResource(location, interrupt: interrupt).readAll(), as: UTF8.self)
        var base = location
        if HLSMediaPlaylist(text, base: base.url) == nil,
           let variant = HLSMaster.choose(HLSMaster.variants(in: text, base: base.url), maxWidth: nil, maxHeight: nil,
                                          maxBitrate: nil) {
            base = MediaLocation(variant.uri)
            guard base.isNetwork == location.isNetwork else { throw MediaError("the variant is elsewhere") }
            text = String(decoding: try WholeResource(base, interrupt: interrupt).readAll(), as: UTF8.self)
        }
        guard let playlist = HLSMediaPlaylist(text, base: base.url) else { throw MediaError("not a media playlist") }
        guard !playlist.needsDemuxer else { throw MediaError("encrypted or byte-range segments") }
        guard playlist.isEnded else { throw MediaError("a live playlist") }
        return playlist
    }

    func make(_ target: Double, progress: ThumbnailSource.Progress) {
        let bucket = ThumbnailCache.bucket(target)
        let none = ThumbnailCache.Entry(picture: nil, frameSeconds: target)
        guard let index = playlist.segment(at: target), !failed.contains(index), !initFailed else {
            return progress.store(none, for: bucket)
        }
        if let current, current.index == index, current.decoder.canContinue(to: target) {
            return current.decoder.make(target, progress: progress)
        }
        let segment = playlist.segments[index]
        // Where the playlist places it; the last one holds every time past its end too.
        let span = segment.start..<(index == playlist.segments.count - 1 ? Double.infinity : segment.end)
        let bytes: Data
        if let current, current.index == index {
            bytes = current.bytes  // a time before where its decoder is: read again, not fetched
        } else {
            guard let section = initSectionRead(progress, span: span) else {
                if !initFailed { return }  // given up: the mouse moved on
                return progress.store(none, for: bucket)
            }
            switch read(segment.uri, progress, span: span) {
            case .read(let data): bytes = section + data
            case .givenUp: return
            case .failed:
                failed.insert(index)
                return progress.store(none, for: bucket)
            }
        }
        current = nil
        do throws(MediaError) {
            let asset = MediaAsset(input: try MediaInput(bytes: bytes), of: stream.playlist)
            let decoder = try ThumbnailDecoder(asset: asset, timelineStart: stream.timelineStart, span: span,
                                               settings: settings, maxWidth: maxWidth, maxHeight: maxHeight)
            current = (index, bytes, decoder)
            decoder.make(target, progress: progress)
        } catch {
            failed.insert(index)  // not media FFmpeg can read
            progress.store(none, for: bucket)
        }
    }

    private enum Reading {
        case read(Data)
        case givenUp
        case failed
    }

    /// The initialisation section (empty when the playlist has none); nil
    /// when it is given up (the mouse moved on) or cannot be read (`initFailed`).
    private func initSectionRead(_ progress: ThumbnailSource.Progress, span: Range<Double>) -> Data? {
        guard let uri = playlist.initSection else { return Data() }
        if let initSection { return initSection }
        switch read(uri, progress, span: span) {
        case .read(let data):
            initSection = data
            return data
        case .givenUp: return nil
        case .failed:
            initFailed = true
            return nil
        }
    }

    /// The resource at `uri`: from the item's segment cache, else fetched
    /// whole (and kept there), unless the mouse moves off `span` first.
    private func read(_ uri: String, _ progress: ThumbnailSource.Progress, span: Range<Double>) -> Reading {
        if let kept = stream.cache?.kept(uri) { return .read(kept) }
        let location = MediaLocation(uri)
        // A network playlist leads to network media only; a local one to local files.
        guard location.isNetwork == stream.playlist.isNetwork else { return .failed }
        let interrupt = InterruptFlag()
        guard progress.fetching(span, interrupt: interrupt) else { return .givenUp }
        defer { progress.fetched() }
        do throws(MediaError) {
            let data = try WholeResource(location, interrupt: interrupt).readWhole(limit: HLSThumbnails.segmentLimit)
            stream.cache?.store(data, for: uri)
            return .read(data)
        } catch {
            return interrupt.isSet ? .givenUp : .failed
        }
    }
}
