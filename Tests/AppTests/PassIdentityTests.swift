// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Output
@testable import Playback
@testable import UI
import PlaybackTestSupport
import TestSupport

/// Loops exact on the streams packagers make (#28): every loop pass plays
/// the same samples as the first, bit for bit, whatever the audio codec
/// (AAC, AC-3, E-AC-3, Opus), the segments (MPEG-TS, fMP4), the renditions
/// and the timestamps (a discontinuity, the 33-bit wrap). The media is made
/// with FFmpeg's HLS muxer as packagers make it: 2 s of 30 fps video and 2 s
/// of stereo noise at 48 kHz (no resampling to the device's 48 kHz, so the
/// comparison is of the decoder's own samples).
@Suite(.serialized) struct PassIdentityTests {
    let pipelines = Pipelines()
    static let passLength = StreamSeamTests.passLength

    /// The media, made once.
    static let media: URL? = {
        let dir = Fixtures.temporaryDirectory().appendingPathComponent("pass-identity")
        func folder(_ name: String) -> String {
            let url = dir.appendingPathComponent(name)
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url.path
        }
        let video = ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=2"]
        let noise = ["-f", "lavfi", "-i", "anoisesrc=color=white:amplitude=0.3:sample_rate=48000:duration=2:seed=7"]
        let noise44 = ["-f", "lavfi", "-i", "anoisesrc=color=white:amplitude=0.3:sample_rate=44100:duration=2:seed=7"]
        let h264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30"]
        let hls = ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod"]
        func audio(_ codec: String) -> [String] { ["-c:a", codec, "-ac", "2"] }
        let runs: [[String]] = [
            video + noise + h264 + audio("ac3") + [dir.appendingPathComponent("ac3.ts").path],
            video + noise + h264 + audio("eac3") + [dir.appendingPathComponent("eac3.ts").path],
            video + noise + h264 + audio("ac3") + hls + [folder("ac3") + "/index.m3u8"],
            video + noise + h264 + audio("eac3") + hls + [folder("eac3") + "/index.m3u8"],
            video + noise + h264 + audio("aac") + hls + ["-hls_segment_type", "fmp4", folder("fmp4") + "/index.m3u8"],
            // 44.1 kHz, resampled to the device's 48 kHz.
            video + noise44 + h264 + audio("aac") + hls + ["-hls_segment_type", "fmp4", folder("fmp4-44") + "/index.m3u8"],
            video + noise44 + h264 + audio("aac") + hls + [folder("ts-44") + "/index.m3u8"],
            // An audio-only rendition (EXT-X-MEDIA) beside the video, and audio alone.
            video + noise + ["-map", "0:v", "-map", "1:a"] + h264 + audio("aac") + hls
                + ["-master_pl_name", "master.m3u8", "-var_stream_map", "v:0,agroup:aud a:0,agroup:aud,default:yes",
                   folder("rendition") + "/stream_%v.m3u8"],
            noise + audio("aac") + hls + [folder("audio") + "/index.m3u8"],
            noise44 + audio("aac") + [dir.appendingPathComponent("audio-44.ts").path],
            // Two pieces for a discontinuity, the second's sound starting 0.12 s after its picture.
            video + noise + h264 + audio("aac") + hls + [folder("piece1") + "/index.m3u8"],
            ["-f", "lavfi", "-i", "testsrc=size=160x90:rate=30:duration=2", "-itsoffset", "0.12", "-f", "lavfi", "-i",
             "anoisesrc=color=pink:amplitude=0.3:sample_rate=48000:duration=1.88:seed=9"] + h264 + audio("aac") + hls
                + [folder("piece2") + "/index.m3u8"],
            // Opus in MPEG-TS: over HLS only the first of every five packets has a timestamp.
            video + noise + h264 + audio("libopus") + hls + [folder("opus") + "/index.m3u8"],
            video + noise + h264 + audio("libopus") + [dir.appendingPathComponent("opus.ts").path],
        ]
        for arguments in runs {
            guard (try? runTool("ffmpeg", ["-v", "error", "-y"] + arguments))?.status == 0 else { return nil }
        }
        let discontinuity = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + "#EXTINF:1.0,\npiece1/index0.ts\n#EXTINF:1.0,\npiece1/index1.ts\n#EXT-X-DISCONTINUITY\n"
            + "#EXTINF:1.0,\npiece2/index0.ts\n#EXTINF:1.0,\npiece2/index1.ts\n#EXT-X-ENDLIST\n"
        try? discontinuity.write(to: dir.appendingPathComponent("hole.m3u8"), atomically: true, encoding: .utf8)
        // x264's own defaults (B-frames: every video PES carries a DTS), then
        // the first keyframe's DTS taken out, as some packagers write it.
        let bframes = dir.appendingPathComponent("bframes.ts")
        let withBFrames = video + noise + ["-c:v", "libx264", "-g", "30"] + audio("aac") + [bframes.path]
        guard (try? runTool("ffmpeg", ["-v", "error", "-y"] + withBFrames))?.status == 0,
              let ts = try? Data(contentsOf: bframes), let stripped = stripFirstVideoDTS(ts) else { return nil }
        try? stripped.write(to: dir.appendingPathComponent("nodts.ts"))
        return dir
    }()

