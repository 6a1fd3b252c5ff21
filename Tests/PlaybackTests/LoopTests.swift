// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// Looping by seeking the one item back to zero: the seams are sample-exact
/// and frame-exact on real decoded media.
@Suite struct LoopTests {
    let pipelines = Pipelines()

    /// 48 kHz sources need no resampling, so every pass must be bit-identical
    /// to the first and the passes must abut with nothing inserted or lost.
    @Test(arguments: ["tone-aac48.m4a", "tone.opus", "tone.wav"])
    func seamsAreSampleExactAt48kHz(_ name: String) throws {
        let (item, pipeline) = try pipelines.open(Fixtures.asset(name), passes: 3)
        defer { withExtendedLifetime(item) {} }
        let (_, audio) = pipelines.drain(pipeline, keepSamples: true)
        let perPass = 96_000
        #expect(audio.frames == 3 * perPass, "\(name): \(audio.frames - 3 * perPass) samples inserted")
        let continuous = audio.continuous
        #expect(continuous)
        let channels = 2
        for pass in 1..<3 where audio.samples.count >= 3 * perPass * channels {
            let first = audio.samples[0..<(perPass * channels)]
            let again = audio.samples[(pass * perPass * channels)..<((pass + 1) * perPass * channels)]
            let worst = zip(first, again).map { abs($0 - $1) }.max() ?? 1
            // Decoders restart from a flush, so lossy codecs may differ by
            // rounding in their first frame; the timing must not differ at all.
            #expect(worst < 1e-3, "\(name) pass \(pass) differs by \(worst)")
        }
        #expect(pipeline.passStarts == [.zero, MediaTime(value: 2, timescale: 1), MediaTime(value: 4, timescale: 1)])
    }

    /// Other rates go through the resampler, which runs on across the seam:
    /// the count is exact to a sample and the waveform has no jump.
    @Test(arguments: ["tone-aac44.m4a", "tone.mp3", "tone.flac"])
    func seamsAreSampleExactThroughTheResampler(_ name: String) throws {
        let (item, pipeline) = try pipelines.open(Fixtures.asset(name), passes: 3)
        defer { withExtendedLifetime(item) {} }
        let (_, audio) = pipelines.drain(pipeline, keepSamples: true)
        #expect(abs(audio.frames - 3 * 96_000) <= 1, "\(name): \(audio.frames - 3 * 96_000) samples inserted")
        let continuous = audio.continuous
        #expect(continuous)
        // A 441 Hz tone moves at most 2π·441/48000 ≈ 0.058 of full scale per
        // sample: a gap or a repeat at the seam would jump far more.
        let left = stride(from: 0, to: audio.samples.count, by: 2).map { audio.samples[$0] }
        for seam in [96_000, 192_000] where seam + 50 < left.count {
            let jumps = (seam - 50)..<(seam + 50)
            let worst = jumps.map { abs(left[$0 + 1] - left[$0]) }.max() ?? 1
            #expect(worst < 0.08, "\(name): jump of \(worst) at the seam")
        }
    }

    @Test func videoSeamHasNoRepeatedOrMissingFrame() throws {
        let (item, pipeline) = try pipelines.open(Fixtures.asset("demo.mp4"), passes: 2)
        defer { withExtendedLifetime(item) {} }
        let (video, audio) = pipelines.drain(pipeline)
        #expect(video.pts.count == 600)
        let frame = MediaTime(value: 1, timescale: 30)
        #expect(zip(video.pts, video.pts.dropFirst()).allSatisfy { $1 - $0 == frame })
        #expect(video.pts.last == MediaTime(value: 599, timescale: 30))
        #expect(abs(audio.frames - 2 * 480_000) <= 1)
    }

    /// A seek in the second pass lands on the requested frame and sample of
    /// the item, and the remaining passes still follow without a gap.
    @Test func seekDuringALoopLandsRight() throws {
        let (item, pipeline) = try pipelines.open(Fixtures.asset("demo.mp4"), passes: 3)
        defer { withExtendedLifetime(item) {} }
        // Play into the second pass (timeline past 10 s), then seek.
        let deadline = Date().addingTimeInterval(20)
        var reached = false
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 2048)
        defer { buffer.deallocate() }
        while !reached && Date() < deadline {
            if let f = pipeline.frames.pop() {
                reached = f.pts > MediaTime(value: 11, timescale: 1)
            }
            _ = pipeline.audioRing.read(into: buffer, frames: 1024)
        }
        #expect(reached)
        pipeline.seek(to: MediaTime(seconds: 1.5), pass: 1)
        let (video, audio) = pipelines.drain(pipeline)
        #expect(video.pts.first == MediaTime(value: 45, timescale: 30))
        let firstAudio = try #require(audio.firstTime)
        #expect(abs((firstAudio - MediaTime(seconds: 1.5)).seconds) <= 0.5 / 48_000)
        // From 1.5 s to the end of the second pass, then the third: the seek
        // neither grants nor costs a pass.
        let frame = MediaTime(value: 1, timescale: 30)
        #expect(zip(video.pts, video.pts.dropFirst()).allSatisfy { $1 - $0 == frame })
        #expect(video.pts.count == 255 + 300)
    }
}
