// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// The engine without any window or device: real FFmpeg decoding of the
/// bundled media, compared with what ffprobe says about the same files.
@Suite struct PipelineTests: PipelineDraining {
    /// ffprobe's frame timestamps for the first video stream, in seconds.
    func ffprobeVideoTimes(_ path: String) throws -> [Double] {
        let r = try runTool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                        "frame=best_effort_timestamp_time", "-of", "csv=p=0", path])
        return r.stdout.split(whereSeparator: \.isNewline).compactMap { Double($0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
    }

    @Test func everyVideoFrameWithFFprobesTimestamps() throws {
        let path = Fixtures.asset("demo.mp4")
        let (item, pipeline) = try open(path)
        let (video, audio) = drain(pipeline)
        let expected = try ffprobeVideoTimes(path)
        #expect(expected.count == 300)
        #expect(video.pts.count == expected.count)
        for (ours, theirs) in zip(video.pts, expected) {
            #expect(abs(ours.seconds - theirs) < 1e-6, "frame at \(ours) vs ffprobe \(theirs)")
        }
        // Frames come in presentation order, one frame duration apart.
        #expect(zip(video.pts, video.pts.dropFirst()).allSatisfy { $1 - $0 == MediaTime(value: 1, timescale: 30) })
        #expect(audio.continuous)
        #expect(item.info?.frameRate == 30)
    }

    @Test(arguments: ["tone-aac44.m4a", "tone-aac48.m4a", "tone.mp3", "tone.opus", "tone.flac", "tone.wav"])
    func audioSampleCountMatchesDeclaredDuration(_ name: String) throws {
        let (item, pipeline) = try open(Fixtures.asset(name))
        let (_, audio) = drain(pipeline)
        withExtendedLifetime(item) {}
        // make-assets.sh made each clip exactly 2 s long: 96000 frames at
        // 48 kHz once encoder delay and padding are trimmed (ffprobe's stream
        // duration counts them for MP3 and Opus, so the truth is the source).
        let expected = 96_000
        // Resampling 44.1 → 48 kHz may round the last sample either way.
        #expect(abs(audio.frames - expected) <= 1, "\(name): \(audio.frames) frames, declared \(expected)")
        #expect(audio.firstTime == .zero)
        #expect(audio.continuous)
    }

    /// Matroska stamps packets in whole milliseconds: the samples must still
    /// follow on exactly, not be trimmed or padded to the rounded stamps.
    @Test func millisecondTimestampsDoNotLoseSamples() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("tone.mkv").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=441:sample_rate=44100:duration=3",
                               "-c:a", "pcm_s16le", path])
        let (item, pipeline) = try open(path)
        defer { withExtendedLifetime(item) {} }
        let (_, audio) = drain(pipeline)
        #expect(abs(audio.frames - 144_000) <= 1, "\(audio.frames) frames for 3 s")
    }

    @Test func seekLandsOnTheRequestedFrameAndSample() throws {
        let (item, pipeline) = try open(Fixtures.asset("demo.mp4"))
        defer { withExtendedLifetime(item) {} }
        // 3.21 s is inside frame 96 (3.2 s – 3.2333 s): not a keyframe (GOP of 30).
        let target = MediaTime(seconds: 3.21)
        pipeline.seek(to: target)
        let (video, audio) = drain(pipeline)
        #expect(video.pts.first == MediaTime(value: 96, timescale: 30))
        #expect(video.pts.count == 300 - 96)
        // The first sample is the output sample nearest the target: the 44.1 kHz
        // source's sample grid does not line up with 48 kHz, so within half a sample.
        let firstAudio = try #require(audio.firstTime)
        #expect(abs((firstAudio - target).seconds) <= 0.5 / 48_000)
        #expect(audio.continuous)
        // The audio that follows ends with the item (10 s), to within one sample.
        let end = (audio.firstTime ?? .zero) + MediaTime(value: Int64(audio.frames), timescale: 48_000)
        #expect(abs(end.seconds - 10) <= 1.0 / 48_000 + 1e-9)
    }

    @Test func seekPastTheEndShowsTheLastFrame() throws {
        let (item, pipeline) = try open(Fixtures.asset("demo.mp4"))
        defer { withExtendedLifetime(item) {} }
        pipeline.seek(to: MediaTime(seconds: 10))
        let (video, _) = drain(pipeline)
        #expect(video.pts == [MediaTime(value: 299, timescale: 30)])
    }

    @Test func decodedPixelsMatchFFmpeg() throws {
        // The frame at 2 s converted at full size, against ffmpeg's own decode.
        let path = Fixtures.asset("demo.mp4")
        let (item, pipeline) = try open(path)
        defer { withExtendedLifetime(item) {} }
        pipeline.setDisplaySize(width: 1280, height: 720)
        pipeline.seek(to: MediaTime(seconds: 2))
        var frame: VideoFrame?
        let deadline = Date().addingTimeInterval(10)
        while frame == nil && Date() < deadline {
            if let f = pipeline.frames.pop() {
                if f.serial == pipeline.serial { frame = f }
            } else { Thread.sleep(forTimeInterval: 0.002) }
        }
        let picture = try #require(frame.flatMap { pipeline.picture(of: $0, width: 1280, height: 720) })
        #expect(frame?.pts == MediaTime(seconds: 2))
        var rgb = [UInt8](repeating: 0, count: picture.width * picture.height * 3)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let p = picture.pixels + y * picture.pitch + x * 4  // BGRA
                let o = (y * picture.width + x) * 3
                rgb[o] = p[2]; rgb[o + 1] = p[1]; rgb[o + 2] = p[0]
            }
        }
        let ours = PPMImage(width: picture.width, height: picture.height, pixels: rgb)
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ref = dir.appendingPathComponent("ref.ppm").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-ss", "2", "-i", path, "-frames:v", "1", ref])
        let reference = try PPMImage(path: ref)
        let psnr = reference.psnr(ours)
        #expect(psnr > 35, "PSNR \(psnr) dB")
    }
}

/// `preferredForwardBufferDuration` bounds how far the demuxer reads ahead.
@Suite struct ForwardBufferTests {
    @Test(arguments: [1.0, 3.0])
    func demuxerStopsAtTheForwardBuffer(_ seconds: Double) throws {
        let item = PlayerItem(Fixtures.asset("demo.mp4"), preferences: ItemPreferences(forwardBufferDuration: seconds))
        item.load()
        #expect(item.waitUntilLoaded() == .readyToPlay)
        let pipeline = try #require(item.pipeline as? ItemPipeline)
        // Nothing consumes: the decoders fill their small outputs, the demuxer
        // fills the packet queues to the preference and then waits: wait
        // until both queues hold it and stand still from one poll to the next
        // (the decoders have taken what they hold), then see that neither went far past.
        var last: (video: Double?, audio: Double?) = (nil, nil)
        _ = eventually {
            let q = pipeline.queuedSeconds
            defer { last = q }
            return (q.video ?? 0) >= seconds - 0.05 && (q.audio ?? 0) >= seconds - 0.05
                && q.video == last.video && q.audio == last.audio
        }
        let queued = pipeline.queuedSeconds
        let video = try #require(queued.video), audio = try #require(queued.audio)
        // Reading stops once every stream holds the preference; a stream may
        // be ahead by the file's interleaving (up to half a second in MP4).
        #expect(video >= seconds - 0.05 && video <= seconds + 0.5, "video queue \(video) s")
        #expect(audio >= seconds - 0.05 && audio <= seconds + 0.5, "audio queue \(audio) s")
        withExtendedLifetime(item) {}
    }
}