    /// `ts` with the DTS of its first video PES header made stuffing (its
    /// PTS_DTS_flags say PTS only); nil when there is no such header.
    static func stripFirstVideoDTS(_ ts: Data) -> Data? {
        var bytes = [UInt8](ts)
        for start in stride(from: 0, to: bytes.count - 187, by: 188) where bytes[start + 1] & 0x40 != 0 {
            var o = start + 4
            if (bytes[start + 3] >> 4) & 2 != 0 { o += 1 + Int(bytes[start + 4]) }
            guard o + 19 < start + 188, bytes[o] == 0, bytes[o + 1] == 0, bytes[o + 2] == 1,
                  bytes[o + 3] & 0xF0 == 0xE0 else { continue }
            guard bytes[o + 7] & 0xC0 == 0xC0 else { return nil }
            bytes[o + 7] = bytes[o + 7] & 0x3F | 0x80  // PTS only
            bytes[o + 9] = bytes[o + 9] & 0x0F | 0x20  // the PTS's own prefix for that
            for k in 14..<19 { bytes[o + k] = 0xFF }  // the DTS's five bytes: stuffing
            return Data(bytes)
        }
        return nil
    }

    /// Every sample the decoder gives for the audio of `path`, left channel,
    /// decoded twice by the one decoder, flushed between (as a loop seam or
    /// a seek back does).
    static func decodeTwice(_ path: String) throws -> (first: [Float], second: [Float]) {
        let input = try MediaInput(location: MediaLocation(path), interrupt: InterruptFlag())
        let index = try #require(input.bestStream(AVMEDIA_TYPE_AUDIO))
        let decoder = try Decoder(stream: try #require(input.stream(index)), threads: 1)
        var packets: [Packet] = []
        let packet = try Packet()
        while try input.read(into: packet) {
            if Int(packet.streamIndex) == index { packets.append(try packet.take()) } else { packet.unref() }
        }
        let frame = try Frame()
        func decodeAll() -> [Float] {
            var samples: [Float] = []
            func keep(_ frame: Frame) {
                guard let plane = frame.pointer.pointee.extended_data?[0] else { return }
                plane.withMemoryRebound(to: Float.self, capacity: frame.sampleCount) {
                    samples.append(contentsOf: UnsafeBufferPointer(start: $0, count: frame.sampleCount))
                }
            }
            for p in packets + [nil] { decoder.decode(p, into: frame, until: { false }, each: keep) }
            decoder.flush()
            return samples
        }
        return (decodeAll(), decodeAll())
    }

    /// AC-3's decoder dithers what the bit stream leaves out from a random
    /// generator that ran on across a flush: the same packets decoded again
    /// differed throughout. Now its noise comes from each frame's own data.
    @Test(arguments: ["ac3.ts", "eac3.ts"])
    func ac3DecodesTheSameSamplesEveryTime(_ name: String) throws {
        let dir = try #require(PassIdentityTests.media, "ffmpeg could not make the media")
        let (first, second) = try PassIdentityTests.decodeTwice(dir.appendingPathComponent(name).path)
        #expect(first.count >= 96_000 && first.count == second.count, "\(first.count) and \(second.count) samples")
        // Past the first frame (1536 samples): what a flushed decoder keeps
        // of the frame before (its overlap) is the seam's business, not the dither's.
        let differing = zip(first, second).dropFirst(1536).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(first.count) samples of \(name) differ the second time")
    }

    /// The left channel's samples of each pass (`length` frames each).
    static func passes(_ samples: [Float], count: Int, length: Int) -> [ArraySlice<Float>] {
        (0..<count).map { k in
            let start = min(samples.count, k * length * 2), end = min(samples.count, (k + 1) * length * 2)
            return samples[start..<end]
        }
    }

    /// The largest difference between two passes' samples (infinity when their lengths differ).
    static func largestDifference(_ a: ArraySlice<Float>, _ b: ArraySlice<Float>) -> Float {
        guard a.count == b.count else { return .infinity }
        return zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    /// Every pass plays the first one's samples, bit for bit, and those of
    /// the item played once: the decoder is made afresh at each seam (a
    /// flushed AAC decoder kept its window shape and decoded the first
    /// frame of every later pass differently whenever the pass began on a
    /// frame boundary: fMP4 segments, an audio rendition, audio alone), and
    /// AC-3's dither is repeatable. 44.1 kHz streams too: the resampler is
    /// drained and started afresh at each seam (it ran on through them, so
    /// each pass was resampled from another filter state).
    @Test(arguments: ["fmp4/index.m3u8", "fmp4-44/index.m3u8", "ts-44/index.m3u8", "rendition/master.m3u8", "audio/index.m3u8", "audio-44.ts", "ac3/index.m3u8",
                      "eac3/index.m3u8", "ac3.ts"])
    func everyPassPlaysTheFirstPassesSamples(_ name: String) throws {
        let dir = try #require(PassIdentityTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir)
        let location = name.hasSuffix(".m3u8") ? server.url(name) : dir.appendingPathComponent(name).path
        func play(_ passes: Int) throws -> DrainedAudio {
            let (item, pipeline) = try StreamSeamTests().open(location, passes: passes)
            defer { withExtendedLifetime(item) {} }
            return pipelines.drain(pipeline, keepSamples: true).1
        }
        let once = try play(1), looped = try play(3)
        let length = once.frames
        #expect(length >= PassIdentityTests.passLength, "\(name): one pass of \(length) samples")
        #expect(looped.frames == 3 * length, "\(name): \(looped.frames) samples in 3 passes")
        let passes = PassIdentityTests.passes(looped.samples, count: 3, length: length)
        let alone = once.samples[...]
        let differences = passes.map { PassIdentityTests.largestDifference($0, alone) }
        #expect(differences.allSatisfy { $0 == 0 }, "\(name): each pass against one play, largest difference \(differences)")
    }

    /// Opus in MPEG-TS loops on its video's interval (pre-skip and the
    /// audio past the last frame cut) over HLS as from the file. Over HLS,
    /// FFmpeg gives the Opus packets after the first of each PES neither a
    /// timestamp nor a duration: they went to the decoder before the pass's
    /// end was known, and what runs past the video played.
    @Test(arguments: ["opus/index.m3u8", "opus.ts"])
    func opusInTransportStreamsLoopsOnTheVideosInterval(_ name: String) throws {
        let dir = try #require(PassIdentityTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir)
        let location = name.hasSuffix(".m3u8") ? server.url(name) : dir.appendingPathComponent(name).path
        let (item, pipeline) = try StreamSeamTests().open(location, passes: 3)
        defer { withExtendedLifetime(item) {} }
        let (video, audio) = pipelines.drain(pipeline, keepSamples: true)
        #expect(audio.firstTime == .zero && audio.continuous, "\(name): from \(String(describing: audio.firstTime))")
        #expect(abs(audio.frames - 3 * PassIdentityTests.passLength) <= 1,
                "\(name): \(audio.frames - 3 * PassIdentityTests.passLength) samples more than 3 passes of 2 s")
        #expect(pipeline.passStarts == [.zero, MediaTime(value: 2, timescale: 1), MediaTime(value: 4, timescale: 1)])
        let passes = PassIdentityTests.passes(audio.samples, count: 3, length: PassIdentityTests.passLength)
        let differences = passes.map { PassIdentityTests.largestDifference($0, passes[0]) }
        #expect(differences.allSatisfy { $0 == 0 }, "\(name): each pass against the first, largest difference \(differences)")
        StreamSeamTests().expectEveryFrameOnce(video, count: 180, name)
    }

    /// A .ts whose first keyframe carries no DTS (its PES header has a PTS
    /// only): FFmpeg's MPEG-TS seek finds keyframes by their DTS, so a loop's
    /// seek back landed on the second keyframe, a second in: 30 frames and
    /// their sound lost each pass. It loops from its first frame, as its
    /// first pass played, with nothing said.
    @Test func aTransportStreamWhoseFirstKeyframeHasNoDTSLoopsFromItsFirstFrame() throws {
        let dir = try #require(PassIdentityTests.media, "ffmpeg could not make the media")
        let (item, pipeline) = try StreamSeamTests().open(dir.appendingPathComponent("nodts.ts").path, passes: 3)
        defer { withExtendedLifetime(item) {} }
        let (video, audio) = pipelines.drain(pipeline, keepSamples: true)
        #expect(item.takeWarnings().isEmpty)
        #expect(audio.firstTime == .zero && audio.continuous)
        #expect(abs(audio.frames - 3 * PassIdentityTests.passLength) <= 1,
                "\(audio.frames - 3 * PassIdentityTests.passLength) samples more than 3 passes of 2 s")
        let passes = PassIdentityTests.passes(audio.samples, count: 3, length: PassIdentityTests.passLength)
        let differences = passes.map { PassIdentityTests.largestDifference($0, passes[0]) }
        #expect(differences.allSatisfy { $0 == 0 }, "each pass against the first, largest difference \(differences)")
        StreamSeamTests().expectEveryFrameOnce(video, count: 180, "nodts.ts")
    }

