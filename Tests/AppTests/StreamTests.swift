// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
import TestSupport

/// HLS over HTTP from a local server the test starts: the variant that fits
/// the preferences is the only one whose playlist and segments are fetched.
@Suite(.serialized) struct StreamTests {
    /// Three variants of the demo (4 s, 1 s segments) and a master playlist.
    static let stream: URL? = {
        let dir = Fixtures.temporaryDirectory().appendingPathComponent("hls")
        let variants = [(320, 180, "300k"), (640, 360, "800k"), (1280, 720, "2000k")]
        var master = "#EXTM3U\n"
        for (i, (w, h, rate)) in variants.enumerated() {
            let folder = dir.appendingPathComponent("v\(i)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard let r = try? runTool("ffmpeg", ["-v", "error", "-y", "-i", Fixtures.asset("demo.mp4"), "-t", "4",
                                                  "-vf", "scale=\(w):\(h)", "-c:v", "libx264", "-preset", "ultrafast",
                                                  "-b:v", rate, "-g", "30", "-c:a", "aac", "-b:a", "64k", "-f", "hls",
                                                  "-hls_time", "1", "-hls_playlist_type", "vod",
                                                  folder.appendingPathComponent("index.m3u8").path]), r.status == 0
            else { return nil }
            let bandwidth = (Int(rate.dropLast()) ?? 0) * 1000 + 64000
            master += "#EXT-X-STREAM-INF:BANDWIDTH=\(bandwidth),RESOLUTION=\(w)x\(h),CODECS=\"avc1.64001f,mp4a.40.2\"\nv\(i)/index.m3u8\n"
        }
        try? master.write(to: dir.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        // Video-only variants with their audio as alternate renditions (English: the demo's
        // 441 Hz tone; French: 1000 Hz), as Apple's authoring tools write them.
        var renditions = "#EXTM3U\n"
        for (name, language, isDefault, input) in [("aen", "en", "YES", ["-i", Fixtures.asset("demo.mp4"), "-vn"]),
                                                   ("afr", "fr", "NO", ["-f", "lavfi", "-i", "sine=f=1000:sample_rate=44100"])] {
            let folder = dir.appendingPathComponent(name)
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard let r = try? runTool("ffmpeg", ["-v", "error", "-y"] + input + ["-t", "4", "-c:a", "aac", "-b:a", "64k",
                                                  "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                                                  folder.appendingPathComponent("index.m3u8").path]), r.status == 0
            else { return nil }
            renditions += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"\(language)\",LANGUAGE=\"\(language)\",DEFAULT=\(isDefault),AUTOSELECT=YES,URI=\"\(name)/index.m3u8\"\n"
        }
        for (i, (w, h)) in [(320, 180), (640, 360)].enumerated() {
            let folder = dir.appendingPathComponent("vn\(i)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard let r = try? runTool("ffmpeg", ["-v", "error", "-y", "-i", Fixtures.asset("demo.mp4"), "-t", "4", "-an",
                                                  "-vf", "scale=\(w):\(h)", "-c:v", "libx264", "-preset", "ultrafast", "-g", "30",
                                                  "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod",
                                                  folder.appendingPathComponent("index.m3u8").path]), r.status == 0
            else { return nil }
            renditions += "#EXT-X-STREAM-INF:BANDWIDTH=\((i + 1) * 400_000),RESOLUTION=\(w)x\(h),AUDIO=\"aud\"\nvn\(i)/index.m3u8\n"
        }
        try? renditions.write(to: dir.appendingPathComponent("renditions.m3u8"), atomically: true, encoding: .utf8)
        try? "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nfile:///etc/hostname\n"
            .write(to: dir.appendingPathComponent("local.m3u8"), atomically: true, encoding: .utf8)
        return dir
    }()

    func play(_ url: String, _ extra: [String], stats: URL) throws -> ProcessResult {
        try runProcess(Fixtures.binary, [url, "--quit-after", "1.5", "--stats-json", stats.path] + extra,
                       environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 30)
    }

    @Test(arguments: [
        ([String](), "v2/", "1280x720"),
        (["--max-resolution", "640x360"], "v1/", "640x360"),
        (["--max-bitrate", "500k"], "v0/", "320x180"),
        (["--max-resolution", "100x100"], "v0/", "320x180"),  // nothing fits: the smallest
    ])
    func onlyTheChosenVariantIsFetched(_ extra: [String], _ folder: String, _ size: String) throws {
        let dir = try #require(StreamTests.stream, "ffmpeg could not make the HLS stream")
        let server = try HLSServer(serving: dir)
        let stats = dir.deletingLastPathComponent().appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let r = try play(server.url("master.m3u8"), extra, stats: stats)
        #expect(r.status == 0, "\(r.stderr)")
        let requests = server.requests
        let media = requests.filter { $0 != "/master.m3u8" }
        #expect(!media.isEmpty && media.allSatisfy { $0.hasPrefix("/" + folder) }, "\(requests)")
        #expect(media.contains { $0.hasSuffix(".ts") }, "segments of the chosen variant were read: \(requests)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect(report.players.first?.variant?.hasPrefix(size) == true, "\(String(describing: report.players.first?.variant))")
        #expect((report.players.first?.framesPresented ?? 0) > 10)
    }

    /// A segment that never ends (a server that keeps sending): read and
    /// played as it comes, never kept whole. What the cache held for it
    /// stays within --stream-cache-size (it was kept in memory to the end,
    /// whatever the size said).
    @Test func aSegmentThatNeverEndsIsStreamedNotKept() throws {
        let dir = try #require(StreamTests.stream, "ffmpeg could not make the HLS stream")
        let server = try HLSServer(serving: dir, faults: "/v1/index1.ts=endless")
        let stats = dir.deletingLastPathComponent().appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let r = try runProcess(Fixtures.binary, [server.url("master.m3u8"), "--max-resolution", "640x360",
                                                 "--stream-cache-size", "100k", "--quit-after", "4", "--stats-json", stats.path],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 60)
        #expect(!r.timedOut, "\(r.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        let entry = try #require(report.players.first)
        #expect(server.requests.contains("/v1/index1.ts"), "\(server.requests)")
        let held = try #require(entry.cachePeakRecordingBytes)
        #expect(held <= 100 * 1024, "a segment being read held \(held) bytes in a 100 kB cache")
    }

    /// A server announcing a bandwidth past Int64's range and an absurd
    /// resolution (the cache was sized from BANDWIDTH / 8 * 180, which
    /// overflowed and ended the process): read within bounds, and it plays.
    @Test func aHugeBandwidthIsReadWithinBounds() throws {
        let dir = try #require(StreamTests.stream, "ffmpeg could not make the HLS stream")
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=9223372036854775807,RESOLUTION=99999999999x1\nv0/index.m3u8\n"
        try master.write(to: dir.appendingPathComponent("huge.m3u8"), atomically: true, encoding: .utf8)
        let server = try HLSServer(serving: dir)
        let stats = dir.deletingLastPathComponent().appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let r = try play(server.url("huge.m3u8"), [], stats: stats)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect((report.players.first?.framesPresented ?? 0) > 10)
        let variant = try #require(HLSMaster.variants(in: master, base: server.url("huge.m3u8")).first)
        #expect(variant.bandwidth == HLSMaster.bandwidthLimit && variant.width == nil)
    }

    /// A looping stream seeks back to its start (HLS refuses a time before
    /// the first packet it read, so the loop asks for the latest stream
    /// start): every pass plays, and the segment cache serves the passes
    /// after the first. A cache smaller than the stream keeps its first
    /// segments and stays within its size; `0` turns it off.
    @Test(arguments: [([String](), 1, 1), (["--stream-cache-size", "260k"], 1, 4), (["--stream-cache-size", "0"], 4, 4)])
    func aStreamLoopsAndDownloadsOnce(_ extra: [String], _ firstSegmentFetches: Int, _ lastSegmentFetches: Int) throws {
        let dir = try #require(StreamTests.stream, "ffmpeg could not make the HLS stream")
        let server = try HLSServer(serving: dir)
        let stats = dir.deletingLastPathComponent().appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        // Its own temporary folder: where segments beyond the memory part spill.
        let temp = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        let r = try runProcess(Fixtures.binary, [server.url("master.m3u8"), "--max-resolution", "640x360", "--loop", "4",
                                                 "--stats-json", stats.path] + extra,
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": "/dev/null",
                                             "SDL_DISKAUDIODELAY": "0", "TMPDIR": temp.path], timeout: 60)
        #expect(r.status == 0 && !r.stderr.contains("seek failed"), "\(r.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        let player = try #require(report.players.first)
        #expect(player.loopCount == 3)
        let requests = server.requests
        #expect(requests.filter { $0 == "/v1/index0.ts" }.count == firstSegmentFetches, "\(requests)")
        #expect(requests.filter { $0 == "/v1/index3.ts" }.count == lastSegmentFetches, "\(requests)")
        if extra.last == "260k" {
            // A quarter in memory, the rest spilled to disk; the folder is gone at exit.
            #expect((player.cacheBytes ?? .max) <= 260_000)
            #expect((player.cacheMemoryBytes ?? .max) <= 65_000 && (player.cacheBytes ?? 0) > (player.cacheMemoryBytes ?? 0),
                    "\(String(describing: player.cacheBytes)) bytes, \(String(describing: player.cacheMemoryBytes)) in memory")
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: temp.path))?.isEmpty == true, "the spill folder is removed")
    }

    /// Faults on the second segment, injected by the server: a server error
    /// that clears is retried and nothing is lost; a missing segment, a
    /// lasting server error or a dropped connection is skipped (a gap of one
    /// segment), said in one line, and playback carries on to the end.
    @Test(arguments: [("404", false), ("500x2", true), ("500", false), ("reset", false), ("truncate", false)])
    func faultsAreRetriedOrSkippedAndReported(_ fault: String, _ recovers: Bool) throws {
        let dir = try #require(StreamTests.stream, "ffmpeg could not make the HLS stream")
        let server = try HLSServer(serving: dir, faults: "/v1/index1.ts=\(fault)")
        let stats = dir.deletingLastPathComponent().appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let r = try runProcess(Fixtures.binary, [server.url("master.m3u8"), "--max-resolution", "640x360",
                                                 "--stats-json", stats.path],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        // Frames whose time came, shown or dropped as late (a loaded machine drops some):
        // a segment skipped has none, a segment retried has all of its.
        let entry = report.players.first
        let frames = (entry?.framesPresented ?? 0) + (entry?.framesDropped ?? 0) + (entry?.framesSkipped ?? 0)
        let said = r.stderr.split(separator: "\n").filter { $0.hasPrefix("deskplayer: stream: ") }
        if recovers {
            #expect(said.isEmpty, "\(r.stderr)")
            #expect(frames >= 110, "all 4 s played: \(frames) frames")
        } else {
            if fault == "truncate" {
                // Half the segment came: it plays, and the cut is said.
                #expect(said.count == 1 && said.first?.contains("cut short") == true, "\(r.stderr)")
                #expect(frames >= 80 && frames < 119, "half of one 1 s segment missing: \(frames) frames")
            } else {
                #expect(said.count == 1 && said.first?.contains("segment 1") == true, "\(r.stderr)")
                #expect(frames >= 80 && frames < 110, "one 1 s segment missing: \(frames) frames")
            }
        }
        #expect(server.requests.contains("/v1/index3.ts"), "it carried on to the last segment")
    }

    /// A server that stalls 5 s on a segment: the stream's tile waits (the
    /// time is counted, the OSD says "Waiting for data…"), nothing is lost,
    /// and a file looping in another tile never waits (an audio file: cheap,
    /// and its clock is the one a stall would stop).
    @Test func aStalledSegmentIsWaitedForWhileOtherTilesPlayOn() throws {
        let dir = try #require(StreamTests.stream, "ffmpeg could not make the HLS stream")
        let server = try HLSServer(serving: dir, faults: "/v1/index2.ts=stall5")
        let stats = dir.deletingLastPathComponent().appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let r = try runProcess(Fixtures.binary, [server.url("master.m3u8"), Fixtures.asset("tone.flac"), "--layout", "grid",
                                                 "--loop", "inf", "--max-resolution", "640x360", "--stats-json", stats.path,
                                                 "--quit-after", "9"],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        let stream = try #require(report.players.first { $0.item.hasPrefix("http") })
        let file = try #require(report.players.first { $0.item.hasSuffix("tone.flac") })
        // The demuxer reads 3 s ahead: a 5 s stall on the third second leaves about 2 s to wait.
        #expect((1.0...5.0).contains(stream.waitingSeconds ?? 0), "waited \(stream.waitingSeconds ?? 0) s")
        #expect(stream.framesPresented >= 110, "nothing lost: \(stream.framesPresented) frames")
        // (Under a loaded machine a tile may starve for a few ms; a stall would be seconds.)
        #expect((file.waitingSeconds ?? 1) < 0.3, "the file tile: \(file)")
        #expect(!r.stderr.contains("deskplayer: stream:"), "\(r.stderr)")
    }

    @Test func theCacheSpillsToAPrivateFolderRemovedWithIt() throws {
        var cache: SegmentCache? = SegmentCache(limit: 20, memoryLimit: 8)
        cache?.store(Data(repeating: 1, count: 4), for: "a")
        cache?.store(Data(repeating: 2, count: 4), for: "b")
        cache?.store(Data(repeating: 3, count: 4), for: "c")  // memory is full: to disk
        #expect(cache?.memoryBytes == 8 && cache?.bytes == 12)
        #expect(cache?.data(for: "c") == Data(repeating: 3, count: 4))
        let folder = try #require(cache?.spillFolder)
        let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        cache = nil
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    /// The spill folder is made by mkdtemp under the base it is given
    /// (`$XDG_RUNTIME_DIR` by default), marked as ours; at the first spill
    /// only a stale folder that is ours (our marker, our user, its player
    /// ended) is removed: one merely named like ours, or a link, stays.
    @Test func onlyStaleSpillFoldersThatAreOursAreRemoved() throws {
        let base = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        // A process id that has ended: a child's, reaped.
        let ended = try runTool("/bin/sh", ["-c", "echo $$"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(kill(Int32(ended) ?? 0, 0) != 0 && errno == ESRCH)
        let fm = FileManager.default
        func folder(_ name: String, marked: Bool, named: Bool = true) throws -> URL {
            let url = base.appendingPathComponent((named ? SegmentCache.folderPrefix + "\(ended)-" : "") + name)
            try fm.createDirectory(at: url, withIntermediateDirectories: false)
            try Data("someone's file".utf8).write(to: url.appendingPathComponent("keep.txt"))
            if marked { try Data().write(to: url.appendingPathComponent(SegmentCache.markerName)) }
            return url
        }
        let stale = try folder("ours", marked: true)
        let lookalike = try folder("notours", marked: false)
        let target = try folder("elsewhere", marked: true, named: false)
        let link = base.appendingPathComponent(SegmentCache.folderPrefix + "\(ended)-link")
        try fm.createSymbolicLink(at: link, withDestinationURL: target)

        var cache: SegmentCache? = SegmentCache(limit: 1 << 20, memoryLimit: 0, spillBase: base)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.asset("demo.mp4"))).prefix(200_000)
        cache?.store(bytes, for: "http://example.invalid/seg1.ts")
        #expect(cache?.data(for: "http://example.invalid/seg1.ts") == bytes, "kept on disk, read back whole")
        let spill = try #require(cache?.spillFolder)
        #expect(spill.path.hasPrefix(base.path + "/") && !spill.path.dropFirst(base.path.count + 1).contains("/"), "\(spill.path)")
        #expect(spill.lastPathComponent.hasPrefix(SegmentCache.folderPrefix + "\(getpid())-"))
        #expect(try fm.attributesOfItem(atPath: spill.path)[.posixPermissions] as? Int == 0o700)
        #expect(fm.fileExists(atPath: spill.appendingPathComponent(SegmentCache.markerName).path))

        #expect(!fm.fileExists(atPath: stale.path), "our stale folder went")
        #expect(fm.fileExists(atPath: lookalike.appendingPathComponent("keep.txt").path), "a folder without our marker stays")
        #expect(fm.fileExists(atPath: target.appendingPathComponent("keep.txt").path), "a link is not followed")
        #expect((try? fm.destinationOfSymbolicLink(atPath: link.path)) != nil, "nor removed")
        cache = nil
        #expect(!fm.fileExists(atPath: spill.path), "the cache's own folder goes with it")
    }

    /// A variant whose audio is an alternate rendition plays with the one
    /// rendition chosen (--alang, else the default); no other variant or
    /// rendition is requested.
    @Test(arguments: [([String](), "aen", "afr", 441.0), (["--alang", "fr"], "afr", "aen", 1000.0)])
    func anAlternateAudioRenditionPlaysAlone(_ extra: [String], _ used: String, _ unused: String, _ frequency: Double) throws {
        let dir = try #require(StreamTests.stream, "ffmpeg could not make the HLS stream")
        let server = try HLSServer(serving: dir)
        let audio = dir.deletingLastPathComponent().appendingPathComponent("audio-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: audio) }
        let r = try runProcess(Fixtures.binary, [server.url("renditions.m3u8"), "--max-resolution", "640x360"] + extra,
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": audio.path],
                               timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let requests = server.requests
        #expect(requests.contains("/vn1/index1.ts") && requests.contains("/\(used)/index1.ts"), "\(requests)")
        #expect(!requests.contains { $0.hasPrefix("/vn0/") || $0.hasPrefix("/\(unused)/") }, "\(requests)")
        // The rendition is heard: its tone, counted by rising zero crossings over
        // a second from 0.5 s in (the device wrote silence while the stream opened).
        let left = try CapturedAudio.leftChannel(audio)
        let start = try #require(left.firstIndex { abs($0) > 1e-3 }, "nothing heard")
        let middle = left.dropFirst(start + 24_000).prefix(48_000)
        let crossings = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(Double(crossings) - frequency) < frequency * 0.05, "\(crossings) Hz heard")
    }

    @Test func theCacheKeepsWhatFitsAndCounts() {
        let cache = SegmentCache(limit: 10, memoryLimit: 10)
        cache.store(Data(count: 4), for: "a")
        cache.store(Data(count: 4), for: "b")
        cache.store(Data(count: 4), for: "c")  // does not fit: a and b stay
        #expect(cache.bytes == 8)
        #expect(cache.data(for: "a")?.count == 4 && cache.data(for: "b") != nil && cache.data(for: "c") == nil)
        #expect(cache.hits == 2)
        #expect(SegmentCache.caches("http://h/seg1.ts") && !SegmentCache.caches("http://h/live.m3u8?x=1"))
    }

    @Test func aNetworkPlaylistCannotReachLocalFiles() throws {
        let dir = try #require(StreamTests.stream, "ffmpeg could not make the HLS stream")
        let server = try HLSServer(serving: dir)
        let stats = dir.deletingLastPathComponent().appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let r = try play(server.url("local.m3u8"), [], stats: stats)
        #expect(r.status == 1)
        #expect(r.stderr.contains("refers to a local file"), "\(r.stderr)")
    }

    @Test func variantAttributesAreRead() {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,CODECS="avc1.4d401f,mp4a.40.2",RESOLUTION=854x480
            low/index.m3u8
            #EXT-X-STREAM-INF:RESOLUTION=1920x1080,BANDWIDTH=5000000
            https://cdn.example/hi.m3u8
            """
        let variants = HLSMaster.variants(in: text, base: "http://host/path/master.m3u8")
        #expect(variants == [HLSVariant(uri: "http://host/path/low/index.m3u8", bandwidth: 1_280_000, width: 854, height: 480),
                             HLSVariant(uri: "https://cdn.example/hi.m3u8", bandwidth: 5_000_000, width: 1920, height: 1080)])
        #expect(HLSMaster.choose(variants, maxWidth: nil, maxHeight: nil, maxBitrate: nil)?.bandwidth == 5_000_000)
        #expect(HLSMaster.choose(variants, maxWidth: 1280, maxHeight: 720, maxBitrate: nil)?.bandwidth == 1_280_000)
        #expect(HLSMaster.choose(variants, maxWidth: nil, maxHeight: nil, maxBitrate: 2_000_000)?.bandwidth == 1_280_000)
        #expect(HLSMaster.variants(in: "#EXTM3U\n#EXTINF:1,\nseg0.ts\n", base: "http://h/x.m3u8").isEmpty)
    }
}
