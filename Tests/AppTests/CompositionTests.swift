// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
@testable import Playback
import TestSupport

/// Compositions checked sample by sample against references computed here,
/// independently: ffmpeg's own decode of each source and the ramp formula.
struct CompositionTests {
    /// Makes a source with ffmpeg's lavfi generators.
    func makeSource(_ dir: URL, _ name: String, _ filter: String, _ codec: [String]) throws -> String {
        let path = dir.appendingPathComponent(name).path
        let result = try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", filter] + codec + [path])
        #expect(result.status == 0, "ffmpeg: \(result.stderr)")
        return path
    }

    /// ffmpeg's decode of `path` as 48 kHz float, its own channel count.
    func reference(_ path: String, in dir: URL) throws -> (samples: [Float], channels: Int) {
        let raw = dir.appendingPathComponent(UUID().uuidString + ".raw")
        try runTool("ffmpeg", ["-v", "error", "-y", "-i", path, "-ar", "48000", "-f", "f32le", raw.path])
        let channels = Int(try runTool("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                  "stream=channels", "-of", "csv=p=0", path]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return (try floats(Data(contentsOf: raw)), channels)
    }

    func floats(_ data: Data) throws -> [Float] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The samples of a float WAV file (its `data` chunk), checking the header.
    func readFloatWAV(_ url: URL) throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: url))
        func u32(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24 }
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        #expect(String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF" && String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE")
        var i = 12
        while i + 8 <= bytes.count {
            let id = String(decoding: bytes[i..<(i + 4)], as: UTF8.self), size = u32(i + 4)
            if id == "fmt " {
                #expect(u16(i + 8) == 3 && u16(i + 10) == 2 && u32(i + 12) == 48_000 && u16(i + 22) == 32,
                        "32-bit float, stereo, 48 kHz")
            }
            if id == "data" { return try floats(Data(bytes[(i + 8)..<min(bytes.count, i + 8 + size)])) }
            i += 8 + size + size % 2
        }
        throw MediaError("no data chunk in \(url.path)")
    }

    /// Sample `n` (frame) of channel `c` of a reference, mono going to both channels.
    func sample(_ ref: (samples: [Float], channels: Int), _ n: Int, _ c: Int) -> Double {
        let index = n * ref.channels + min(c, ref.channels - 1)
        return n >= 0 && index < ref.samples.count ? Double(ref.samples[index]) : 0
    }

    @Test(arguments: [RampCurve.linear, .equalPower])
    func crossfadeExportMatchesTheRampFormula(_ curve: RampCurve) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Three sources: stereo, mono (both channels at equal gain) and a 44.1 kHz one.
        let sources = [
            try makeSource(dir, "a.wav", "sine=frequency=440:sample_rate=48000:duration=3", ["-ac", "2", "-c:a", "pcm_s16le"]),
            try makeSource(dir, "b.wav", "sine=frequency=660:sample_rate=48000:duration=3", ["-c:a", "pcm_s16le"]),
            try makeSource(dir, "c.wav", "sine=frequency=880:sample_rate=48000:duration=3", ["-ac", "2", "-c:a", "pcm_f32le"]),
        ]
        let out = dir.appendingPathComponent("mix.wav")
        let result = try runProcess(Fixtures.binary, ["--clip", "2", "--crossfade", "0.5", "--crossfade-curve", curve.rawValue,
                                                      "--export-audio", out.path] + sources)
        #expect(result.status == 0, "\(result.stderr)")
        let mix = try readFloatWAV(out)
        let refs = try sources.map { try reference($0, in: dir) }
        let clip = 96_000, fade = 24_000, step = clip - fade
        #expect(mix.count == (2 * step + clip) * 2, "5 s of stereo")
        func curveValue(_ from: Double, _ to: Double, _ x: Double) -> Double {
            curve == .linear ? from + (to - from) * x : from * cos(x * .pi / 2) + to * sin(x * .pi / 2)
        }
        var worst = 0.0
        for n in 0..<(mix.count / 2) {
            for c in 0..<2 {
                var expected = 0.0
                for k in 0..<3 {
                    let local = n - k * step
                    guard local >= 0 && local < clip else { continue }
                    var gain = 1.0
                    if k > 0 && local < fade { gain = curveValue(0, 1, Double(local) / Double(fade)) }
                    if k < 2 && local >= clip - fade { gain = curveValue(1, 0, Double(local - (clip - fade)) / Double(fade)) }
                    expected += sample(refs[k], local, c) * gain
                }
                worst = max(worst, abs(expected - Double(mix[n * 2 + c])))
            }
        }
        #expect(worst < 1e-5, "largest difference from the reference: \(worst)")
    }

    /// A seek lands on the exact sample: rendering from a seek gives the same
    /// samples as rendering through, and the pipeline stamps them with that time.
    @Test func seekLandsOnTheRightSample() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try makeSource(dir, "a.wav", "anoisesrc=d=3:r=48000:a=0.5", ["-c:a", "pcm_s16le"])
        let b = try makeSource(dir, "b.wav", "sine=frequency=300:sample_rate=48000:duration=3", ["-c:a", "pcm_s16le"])
        let composition = try Composition.crossfade([(a, 3), (b, 3)], clip: nil, fade: 1)
        let through = CompositionRenderer(composition)
        var whole = [Float](repeating: 0, count: Int(through.totalSamples) * 2)
        let rendered = whole.withUnsafeMutableBufferPointer { through.render(into: $0.baseAddress!, frames: $0.count / 2) }
        #expect(rendered == 240_000)

        let target: Int64 = 100_037  // inside the crossfade, not on a block boundary
        let seeking = CompositionRenderer(composition)
        seeking.seek(to: target)
        var part = [Float](repeating: 0, count: 9_000 * 2)
        _ = part.withUnsafeMutableBufferPointer { seeking.render(into: $0.baseAddress!, frames: 9_000) }
        #expect(Array(whole[Int(target) * 2..<(Int(target) + 9_000) * 2]) == part)

        // The same through the item a player plays: the first sample after
        // the seek carries the target's time and the right value.
        let item = PlayerItem(composition: composition, name: "test")
        item.load()
        #expect(item.waitUntilLoaded() == .readyToPlay)
        let pipeline = try #require(item.pipeline)
        #expect(pipeline.info.duration == MediaTime(value: 240_000, timescale: 48_000))
        let serial = pipeline.seek(to: MediaTime(value: target, timescale: 48_000), pass: 0)
        var buffer = [Float](repeating: 0, count: 4_096 * 2)
        var got: (count: Int, time: MediaTime?, ratio: StretchRatio) = (0, nil, .one)
        let deadline = Date().addingTimeInterval(10)
        while got.count == 0 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            if pipeline.audioRing.serial == serial {
                got = buffer.withUnsafeMutableBufferPointer { pipeline.audioRing.read(into: $0.baseAddress!, frames: 4_096) }
            }
        }
        #expect(got.time == MediaTime(value: target, timescale: 48_000))
        #expect(Array(buffer[0..<got.count * 2]) == Array(whole[Int(target) * 2..<(Int(target) + got.count) * 2]))
    }

    /// A compressed source's range lands exactly where it is placed: the
    /// decoder's delay (AAC priming, MP3's) is accounted for, and the samples
    /// match ffmpeg's decode of the same file.
    @Test(arguments: [("aac", "m4a", ["-c:a", "aac", "-b:a", "128k"]), ("mp3", "mp3", ["-c:a", "libmp3lame", "-b:a", "192k"])])
    func compressedSourcePlacementIsSampleExact(_ name: String, _ ext: String, _ codec: [String]) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A chirp with a wobbling overtone: no period, so a shift of any size
        // would show. (Not noise: AAC codes noise bands as "substitute noise"
        // from a generator whose state depends on every frame before.)
        let source = try makeSource(dir, "chirp.\(ext)",
                                    "aevalsrc=0.4*sin(2*PI*(200+300*t)*t)+0.2*sin(2*PI*1234*t)*sin(2*PI*0.7*t):s=48000:d=3", codec)
        let ref = try reference(source, in: dir)
        var composition = Composition()
        composition.tracks = [CompositionTrack(name: name, segments: [
            CompositionSegment(source: source, sourceStart: 0.75, duration: 1, at: 0.5)])]
        let out = dir.appendingPathComponent("placed.wav")
        try AudioExport(composition).write(to: out)
        let mix = try readFloatWAV(out)
        #expect(mix.count == 72_000 * 2)
        #expect(mix[0..<(24_000 * 2)].allSatisfy { $0 == 0 }, "silence before the segment")
        // Sample n of the timeline is source sample n − 0.5 s + 0.75 s.
        var worst = 0.0
        for n in 24_000..<72_000 {
            worst = max(worst, abs(Double(mix[n * 2]) - sample(ref, n - 24_000 + 36_000, 0)))
        }
        #expect(worst < 1e-5, "largest difference from ffmpeg's decode: \(worst)")
    }

    /// The export's temporary file is exclusive: a symbolic link planted at
    /// the name the export used to choose (`.NAME.partial-PID`) is neither
    /// followed nor replaced, the file it points to keeps its bytes, and the
    /// mix lands whole under the final name.
    @Test func theExportNeverWritesThroughAPlantedTemporaryName() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let victim = dir.appendingPathComponent("victim.txt")
        try Data("keep me".utf8).write(to: victim)
        let out = dir.appendingPathComponent("mix.wav")
        let planted = dir.appendingPathComponent(".mix.wav.partial-\(getpid())")
        try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: victim)
        var composition = Composition()
        composition.tracks = [CompositionTrack(name: "t", segments: [
            CompositionSegment(source: Fixtures.asset("tone.wav"), sourceStart: 0, duration: 1, at: 0)])]
        try AudioExport(composition).write(to: out)
        #expect(try Data(contentsOf: victim) == Data("keep me".utf8), "the planted link was not written through")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: planted.path)) == victim.path, "nor replaced")
        #expect(try readFloatWAV(out).count == 48_000 * 2, "the mix is whole under its own name")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".partial-") }
        #expect(left == [planted.lastPathComponent], "no temporary file of the export's own is left")
    }

    @Test func badCompositionsAreRejectedWithTheirReason() throws {
        var c = Composition()
        c.tracks = [CompositionTrack(name: "t", segments: [CompositionSegment(source: "a", duration: 2, at: 0)])]
        c.tracks[0].mix.ramps = [VolumeRamp(from: 1, to: 0, start: 1.5, duration: 1)]
        #expect(c.problems().first?.message.contains("outside the timeline") == true)
        c.tracks[0].mix.ramps = [VolumeRamp(from: 1, to: 0, start: 0, duration: 1), VolumeRamp(from: 0, to: 1, start: 0.5, duration: 1)]
        #expect(c.problems().first?.message.contains("overlap") == true)
        c.tracks[0].mix.ramps = []
        c.tracks[0].segments.append(CompositionSegment(source: "b", duration: -1, at: 1))
        #expect(c.problems().contains { $0.message.contains("must be positive") && $0.part == .segment(1) })
        #expect(throws: MediaError.self) { try Composition.crossfade([("a", 2), ("b", 2)], clip: nil, fade: 1.5) }
    }

    @Test func compositionFileErrorsNameTheLine() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tone = Fixtures.asset("tone.wav")
        func load(_ text: String, skipBad: Bool = false) throws -> (Composition, [String]) {
            let path = dir.appendingPathComponent("c.json").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return try CompositionFile.load(path, skipBad: skipBad, duration: CompositionSource.duration(of:))
        }
        func message(_ text: String) -> String {
            do { _ = try load(text); return "" } catch { return "\(error)" }
        }
        let good = """
        {
          "tracks": [
            {"name": "a", "segments": [{"source": "\(tone)", "at": 0}],
             "ramps": [{"from": 1, "to": 0, "start": 1, "duration": 1}]},
            {"name": "b", "volume": 0.5, "segments": [{"source": "\(tone)", "start": 0.5, "duration": 1, "at": 1.5}]}
          ]
        }
        """
        let (composition, skipped) = try load(good)
        #expect(skipped.isEmpty)
        #expect(composition.duration == 2.5)
        #expect(composition.tracks[0].segments[0].duration == 2, "no duration: to the source's end")
        #expect(message(good.replacingOccurrences(of: "\"start\": 1, \"duration\": 1", with: "\"start\": 2, \"duration\": 1"))
            .hasSuffix("c.json:4: track 'a': ramp 2.0–3.0 s is outside the timeline (0–2.5 s)"))
        #expect(message(good.replacingOccurrences(of: "\"at\": 1.5", with: "\"at\": -1")).contains("c.json:5: "))
        #expect(message("{\n  \"tracks\": [\n    {\"segments\": [{\"source\": \"/nonexistent.wav\", \"at\": 0}]}\n  ]\n}")
            .contains("c.json:3: /nonexistent.wav: "))
        #expect(message("{\n  \"tracks\": [\n    {\"segmnts\": []}\n  ]\n}").contains("c.json:3: unknown key 'segmnts'"))
        #expect(message("{\n  \"tracks\": [\n    {\"segments\": [}\n  ]\n}").contains("c.json:3"))
        // --skip-bad leaves the bad source out.
        let (kept, left) = try load("""
            {"tracks": [{"name": "a", "segments": [{"source": "\(tone)", "at": 0},
                                                   {"source": "/nonexistent.wav", "at": 2}]},
                        {"name": "b", "segments": [{"source": "/nonexistent.wav", "at": 0}]}]}
            """, skipBad: true)
        #expect(left == ["/nonexistent.wav"])
        #expect(kept.tracks[0].segments.count == 1)
        #expect(kept.tracks[1].segments.isEmpty)
    }

    /// What a composition may hold, refused with one line before anything is
    /// built: a segment at 1e15 s (it reached a trapping conversion), YAML
    /// aliases that expand into millions of segments,
    /// more tracks than any mix has. Run as a user would, from the command line.
    @Test func compositionsOutsideTheLimitsAreRefused() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tone = Fixtures.asset("tone.wav")
        func refusal(_ text: String) throws -> String {
            let path = dir.appendingPathComponent("c.yaml").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let r = try runProcess(Fixtures.binary, ["--composition", path, "--export-audio", dir.appendingPathComponent("o.wav").path],
                                   environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 30)
            #expect(r.status != 0 && !r.timedOut, "refused: \(r.stderr)")
            return r.stderr
        }
        #expect(try refusal("{\"tracks\": [{\"segments\": [{\"source\": \"\(tone)\", \"at\": 1e15}]}]}")
            .contains("stay within 10000000 seconds"))
        // Eight lines that expand into 2 x 10^6 segments.
        var bomb = "a: &a [{\"source\": \"\(tone)\", \"at\": 0}, {\"source\": \"\(tone)\", \"at\": 0}]\n"
        let names = ["a", "b", "c", "d", "e", "f", "g"]
        for (previous, name) in zip(names, names.dropFirst()) {
            bomb += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        bomb += "tracks: [{\"segments\": *g}]\n"
        #expect(try refusal(bomb).contains("more than 200000 values (YAML aliases expanded)"))
        let tracks = Array(repeating: "{\"segments\": []}", count: 65).joined(separator: ", ")
        #expect(try refusal("{\"tracks\": [\(tracks)]}").contains("65 tracks: a composition has at most 64"))
    }

    /// A segment without a duration runs to its source's end, which is what
    /// the container claims: a source that claims 28 hours while holding 2 s
    /// is refused with its line, not exported for 28 hours; the same source
    /// with a duration given plays.
    @Test func anOpenEndedSegmentIsBoundedByTheCompositionsLimit() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let liar = try LyingDuration.matroska("liar.mkv", in: dir, filter: "sine=frequency=440:sample_rate=48000:duration=2",
                                              codec: ["-c:a", "flac"], claimed: 100_000)
        #expect(try CompositionSource.duration(of: liar) == 100_000, "FFmpeg believes the header")
        let path = dir.appendingPathComponent("c.json").path
        func load(_ segment: String) throws -> Composition {
            try "{\n  \"tracks\": [\n    {\"name\": \"a\", \"segments\": [\(segment)]}\n  ]\n}".write(toFile: path, atomically: true, encoding: .utf8)
            return try CompositionFile.load(path, skipBad: false, duration: CompositionSource.duration(of:)).0
        }
        #expect {
            _ = try load("{\"source\": \"\(liar)\", \"at\": 1}")
        } throws: { error in
            "\(error)" == "\(path):3: track 'a': segment of \(liar) ends at 100001.0 s, past the 86400 s (24 h) a composition may last"
        }
        #expect(try load("{\"source\": \"\(liar)\", \"duration\": 2, \"at\": 1}").duration == 3)

        // From the command line: one line, exit 1, no file.
        #expect(throws: MediaError.self) { try load("{\"source\": \"\(liar)\", \"at\": 1}") }
        let out = dir.appendingPathComponent("o.wav")
        let r = try runProcess(Fixtures.binary, ["--composition", path, "--export-audio", out.path],
                               environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"], timeout: 30)
        #expect(r.status == 1 && !r.timedOut && !FileManager.default.fileExists(atPath: out.path))
        #expect(r.stderr.hasSuffix("a composition may last\n") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    /// From the command line: a source that cannot be opened is named and
    /// nothing plays (exit 1); with --skip-bad the timeline closes up.
    @Test func badSourcesOnTheCommandLine() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let tone = Fixtures.asset("tone.wav"), missing = dir.appendingPathComponent("missing.mp3").path
        let out = dir.appendingPathComponent("x.wav")
        let failed = try runProcess(Fixtures.binary, ["--crossfade", "0.5", tone, missing, tone, "--export-audio", out.path])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("missing.mp3"))
        #expect(!FileManager.default.fileExists(atPath: out.path), "no file under the final name")
        let skipped = try runProcess(Fixtures.binary, ["--crossfade", "0.5", "--skip-bad", tone, missing, tone,
                                                       "--export-audio", out.path])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(skipped.stderr.contains("missing.mp3"))
        #expect(try readFloatWAV(out).count == 168_000 * 2, "two 2 s sources crossfaded by 0.5 s: 3.5 s")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("partial") }
        #expect(leftovers.isEmpty)
    }

    /// One player plays the composition: what the audio device received is
    /// the export, sample for sample, and a second pass (--loop 2) follows
    /// the first without a gap.
    @Test func playingGivesExactlyTheExportedSamples() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sources = [Fixtures.asset("tone.wav"), Fixtures.asset("tone.mp3"), Fixtures.asset("tone-aac48.m4a")]
        let exported = dir.appendingPathComponent("mix.wav"), raw = dir.appendingPathComponent("played.raw")
        let export = try runProcess(Fixtures.binary, ["--clip", "1.5", "--crossfade", "0.4", "--export-audio", exported.path] + sources)
        #expect(export.status == 0, "\(export.stderr)")
        let played = try runProcess(Fixtures.binary, ["--clip", "1.5", "--crossfade", "0.4", "--loop", "2"] + sources,
                                    environment: ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk",
                                                  "SDL_DISKAUDIOFILE": raw.path], timeout: 30)
        #expect(played.status == 0, "\(played.stderr)")
        let mix = try readFloatWAV(exported)
        let capture = try floats(Data(contentsOf: raw))
        #expect(mix.count == Int((3 * 1.5 - 2 * 0.4) * 48_000) * 2)
        // The capture starts with the device's silence before playback; find
        // the offset (whole frames) where the two passes line up exactly.
        let twice = mix + mix
        let offset = stride(from: 0, to: max(0, capture.count - twice.count), by: 2).first { start in
            capture[start..<(start + 64)].elementsEqual(twice[0..<64])
        }
        let start = try #require(offset, "the exported samples never start in the capture")
        let heard = capture[start..<min(capture.count, start + twice.count)]
        #expect(heard.count == twice.count, "both passes were heard to their end")
        #expect(heard.elementsEqual(twice[0..<heard.count]), "the player's samples are the export's, both passes")
    }
}
