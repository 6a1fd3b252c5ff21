// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// Loop seams of streams (#17): audio+video MPEG-TS and HLS loop on the
/// video's interval, so every pass is exactly the content, with no priming
/// before it or padding after it. Real decoded output of media made by
/// FFmpeg's own muxers (HLS with TS and fMP4 segments, an alternate audio
/// rendition, a .ts file), served over HTTP by the stream tests' server.
/// The content is 2 s of 30 fps video and 2 s of stereo noise: noise makes
/// every position unique, so where each pass starts in the output is found
/// exactly by cross-correlation with the first pass.
@Suite(.serialized) struct StreamSeamTests {
    let pipelines = Pipelines()
    static let passLength = 96_000  // 2 s at the device's 48 kHz

    /// The media, made once (about 10 s of ffmpeg).
    static let media: URL? = {
        let dir = Fixtures.temporaryDirectory().appendingPathComponent("stream-seams")
        func folder(_ name: String) -> String {
            let url = dir.appendingPathComponent(name)
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url.path
        }
        func video(_ size: String = "160x90", _ source: String = "testsrc2") -> [String] {
            ["-f", "lavfi", "-i", "\(source)=size=\(size):rate=30:duration=2"]
        }
        func noise(_ rate: Int, _ filter: String = "") -> [String] {
            ["-f", "lavfi", "-i", "anoisesrc=color=white:amplitude=0.3:sample_rate=\(rate):duration=2:seed=7\(filter)"]
        }
        let encode = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30", "-c:a", "aac", "-b:a", "128k", "-ac", "2"]
        let hls = ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod"]
        let runs: [[String]] = [
            video() + noise(44100) + encode + hls + [folder("ts44") + "/index.m3u8"],
            video() + noise(48000) + encode + hls + [folder("ts48") + "/index.m3u8"],
            video() + noise(48000) + encode + hls + ["-hls_segment_type", "fmp4", folder("fmp4") + "/index.m3u8"],
            // An alternate audio rendition (EXT-X-MEDIA) on the video's timeline, as one ffmpeg run writes it.
            video() + noise(44100) + ["-map", "0:v", "-map", "1:a"] + encode + hls
                + ["-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,agroup:aud a:0,agroup:aud,default:yes",
                   folder("rendition") + "/stream_%v.m3u8"],
            video() + noise(48000) + encode + [dir.appendingPathComponent("clip.ts").path],
            // Audio 0.5 s after the video.
            video() + ["-itsoffset", "0.5"] + noise(48000) + encode + [dir.appendingPathComponent("late.ts").path],
            // Timestamps that wrap (2^33 ticks of 90 kHz) 1.3 s into the clip.
            video() + noise(48000) + encode + ["-output_ts_offset", "95441", dir.appendingPathComponent("wrap.ts").path],
            // Two variants that differ in priming: FFmpeg's 1024 samples, and 2112 (as Apple's encoder).
            video("320x180") + noise(44100) + encode + hls + [folder("variants/v0") + "/index.m3u8"],
            video() + ["-itsoffset", "-0.024671"] + noise(44100, ",adelay=1088S:all=1") + encode + hls
                + [folder("variants/v1") + "/index.m3u8"],
            // A second piece made apart (its clock starts again) for a discontinuity.
            video("160x90", "testsrc") + noise(48000) + encode + hls + [folder("piece2") + "/index.m3u8"],
            noise(48000) + ["-c:a", "aac", "-b:a", "128k", "-ac", "2", dir.appendingPathComponent("noise.aac").path],
            noise(48000) + ["-c:a", "aac", "-b:a", "128k", "-ac", "2", dir.appendingPathComponent("audio.ts").path],
        ]
        for arguments in runs {
            guard (try? runTool("ffmpeg", ["-v", "error", "-y"] + arguments))?.status == 0 else { return nil }
        }
        let texts = [
            "variants/master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=320x180\nv0/index.m3u8\n"
                + "#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=160x90\nv1/index.m3u8\n",
            "discontinuity.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
                + "#EXTINF:1.0,\nts48/index0.ts\n#EXTINF:1.0,\nts48/index1.ts\n#EXT-X-DISCONTINUITY\n"
                + "#EXTINF:1.0,\npiece2/index0.ts\n#EXTINF:1.0,\npiece2/index1.ts\n#EXT-X-ENDLIST\n",
            // No EXT-X-ENDLIST: a live playlist.
            "live.m3u8": "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n"
                + "#EXTINF:1.0,\nts48/index0.ts\n#EXTINF:1.0,\nts48/index1.ts\n",
        ]
        for (name, text) in texts {
            try? text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir
    }()

    /// Opens `location` to play `passes` times and waits until it is ready.
    func open(_ location: String, passes: Int?, preferences: ItemPreferences = ItemPreferences())
        throws -> (PlayerItem, ItemPipeline) {
        try openItem(location, preferences: preferences, size: (32, 18), timeout: 20) { $0.setPasses(passes) }
    }

    /// Samples inserted (+) or lost (-) at each seam: where each pass's
    /// content is found against the first pass's (left channel,
    /// cross-correlation of 2048 samples from `probeAt` in, ±200 around
    /// where an exact seam puts it).
    static func seamErrors(_ samples: [Float], passes: Int, probeAt: Int = 4800) -> [Int] {
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let probe = Array(left[min(probeAt, left.count)..<min(probeAt + 2048, left.count)])
        guard probe.count == 2048 else { return [] }
        var lags = [0]
        for k in 1..<passes {
            var best = (lag: 0, score: -Float.infinity)
            for lag in -200...200 {
                let at = k * passLength + probeAt + lag
                guard at >= 0, at + 2048 <= left.count else { continue }
                var score: Float = 0
                for i in 0..<2048 { score += probe[i] * left[at + i] }
                if score > best.score { best = (lag, score) }
            }
            lags.append(best.lag)
        }
        return zip(lags, lags.dropFirst()).map { $1 - $0 }
    }

    /// Every frame once, each one frame after the last, the first at zero.
    func expectEveryFrameOnce(_ video: DrainedVideo, count: Int, _ name: String) {
        #expect(video.pts.count == count, "\(name): \(video.pts.count) frames")
        #expect(video.pts.first == .zero, "\(name): the first frame at \(String(describing: video.pts.first))")
        let frame = MediaTime(value: 1, timescale: 30)
        let odd = zip(video.pts, video.pts.dropFirst()).filter { $1 - $0 != frame }.map { "\($0.0)→\($0.1)" }
        #expect(odd.isEmpty, "\(name): steps of other than one frame: \(odd.prefix(5))")
    }

    /// The cases: HLS with TS segments (44.1 and 48 kHz), with fMP4
    /// segments, with an alternate audio rendition, and a .ts file. Picture
    /// and sound start together at zero, each pass is the video's 2 s, and
    /// the seams neither add nor lose a sample or a frame.
    @Test(arguments: ["ts44/index.m3u8", "ts48/index.m3u8", "fmp4/index.m3u8", "rendition/master.m3u8", "clip.ts"])
    func audioAndVideoStreamsLoopOnTheVideosInterval(_ name: String) throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir)
        let location = name.hasSuffix(".m3u8") ? server.url(name) : dir.appendingPathComponent(name).path
        let (item, pipeline) = try open(location, passes: 3)
        defer { withExtendedLifetime(item) {} }
        let (video, audio) = pipelines.drain(pipeline, keepSamples: true)
        #expect(audio.firstTime == .zero, "\(name): sound starts at \(String(describing: audio.firstTime))")
        #expect(abs(audio.frames - 3 * StreamSeamTests.passLength) <= 1,
                "\(name): \(audio.frames - 3 * StreamSeamTests.passLength) samples more than 3 passes of 2 s")
        #expect(audio.continuous)
        let errors = StreamSeamTests.seamErrors(audio.samples, passes: 3)
        #expect(errors.count == 2 && errors.allSatisfy { abs($0) <= 1 }, "\(name): seam errors \(errors)")
        #expect(pipeline.passStarts == [.zero, MediaTime(value: 2, timescale: 1), MediaTime(value: 4, timescale: 1)])
        expectEveryFrameOnce(video, count: 180, name)
    }

    /// A stream whose variants differ in priming (FFmpeg's 1024 samples,
    /// Apple's 2112): whichever is chosen loops exactly on its own video.
    @Test(arguments: [(nil, "v0"), (160, "v1")] as [(Int?, String)])
    func variantsThatDifferInPrimingEachLoopExactly(_ maxWidth: Int?, _ variant: String) throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir)
        var preferences = ItemPreferences()
        preferences.maxWidth = maxWidth
        let (item, pipeline) = try open(server.url("variants/master.m3u8"), passes: 3, preferences: preferences)
        defer { withExtendedLifetime(item) {} }
        let (video, audio) = pipelines.drain(pipeline, keepSamples: true)
        #expect(server.requests.contains("/variants/\(variant)/index0.ts"), "\(server.requests)")
        #expect(abs(audio.frames - 3 * StreamSeamTests.passLength) <= 1, "\(variant): \(audio.frames) samples")
        let errors = StreamSeamTests.seamErrors(audio.samples, passes: 3)
        #expect(errors.count == 2 && errors.allSatisfy { abs($0) <= 1 }, "\(variant): seam errors \(errors)")
        expectEveryFrameOnce(video, count: 180, variant)
    }

    /// A seek back to zero starts picture and sound together again, priming
    /// cut (fMP4 HLS: the input is opened again, as a loop does).
    @Test func aSeekToZeroStartsPictureAndSoundTogether() throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir)
        let (item, pipeline) = try open(server.url("fmp4/index.m3u8"), passes: 2)
        defer { withExtendedLifetime(item) {} }
        // Into the first pass a little, then back to zero.
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 4096)
        defer { buffer.deallocate() }
        let deadline = Date().addingTimeInterval(10)
        var read = 0
        while read < 48_000 && Date() < deadline {
            let (n, _, _) = pipeline.audioRing.read(into: buffer, frames: 2048)
            _ = pipeline.frames.pop()
            read += n
            if n == 0 { Thread.sleep(forTimeInterval: 0.001) }
        }
        pipeline.seek(to: .zero)
        let (video, audio) = pipelines.drain(pipeline, keepSamples: true)
        #expect(audio.firstTime == .zero)
        #expect(abs(audio.frames - 2 * StreamSeamTests.passLength) <= 1, "\(audio.frames) samples")
        let errors = StreamSeamTests.seamErrors(audio.samples, passes: 2)
        #expect(errors == [0] || errors == [1] || errors == [-1], "seam errors \(errors)")
        expectEveryFrameOnce(video, count: 120, "after the seek")
    }

    /// Audio that starts after its video: the pass is still the video's,
    /// its first half second silence (said once), and it loops exactly.
    @Test func audioThatStartsLateIsMadeUpWithSilence() throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let (item, pipeline) = try open(dir.appendingPathComponent("late.ts").path, passes: 3)
        defer { withExtendedLifetime(item) {} }
        let (video, audio) = pipelines.drain(pipeline, keepSamples: true)
        let warnings = item.takeWarnings()
        #expect(warnings.count == 1 && warnings.first?.contains("audio starts 0.47") == true, "\(warnings)")
        #expect(audio.firstTime == .zero && audio.continuous)
        #expect(abs(audio.frames - 3 * StreamSeamTests.passLength) <= 1, "\(audio.frames) samples")
        // Silence until the sound comes, in every pass.
        for pass in 0..<3 {
            let start = pass * StreamSeamTests.passLength * 2
            let quiet = audio.samples[start..<(start + 22_000 * 2)].map { abs($0) }.max() ?? 1
            #expect(quiet == 0, "pass \(pass): \(quiet) before the sound")
        }
        let errors = StreamSeamTests.seamErrors(audio.samples, passes: 3, probeAt: 48_000)
        #expect(errors.count == 2 && errors.allSatisfy { abs($0) <= 1 }, "seam errors \(errors)")
        expectEveryFrameOnce(video, count: 180, "late.ts")
    }

    /// Timestamps that wrap (33 bits of 90 kHz) inside a pass: one timeline,
    /// exact seams.
    @Test func timestampsThatWrapInsideAPassLoopExactly() throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let (item, pipeline) = try open(dir.appendingPathComponent("wrap.ts").path, passes: 3)
        defer { withExtendedLifetime(item) {} }
        let (video, audio) = pipelines.drain(pipeline, keepSamples: true)
        #expect(abs(audio.frames - 3 * StreamSeamTests.passLength) <= 1, "\(audio.frames) samples")
        #expect(audio.continuous)
        let errors = StreamSeamTests.seamErrors(audio.samples, passes: 3)
        #expect(errors.count == 2 && errors.allSatisfy { abs($0) <= 1 }, "seam errors \(errors)")
        expectEveryFrameOnce(video, count: 180, "wrap.ts")
    }

    /// A discontinuity (a second piece whose clock starts again): played on
    /// as one timeline, said once, every pass the two pieces' 4 s.
    @Test func aDiscontinuityPlaysOnAsOneTimeline() throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir)
        let (item, pipeline) = try open(server.url("discontinuity.m3u8"), passes: 2)
        defer { withExtendedLifetime(item) {} }
        let (video, audio) = pipelines.drain(pipeline)
        let warnings = item.takeWarnings()
        #expect(warnings.count == 1 && warnings.first?.contains("discontinuity") == true, "\(warnings)")
        #expect(audio.continuous)
        #expect(abs(audio.frames - 4 * StreamSeamTests.passLength) <= 1, "\(audio.frames) samples")
        #expect(pipeline.passStarts == [.zero, MediaTime(value: 4, timescale: 1)])
        expectEveryFrameOnce(video, count: 240, "discontinuity")
    }

    /// The last segment missing (404) on every pass: each pass ends where
    /// the stream does, the line is said once, and it loops on.
    @Test func aSegmentMissingAtTheSeamIsSaidOnce() throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir, faults: "/ts48/index1.ts=404")
        let stats = dir.appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let r = try runProcess(Fixtures.binary, [server.url("ts48/index.m3u8"), "--loop", "4", "--stats-json", stats.path],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 60)
        #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
        let said = r.stderr.split(separator: "\n").filter { $0.hasPrefix("deskplayer:") }
        #expect(said.count == 1 && said.first?.contains("segment 1") == true, "\(r.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect(report.players.first?.loopCount == 3, "\(String(describing: report.players.first))")
    }

    /// A live playlist (no EXT-X-ENDLIST) asked to loop: one line says it
    /// cannot, and it plays.
    @Test func aLiveStreamSaysItCannotLoopAndPlays() throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir)
        let stats = dir.appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let r = try runProcess(Fixtures.binary, [server.url("live.m3u8"), "--loop", "inf", "--quit-after", "1.5",
                                                 "--stats-json", stats.path],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 60)
        #expect(r.status == 0, "\(r.stderr)")
        let said = r.stderr.split(separator: "\n").filter { $0.hasPrefix("deskplayer:") }
        #expect(said.count == 1 && said.first?.contains("a live stream cannot loop") == true, "\(r.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect((report.players.first?.framesPresented ?? 0) > 15, "\(String(describing: report.players.first))")
    }

    /// Audio-only ADTS has nothing to anchor a pass to and says nothing of
    /// its priming or padding: every decoded sample plays (FFmpeg's encoder:
    /// 1024 priming and, for 2 s at 48 kHz, 256 padding), as mpv and ffplay
    /// play it; the stream's estimated duration no longer cuts real sound.
    @Test func audioOnlyADTSPlaysEveryDecodedSample() throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let (item, pipeline) = try open(dir.appendingPathComponent("noise.aac").path, passes: 2)
        defer { withExtendedLifetime(item) {} }
        let (_, audio) = pipelines.drain(pipeline)
        #expect(audio.frames == 2 * (StreamSeamTests.passLength + 1024 + 256), "\(audio.frames) samples")
        #expect(pipeline.passStarts == [.zero, MediaTime(value: 97_280, timescale: 48_000)])
    }

    /// With the priming and padding given (`--audio-trim 1024,256`: FFmpeg's
    /// encoder, 2 s at 48 kHz), audio alone loops exactly: ADTS, and a .ts.
    @Test(arguments: ["noise.aac", "audio.ts"])
    func audioAloneLoopsExactlyWithTheTrimGiven(_ name: String) throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        var preferences = ItemPreferences()
        preferences.audioTrim = SampleTrim(start: 1024, end: 256)
        let (item, pipeline) = try open(dir.appendingPathComponent(name).path, passes: 3, preferences: preferences)
        defer { withExtendedLifetime(item) {} }
        let (_, audio) = pipelines.drain(pipeline, keepSamples: true)
        #expect(item.takeWarnings().isEmpty)
        #expect(audio.firstTime == .zero && audio.continuous)
        #expect(audio.frames == 3 * StreamSeamTests.passLength, "\(name): \(audio.frames) samples")
        let errors = StreamSeamTests.seamErrors(audio.samples, passes: 3)
        #expect(errors == [0, 0], "\(name): seam errors \(errors)")
        #expect(pipeline.passStarts == [.zero, MediaTime(value: 2, timescale: 1), MediaTime(value: 4, timescale: 1)])
    }
}