    /// A discontinuity after which the sound starts 0.12 s after the
    /// picture: the hole is silence, so the audio clock runs on through it
    /// (it skipped the hole, and the frames in it were dropped as late).
    @Test func aHoleInTheAudioAtADiscontinuityIsSilence() throws {
        let dir = try #require(PassIdentityTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir)
        let (item, pipeline) = try StreamSeamTests().open(server.url("hole.m3u8"), passes: 2)
        defer { withExtendedLifetime(item) {} }
        let (video, audio) = pipelines.drain(pipeline, keepSamples: true)
        let pass = 2 * PassIdentityTests.passLength
        #expect(audio.firstTime == .zero && audio.continuous, "the sound's timeline has a hole")
        #expect(abs(audio.frames - 2 * pass) <= 1, "\(audio.frames - 2 * pass) samples more than 2 passes of 4 s")
        // Silence where the second piece's sound is missing (from where the
        // first piece's sound ends, 2.005 s, to where the second's priming
        // starts, 0.12 s less a 1024-sample AAC frame after its picture), sound either side.
        let left = stride(from: 0, to: audio.samples.count, by: 2).map { abs(audio.samples[$0]) }
        if left.count >= pass {
            let hole = left[96_300..<100_700].max() ?? 1
            let before = left[90_000..<96_000].max() ?? 0, after = left[101_000..<110_000].max() ?? 0
            #expect(hole == 0 && before > 0.05 && after > 0.05, "hole \(hole), before \(before), after \(after)")
        }
        let passes = PassIdentityTests.passes(audio.samples, count: 2, length: pass)
        #expect(PassIdentityTests.largestDifference(passes[1], passes[0]) == 0, "the second pass differs")
        StreamSeamTests().expectEveryFrameOnce(video, count: 240, "hole.m3u8")
    }

