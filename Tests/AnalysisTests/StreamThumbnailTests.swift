// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import Analysis
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// The seek bar's thumbnails of an HLS stream served over HTTP by the
/// stream tests' server, which logs every request and its bytes: each
/// picture is of its time, and costs at most the one segment that holds it.
@Suite(.serialized) struct StreamThumbnailTests {
    /// The item opened as a tile opens it, once its demuxer has buffered
    /// what it reads ahead (10 s: the first two segments, read whole, are in
    /// its segment cache) and stopped.
    static func open(_ server: HLSServer, _ path: String = "master.m3u8") throws -> (PlayerItem, ItemPipeline) {
        let opened = try openItem(server.url(path), preferences: ItemPreferences(forwardBufferDuration: 10))
        // The queue holds what it reads ahead; then no new request for
        // half a second says the reader has stopped.
        _ = eventually(seconds: 10) { (opened.1.queuedSeconds.video ?? 0) >= 9.5 }
        var seen = -1
        _ = eventually(seconds: 10) {
            defer { seen = CodedClip.requests(server).count }
            Thread.sleep(forTimeInterval: 0.5)  // nothing must happen for 0.5 s: no request, the reading has stopped
            return CodedClip.requests(server).count == seen
        }
        return opened
    }

    /// Times all over the stream, most far beyond what the player buffered:
    /// each picture is the frame at that time (within a second), and each
    /// costs one request, for the segment that holds it, of that segment's
    /// size; a second time in the same segment, and a time in a segment the
    /// player read whole, cost none (the segment cache serves them). The
    /// segment fetched is kept in the cache for the player. The media
    /// playlist (and fMP4's initialisation section) is read once more.
    /// MPEG-TS under a master playlist, fMP4 from its media playlist.
    @Test(arguments: [("master.m3u8", "coded", "ts"), ("fmp4/index.m3u8", "fmp4", "m4s")])
    func eachTimeShowsItsFrameAndFetchesOnlyItsSegment(_ path: String, _ folder: String, _ type: String) throws {
        let dir = try #require(CodedClip.stream, "ffmpeg could not make the HLS stream")
        let server = try HLSServer(serving: dir)
        let (item, _) = try Self.open(server, path)
        defer { item.cancel() }
        let buffered = CodedClip.requests(server)
        let bufferedSegments = Set(buffered.map(\.path).filter { $0.hasSuffix("." + type) })
        #expect(bufferedSegments.count < 5, "the player read \(bufferedSegments.sorted())")
        #expect(item.segmentCache?.kept(server.url("\(folder)/index0.\(type)")) != nil,
                "the player keeps the segments it read whole")
        let source = ThumbnailSource(for: item)
        var before = buffered.count
        var fetchedBytes = 0
        for seconds in [41.3, 17.9, 55.2, 42.8, 29.0, 1.1, 58.7] {
            let segment = CodedClip.segment(at: seconds, in: folder, type: type)
            let wasKept = item.segmentCache?.kept(server.url(String(segment.dropFirst()))) != nil
            let entry = try #require(ThumbnailTests.entry(source, at: seconds), "no thumbnail at \(seconds) s")
            let picture = try #require(entry.picture, "no picture at \(seconds) s")
            let shown = Double(CodedClip.code(of: PPMImage(picture))) / CodedClip.fps
            #expect(abs(shown - seconds) <= 1, "at \(seconds) s the thumbnail shows \(shown) s")
            #expect(abs(shown - entry.frameSeconds) < 0.05, "the picture is of the frame it says (\(entry.frameSeconds) s)")
            let all = CodedClip.requests(server)
            let new = all[before...].filter { $0.path.hasSuffix("." + type) }
            before = all.count
            let size = try FileManager.default.attributesOfItem(atPath: dir.path + segment)[.size] as? Int ?? -1
            print("thumbnail at \(seconds) s shows \(shown) s; segments fetched: \(new.map { "\($0.path) \($0.bytes)" })")
            if wasKept {
                #expect(new.isEmpty, "\(segment) was in the cache, yet: \(new.map(\.path))")
            } else {
                #expect(new.count == 1 && new.first?.path == segment && new.first?.bytes == size,
                        "\(seconds) s: \(new.map { "\($0.path) \($0.bytes)" }), \(segment) is \(size) bytes")
                fetchedBytes += new.first?.bytes ?? 0
            }
            #expect(item.segmentCache?.kept(server.url(String(segment.dropFirst()))) != nil, "\(segment) is kept for the player")
        }
        let total = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix("." + type) }
            .map { try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent("\(folder)/\($0)").path)[.size] as? Int ?? 0 }
            .reduce(0, +)
        print("thumbnails of 7 times fetched \(fetchedBytes) bytes of the stream's \(total)")
        #expect(fetchedBytes < total / 2)
        let all = CodedClip.requests(server)
        let playlists = all[buffered.count...].filter { $0.path == "/\(folder)/index.m3u8" }.count
        #expect(playlists == 1, "the thumbnails read the media playlist \(playlists) times")
        let other = all.filter { !$0.path.hasSuffix("." + type) && !$0.path.hasSuffix(".m3u8") }
        #expect(other.map(\.path).allSatisfy { $0 == "/fmp4/init.mp4" } && other.count <= 2, "\(other.map(\.path))")
    }

    /// A stream on disk (its master playlist, read through the file
    /// protocol): the same pictures, read from its segment files.
    @Test func aLocalStreamShowsTheFrameOfEachTime() throws {
        let dir = try #require(CodedClip.stream, "ffmpeg could not make the HLS stream")
        let (item, _) = try openItem(dir.appendingPathComponent("master.m3u8").path)
        defer { item.cancel() }
        let source = ThumbnailSource(for: item)
        for seconds in [22.4, 7.9, 50.1] {
            let picture = try #require(ThumbnailTests.entry(source, at: seconds)?.picture, "no picture at \(seconds) s")
            let shown = Double(CodedClip.code(of: PPMImage(picture))) / CodedClip.fps
            #expect(abs(shown - seconds) <= 1, "at \(seconds) s the thumbnail shows \(shown) s")
        }
    }

    /// A server that stalls 6 s on a segment: the mouse resting on a time
    /// of another segment gives that fetch up (after a quarter second), so
    /// its picture comes long before the stall would end; the mouse leaving
    /// the bar gives a fetch up at once. A segment given up is not taken for
    /// missing: asked again, its picture comes.
    @Test func aStalledFetchIsGivenUpWhenTheMouseMovesOn() throws {
        let dir = try #require(CodedClip.stream, "ffmpeg could not make the HLS stream")
        let stalled = "/coded/index9.ts"  // 36 s to 40 s
        let server = try HLSServer(serving: dir, faults: "\(stalled)=stall6")
        let (item, _) = try Self.open(server)
        defer { item.cancel() }
        let source = ThumbnailSource(for: item)
        source.request(37.2)
        #expect(eventually(seconds: 5) { source.isFetching }, "no fetch began")
        let moved = Date()
        let elsewhere = try #require(ThumbnailTests.entry(source, at: 17.9)?.picture, "no picture at 17.9 s")
        let waited = Date().timeIntervalSince(moved)
        print("the picture of another segment came \(String(format: "%.2f", waited)) s after the mouse moved on")
        #expect(waited < 3, "it waited \(waited) s for the stalled segment")
        #expect(abs(Double(CodedClip.code(of: PPMImage(elsewhere))) / CodedClip.fps - 17.9) <= 1)

        source.request(38.5)
        #expect(eventually(seconds: 5) { source.isFetching }, "no fetch began")
        source.cancel()
        #expect(eventually(seconds: 1) { !source.isFetching }, "leaving the bar did not give the fetch up")

        let picture = try #require(ThumbnailTests.entry(source, at: 37.2)?.picture, "no picture at 37.2 s once the stall ended")
        #expect(abs(Double(CodedClip.code(of: PPMImage(picture))) / CodedClip.fps - 37.2) <= 1)
    }

    /// A segment the server answers with 404: no picture for its times,
    /// asked for once and not again however long the mouse stays there or
    /// moves in it; the segments around it still give theirs.
    @Test func aMissingSegmentGivesNoPictureAndIsAskedOnce() throws {
        let dir = try #require(CodedClip.stream, "ffmpeg could not make the HLS stream")
        let missing = "/coded/index9.ts"  // 36 s to 40 s
        let server = try HLSServer(serving: dir, faults: "\(missing)=404")
        let (item, _) = try Self.open(server)
        defer { item.cancel() }
        let source = ThumbnailSource(for: item)
        for seconds in [37.2, 38.9, 36.1] {
            let entry = try #require(ThumbnailTests.entry(source, at: seconds), "nothing made for \(seconds) s")
            #expect(entry.picture == nil, "a picture at \(seconds) s from a missing segment")
        }
        // The mouse stays there a while: asked all the time, nothing more is fetched.
        for _ in 0..<20 {
            source.request(37.7)
            Thread.sleep(forTimeInterval: 0.05)
        }
        let asked = CodedClip.requests(server).filter { $0.path == missing }.count
        #expect(asked == 1, "the missing segment was asked for \(asked) times")
        for seconds in [34.5, 41.0] {
            let picture = try #require(ThumbnailTests.entry(source, at: seconds)?.picture, "no picture at \(seconds) s")
            let shown = Double(CodedClip.code(of: PPMImage(picture))) / CodedClip.fps
            #expect(abs(shown - seconds) <= 1, "at \(seconds) s the thumbnail shows \(shown) s")
        }
        #expect(item.status == .readyToPlay)
    }

    /// A media playlist as packagers write it: segment times summed from
    /// `#EXTINF`, URIs resolved against the playlist's, the initialisation
    /// section, and what keeps segments from being read one by one.
    @Test func theMediaPlaylistPlacesEachSegment() throws {
        let text = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:6.006,
            seg0.m4s
            #EXTINF:5.5, a title, with a comma
            ../other/seg1.m4s?token=1
            #EXTINF:2.0,
            https://cdn.example/seg2.m4s
            #EXT-X-ENDLIST
            """
        let playlist = try #require(HLSMediaPlaylist(text, base: "http://host/a/b/index.m3u8"))
        #expect(playlist.segments.map(\.uri) == ["http://host/a/b/seg0.m4s", "http://host/a/other/seg1.m4s?token=1",
                                                 "https://cdn.example/seg2.m4s"])
        #expect(playlist.segments.map(\.start) == [0, 6.006, 11.506])
        #expect(playlist.initSection == "http://host/a/b/init.mp4")
        #expect(playlist.isEnded && !playlist.needsDemuxer)
        #expect([0, 6.005, 6.006, 11.5, 13.4, 99].map { playlist.segment(at: $0) } == [0, 0, 1, 1, 2, 2])
        #expect(playlist.segment(at: -1) == nil)
        let local = try #require(HLSMediaPlaylist("#EXTINF:4,\nindex0.ts\n", base: "/media/show/index.m3u8"))
        #expect(local.segments.first?.uri == "/media/show/index0.ts" && !local.isEnded)
        #expect(HLSMediaPlaylist("#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXTINF:4,\na.ts\n", base: "http://h/x.m3u8")?.needsDemuxer == true)
        #expect(HLSMediaPlaylist("#EXTINF:4,\n#EXT-X-BYTERANGE:1000@0\nall.ts\n", base: "http://h/x.m3u8")?.needsDemuxer == true)
        #expect(HLSMediaPlaylist("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", base: "http://h/x.m3u8") == nil)
    }
}