    /// A master playlist whose best variant's segments are missing (404):
    /// the reason is the missing segment (it was "format not recognised"),
    /// and the next best variant plays and loops instead, said once.
    @Test func aVariantWithMissingSegmentsFallsBackToTheNextBest() throws {
        let dir = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir, faults: "/variants/v0/index0.ts=404,/variants/v0/index1.ts=404")
        let stats = dir.appendingPathComponent("stats-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: stats) }
        let environment = ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"]
        let r = try runProcess(Fixtures.binary, [server.url("variants/master.m3u8"), "--loop", "2", "--stats-json", stats.path],
                               environment: environment, timeout: 60)
        #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
        let said = r.stderr.split(separator: "\n").filter { $0.contains("variant") }
        #expect(said.count == 1 && said.first?.contains("variant 320x180 0.90 Mbit/s cannot play: segment index0.ts is missing") == true
                && said.first?.contains("playing 160x90") == true, "\(r.stderr)")
        #expect(!r.stderr.contains("not recognised"), "\(r.stderr)")
        #expect(server.requests.contains("/variants/v1/index1.ts"), "\(server.requests)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect(report.players.first?.loopCount == 1, "\(String(describing: report.players.first))")
        // The variant alone: nothing to fall back to, and the reason is the segment.
        let alone = try runProcess(Fixtures.binary, [server.url("variants/v0/index.m3u8")], environment: environment, timeout: 60)
        let reason = alone.stderr.split(separator: "\n").filter { $0.contains("v0/index.m3u8:") }
        #expect(alone.status != 0 && reason.count == 1 && reason.first?.hasSuffix("segment index0.ts is missing (Server returned 404 Not Found)") == true,
                "\(alone.stderr)")
    }

    /// The same from a local folder: the master playlist read from a file
    /// falls back to the next variant as over HTTP (it ended with "not a
    /// playable media file").
    @Test func aLocalMasterPlaylistFallsBackToTheNextVariantToo() throws {
        let media = try #require(StreamSeamTests.media, "ffmpeg could not make the media")
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("variants")
        try FileManager.default.copyItem(at: media.appendingPathComponent("variants"), to: copy)
        for segment in ["v0/index0.ts", "v0/index1.ts"] { try FileManager.default.removeItem(at: copy.appendingPathComponent(segment)) }
        let stats = dir.appendingPathComponent("stats.json")
        let r = try runProcess(Fixtures.binary, [copy.appendingPathComponent("master.m3u8").path, "--stats-json", stats.path],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 60)
        #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
        let said = r.stderr.split(separator: "\n").filter { $0.contains("variant") }
        #expect(said.count == 1 && said.first?.contains("cannot play") == true && said.first?.contains("playing 160x90") == true,
                "\(r.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect((report.players.first?.framesPresented ?? 0) > 10, "\(String(describing: report.players.first))")
    }

    /// As a user plays them, `--loop 3` over HTTP and from the file: what
    /// SDL's disk driver received is three passes of 2 s, each the first's
    /// samples exactly, and `--frame-log` steps one frame across each seam.
    @Test(arguments: ["ac3/index.m3u8", "opus/index.m3u8", "ac3.ts"])
    func theDeviceHearsEveryPassAlike(_ name: String) throws {
        let dir = try #require(PassIdentityTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir)
        let location = name.hasSuffix(".m3u8") ? server.url(name) : dir.appendingPathComponent(name).path
        let work = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let raw = work.appendingPathComponent("out.raw"), log = work.appendingPathComponent("frames.csv")
        let r = try runProcess(Fixtures.binary, [location, "--loop", "3", "--frame-log", log.path],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk",
                                             "SDL_DISKAUDIOFILE": raw.path], timeout: 60)
        #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
        let left = try CapturedAudio.leftChannel(raw)
        let length = PassIdentityTests.passLength
        // The device runs before the sound comes: it starts at the first sample that is not silence.
        let start = try #require(left.firstIndex { $0 != 0 }, "\(name): nothing heard")
        let heard = left[start...].lastIndex { $0 != 0 }.map { $0 - start + 1 } ?? 0
        #expect(abs(heard - 3 * length) <= 1024, "\(name): \(heard) samples heard for 3 passes of \(length)")
        if left.count >= start + 3 * length {
            let passes = (0..<3).map { left[(start + $0 * length)..<(start + ($0 + 1) * length)] }
            let differences = passes.map { zip($0, passes[0]).map { abs($0 - $1) }.max() ?? 0 }
            #expect(differences.allSatisfy { $0 == 0 }, "\(name): each pass against the first, largest difference \(differences)")
        }
        let rows = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        let pts = rows.compactMap { $0.first.flatMap { Double($0) } }
        let leftOut = rows.compactMap { $0.count > 2 ? Int($0[2]) : nil }
        try #require(leftOut.count == pts.count, "\(name): a frame log row without its left-out count")
        // Across each seam one frame's step, less the frames the presenter
        // says it left out there (shown late on a loaded machine, a frame is
        // dropped; one lost or doubled at the seam is not); the pipeline
        // tests count every frame.
        let steps = zip(pts, pts.dropFirst()).map { (($1 - $0) * 30).rounded() }
        let seams = [2.0, 4.0].map { seam in
            steps.indices.first { pts[$0] < seam && pts[$0] + steps[$0] / 30 >= seam - 1e-6 }.map { steps[$0] - Double(leftOut[$0 + 1]) }
        }
        #expect(pts.first == 0 && seams == [1, 1],
                "\(name): first frame at \(String(describing: pts.first)), seam steps less frames left out \(seams)")
        // Every one of the 3 × 60 frames (2 s at 30 fps) shown or left out,
        // none twice; most shown (a busy machine's scheduler may make a few late).
        let given = pts.count + leftOut.reduce(0, +)
        #expect(given == 180 && pts.count >= 150 && steps.allSatisfy { $0 >= 1 },
                "\(name): \(pts.count) frames shown and \(given - pts.count) left out, steps \(Set(steps))")
    }

    /// Audio-only HLS (TS segments): FFmpeg's HLS demuxer gives the first
    /// packet no duration and stamps the next ones a frame early until the
    /// next PES. The second frame was dropped as an overlap and a frame's
    /// hole left after the seventh; every decoded sample now plays on one
    /// timeline (FFmpeg's encoder: 1024 priming and 256 padding for 2 s at 48 kHz).
    @Test func audioOnlyHLSPlaysEveryDecodedSampleOnOneTimeline() throws {
        let dir = try #require(PassIdentityTests.media, "ffmpeg could not make the media")
        let server = try HLSServer(serving: dir)
        let (item, pipeline) = try StreamSeamTests().open(server.url("audio/index.m3u8"), passes: 2)
        defer { withExtendedLifetime(item) {} }
        let (_, audio) = pipelines.drain(pipeline, keepSamples: true)
        #expect(audio.firstTime == .zero && audio.continuous, "the timeline has a hole")
        #expect(audio.frames == 2 * (PassIdentityTests.passLength + 1024 + 256), "\(audio.frames) samples")
        let left = stride(from: 0, to: audio.samples.count, by: 2).map { audio.samples[$0] }
        #expect(CapturedAudio.longestSilence(left) < 8, "\(CapturedAudio.longestSilence(left)) samples of silence")
    }
}
