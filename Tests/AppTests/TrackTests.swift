// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// Tracks and subtitles on media made here with ffmpeg: a 6 s black 640x360
/// video with two audio tracks (eng 440 Hz, fre 1000 Hz), an SRT, an ASS and
/// a PGS (bitmap) subtitle track, and subtitle files beside it.
@Suite struct TrackTests {
    /// Subtitle spans in the media, in seconds: what each track shows when.
    static let srtSpans = [(1.0, 2.0), (3.0, 4.5)]
    static let assSpans = [(1.5, 3.0), (4.0, 5.0)]
    static let pgsSpans = [(1.0, 2.0), (3.5, 4.5)]
    static let externalSpans = [(0.5, 2.5), (4.0, 5.5)]

    struct Media {
        let folder: URL
        var movie: String { folder.appendingPathComponent("movie.mkv").path }
        /// The same streams, the ASS track flagged default and the PGS track forced.
        var flagged: String { folder.appendingPathComponent("flagged.mkv").path }
        /// An external file with non-ASCII text, found beside `movie` by name.
        var frenchSrt: String { folder.appendingPathComponent("movie.fr.srt").path }
        var brokenPgs: String { folder.appendingPathComponent("broken.sup").path }
        var garbage: String { folder.appendingPathComponent("garbage.srt").path }
        var brokenSrt: String { folder.appendingPathComponent("broken.srt").path }
        var movText: String { folder.appendingPathComponent("movtext.mp4").path }
        var webVTT: String { folder.appendingPathComponent("en.vtt").path }
    }

    static let media: Media? = {
        let folder = Fixtures.temporaryDirectory().appendingPathComponent("tracks")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let m = Media(folder: folder)
        func write(_ name: String, _ text: String) { try? text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        write("en.srt", "1\n00:00:01,000 --> 00:00:02,000\nFirst line\n\n2\n00:00:03,000 --> 00:00:04,500\nSecond line\n")
        write("styled.ass", """
            [Script Info]
            ScriptType: v4.00+
            PlayResX: 640
            PlayResY: 360

            [V4+ Styles]
            Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
            Style: Yellow,DejaVu Sans,40,&H0000FFFF,&H000000FF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,3,0,8,10,10,20,1

            [Events]
            Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
            Dialogue: 0,0:00:01.50,0:00:03.00,Yellow,,0,0,0,,Styled {\\c&H00FF00&}green{\\r} top
            Dialogue: 0,0:00:04.00,0:00:05.00,Yellow,,0,0,0,,{\\pos(100,300)}Positioned

            """)
        write("movie.fr.srt", "1\n00:00:00,500 --> 00:00:02,500\nÉté — naïve café ✓\n\n2\n00:00:04,000 --> 00:00:05,500\nZweite Zeile\n")
        write("garbage.srt", "this is not\na subtitle file at all\n\u{1}\u{2}\u{3}")
        let script = Fixtures.root.appendingPathComponent("Tests/TestSupport/make_pgs.py").path
        let pgs = folder.appendingPathComponent("box.sup").path
        guard (try? runTool("python3", [script, pgs, "640", "360"] + pgsSpans.map { "\($0.0):\($0.1)" }))?.status == 0
        else { return nil }
        // Three display sets, the middle one damaged: the first and last still show.
        guard (try? runTool("python3", [script, m.brokenPgs, "640", "360", "1:2", "3:4", "5:5.5"]))?.status == 0,
              var bytes = try? Data(contentsOf: URL(fileURLWithPath: m.brokenPgs)) else { return nil }
        // Cut in the middle of the last picture: the first two still show.
        bytes = bytes.prefix(bytes.count * 5 / 6)
        try? bytes.write(to: URL(fileURLWithPath: m.brokenPgs))
        // A UTF-8 file with one line of bytes that are no text: only that line is lost.
        var broken = Data("1\n00:00:01,000 --> 00:00:02,000\nÉté à côté\n\n2\n00:00:03,000 --> 00:00:04,000\n".utf8)
        broken.append(contentsOf: [0xFF, 0xFE, 0x80, 0x0A, 0x0A])
        broken.append(Data("3\n00:00:05,000 --> 00:00:05,500\nfin\n".utf8))
        try? broken.write(to: URL(fileURLWithPath: m.brokenSrt))
        let encode = ["-v", "error", "-y", "-f", "lavfi", "-i", "color=black:s=640x360:r=25:d=6",
                      "-f", "lavfi", "-i", "sine=f=440:d=6:sample_rate=48000",
                      "-f", "lavfi", "-i", "sine=f=1000:d=6:sample_rate=48000",
                      "-i", folder.appendingPathComponent("en.srt").path, "-i", folder.appendingPathComponent("styled.ass").path,
                      "-i", pgs, "-map", "0", "-map", "1", "-map", "2", "-map", "3", "-map", "4", "-map", "5",
                      "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac",
                      "-c:s:0", "srt", "-c:s:1", "ass", "-c:s:2", "copy",
                      "-metadata:s:a:0", "language=eng", "-metadata:s:a:0", "title=English",
                      "-metadata:s:a:1", "language=fre", "-metadata:s:a:1", "title=Français",
                      "-metadata:s:s:0", "language=eng", "-metadata:s:s:1", "language=jpn", "-metadata:s:s:1", "title=Styled",
                      "-metadata:s:s:2", "language=ger",
                      "-disposition:a:0", "default", "-disposition:a:1", "0",
                      "-disposition:s:0", "0", "-disposition:s:1", "0", "-disposition:s:2", "0", m.movie]
        guard (try? runTool("ffmpeg", encode, timeout: 120))?.status == 0 else { return nil }
        // mov_text in MP4, and WebVTT: FFmpeg turns both into ASS events too.
        let mp4 = ["-v", "error", "-y", "-i", m.movie, "-map", "0:v", "-map", "0:s:0", "-c:v", "copy", "-c:s", "mov_text", m.movText]
        let vtt = ["-v", "error", "-y", "-i", folder.appendingPathComponent("en.srt").path, m.webVTT]
        guard (try? runTool("ffmpeg", mp4))?.status == 0, (try? runTool("ffmpeg", vtt))?.status == 0 else { return nil }
        let flag = ["-v", "error", "-y", "-i", m.movie, "-map", "0", "-c", "copy", "-disposition:a:0", "0",
                    "-disposition:a:1", "default", "-disposition:s:1", "default", "-disposition:s:2", "forced", m.flagged]
        guard (try? runTool("ffmpeg", flag))?.status == 0 else { return nil }
        return m
    }()

    func media() throws -> Media {
        try #require(Self.media, "could not make the test media with ffmpeg")
    }

    func open(_ path: String, _ configure: (inout ItemPreferences) -> Void = { _ in }) throws -> (PlayerItem, ItemPipeline) {
        var preferences = ItemPreferences()
        configure(&preferences)
        return try openItem(path, preferences: preferences, size: nil)
    }

    // MARK: Listing and defaults

    @Test func trackListingMatchesFFprobe() throws {
        let m = try media()
        let (item, _) = try open(m.flagged) { $0.autoloadSubtitles = false }
        let probe = try runTool("ffprobe", ["-v", "error", "-show_entries",
                                            "stream=index,codec_name,codec_type:stream_tags=language,title:stream_disposition=default,forced",
                                            "-of", "json", m.flagged])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(probe.stdout.utf8)) as? [String: Any])
        let streams = try #require(json["streams"] as? [[String: Any]])
        let tracks = item.tracks
        #expect(tracks.count == streams.count)
        for (track, stream) in zip(tracks, streams) {
            let tags = stream["tags"] as? [String: String] ?? [:]
            let disposition = stream["disposition"] as? [String: Int] ?? [:]
            #expect(track.id == stream["index"] as? Int)
            #expect(track.kind.rawValue == stream["codec_type"] as? String)
            #expect(track.codec == stream["codec_name"] as? String)
            #expect(track.language == tags["language"])
            #expect(track.title == tags["title"])
            #expect(track.isDefault == (disposition["default"] == 1))
            #expect(track.isForced == (disposition["forced"] == 1))
        }
        #expect(tracks.map(\.isBitmap) == [false, false, false, false, false, true])
    }

    @Test func defaultTracksFollowFlagsAndPreferences() throws {
        let m = try media()
        func chosen(_ path: String, _ configure: (inout ItemPreferences) -> Void) throws -> (Int?, Int?) {
            let (item, _) = try open(path, configure)
            return (item.selectedAudioTrack, item.selectedSubtitleTrack)
        }
        // No flags on subtitles: none shown; the default-flagged audio plays.
        #expect(try chosen(m.movie) { $0.autoloadSubtitles = false } == (1, nil))
        // Flags: audio 2 is the default, the ASS track is default.
        #expect(try chosen(m.flagged) { $0.autoloadSubtitles = false } == (2, 4))
        // Languages win over flags; two- and three-letter codes match.
        #expect(try chosen(m.flagged) { $0.autoloadSubtitles = false; $0.audioLanguages = ["en"]; $0.subtitleLanguages = ["de"] } == (1, 5))
        #expect(try chosen(m.movie) { $0.autoloadSubtitles = false; $0.audioLanguages = ["xx", "fra"]; $0.subtitleLanguages = ["eng"] } == (2, 3))
        // A file found beside the video is shown when nothing else is; its language comes from its name.
        let (beside, _) = try open(m.movie)
        let external = try #require(beside.tracks.first { $0.externalPath != nil })
        #expect(external.language == "fr" && external.externalPath == m.frenchSrt)
        #expect(beside.selectedSubtitleTrack == external.id)
        // A file given with --sub-file wins over the flags.
        let srt = m.folder.appendingPathComponent("en.srt").path
        let (given, _) = try open(m.flagged) { $0.subtitleFiles = [srt] }
        #expect(given.selectedSubtitleTrack == given.tracks.first { $0.externalPath == srt }?.id)
    }

    // MARK: Timing

    /// Each frame's media time and whether subtitle pixels (anything not
    /// black: the video is black) are on it.
    func subtitleFrames(_ pipeline: ItemPipeline, count: Int = 10_000, timeout: Double = 30) -> [(time: Double, shown: Bool)] {
        var out: [(Double, Bool)] = []
        let deadline = Date().addingTimeInterval(timeout)
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: 4096 * 2)
        defer { scratch.deallocate() }
        while Date() < deadline && out.count < count {
            _ = pipeline.audioRing.read(into: scratch, frames: 4096)  // keep audio flowing
            guard let frame = pipeline.frames.pop() else {
                if pipeline.frames.isDrained { break }
                Thread.sleep(forTimeInterval: 0.001)
                continue
            }
            if frame.serial == pipeline.serial, let p = pipeline.picture(of: frame) {
                var lit = 0
                for y in stride(from: 0, to: p.height, by: 2) {
                    let row = p.pixels + y * p.pitch
                    for x in stride(from: 0, to: p.width * 4, by: 8) where row[x] > 60 || row[x + 1] > 60 || row[x + 2] > 60 {
                        lit += 1
                    }
                }
                out.append((frame.pts.seconds, lit > 20))
            }
        }
        return out
    }

    /// ffmpeg moved every stream 21 ms later when it muxed (AAC priming:
    /// the audio starts before the video): the media's own time of a span.
    static func muxShift(_ path: String) throws -> Double {
        let r = try runTool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=start_time",
                                        "-of", "csv=p=0", path])
        return Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    func expectFrames(_ frames: [(time: Double, shown: Bool)], match spans: [(Double, Double)], offset: Double = 0,
                      _ label: String) {
        #expect(!frames.isEmpty, "\(label): no frames")
        for f in frames {
            let t = f.time - offset
            let expected = spans.contains { t >= $0.0 - 1e-6 && t < $0.1 - 1e-6 }
            #expect(f.shown == expected, "\(label): frame at \(t) s shows subtitles: \(f.shown), expected \(expected)")
        }
    }

    @Test(arguments: [(3, "srt"), (4, "ass"), (5, "pgs")])
    func subtitleEventsLandOnTheirFrames(track: Int, name: String) throws {
        let m = try media()
        let shift = try Self.muxShift(m.movie)
        let spans = ([3: Self.srtSpans, 4: Self.assSpans, 5: Self.pgsSpans][track] ?? []).map { ($0.0 + shift, $0.1 + shift) }
        let (item, pipeline) = try open(m.movie) { $0.autoloadSubtitles = false }
        #expect(item.selectSubtitleTrack(track))
        pipeline.setDisplaySize(width: 320, height: 180)  // small: the other suites run meanwhile
        item.setPasses(2)
        // Two passes: the second pass's frames follow the first on the timeline.
        let frames = subtitleFrames(pipeline)
        #expect(frames.count == 300)
        let seam = try #require(pipeline.passStarts.dropFirst().first).seconds
        expectFrames(frames.filter { $0.time < seam - 1e-6 }, match: spans, "\(name) pass 1")
        expectFrames(frames.filter { $0.time >= seam - 1e-6 }, match: spans, offset: seam, "\(name) after the loop")
        // After seeking back into the middle of the first subtitle and past it.
        for target in [1.52, 3.2] {
            pipeline.seek(to: MediaTime(seconds: target))
            expectFrames(subtitleFrames(pipeline, count: 50), match: spans, "\(name) after a seek to \(target)")
        }
    }

    @Test func subtitleDelayAndVisibility() throws {
        let m = try media()
        let (item, pipeline) = try open(m.movie) { $0.autoloadSubtitles = false }
        item.selectSubtitleTrack(3)
        item.subtitleDelay = 0.3
        pipeline.setDisplaySize(width: 320, height: 180)
        let shift = try Self.muxShift(m.movie)
        let shifted = Self.srtSpans.map { ($0.0 + shift + 0.3, $0.1 + shift + 0.3) }
        expectFrames(subtitleFrames(pipeline, count: 100), match: shifted, "delay +300 ms")
        item.subtitlesVisible = false
        pipeline.seek(to: MediaTime(seconds: 1))
        #expect(subtitleFrames(pipeline, count: 40).allSatisfy { !$0.shown })
    }

    // MARK: Files

    @Test func externalSubtitleFileWithNonASCIIText() throws {
        let m = try media()
        let (item, pipeline) = try open(m.movie)
        let subtitles = try #require(pipeline.subtitles)
        #expect(subtitles.activeText(at: MediaTime(seconds: 1)) == ["Été — naïve café ✓"])
        #expect(subtitles.activeText(at: MediaTime(seconds: 3)) == [])
        #expect(subtitles.activeText(at: MediaTime(seconds: 5)) == ["Zweite Zeile"])
        pipeline.setDisplaySize(width: 320, height: 180)  // small: the other suites run meanwhile
        expectFrames(subtitleFrames(pipeline), match: Self.externalSpans, "external SRT")
        #expect(item.takeWarnings().isEmpty)
    }

    @Test func movTextAndWebVTTBecomeLines() throws {
        let m = try media()
        let shift = try Self.muxShift(m.movie)
        let (item, pipeline) = try open(m.movText) { $0.autoloadSubtitles = false; $0.subtitleLanguages = ["en"] }
        #expect(item.tracks.map(\.codec) == ["h264", "mov_text"])
        _ = subtitleFrames(pipeline)  // embedded lines are known once the demuxer has read them
        #expect(pipeline.subtitles?.activeText(at: MediaTime(seconds: 1.5 + shift)) == ["First line"])
        let (_, withVTT) = try open(m.movie) { $0.autoloadSubtitles = false; $0.subtitleFiles = [m.webVTT] }
        #expect(withVTT.subtitles?.activeText(at: MediaTime(seconds: 3.2)) == ["Second line"])
        #expect(withVTT.subtitles?.activeText(at: MediaTime(seconds: 2.5)) == [])
    }

    @Test func unreadableSubtitleFilesAreReportedAndPlaybackGoesOn() throws {
        let m = try media()
        let (item, pipeline) = try open(m.movie) {
            $0.autoloadSubtitles = false
            $0.subtitleFiles = [m.folder.appendingPathComponent("missing.srt").path, m.garbage]
        }
        let warnings = item.takeWarnings()
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.hasPrefix("subtitles missing.srt: ") && $0.contains("No such file") })
        #expect(warnings.contains { $0.hasPrefix("subtitles garbage.srt: ") })
        #expect(item.selectedSubtitleTrack == nil)
        pipeline.setDisplaySize(width: 64, height: 36)
        #expect(subtitleFrames(pipeline).count == 150)
    }

    @Test func truncatedBitmapSubtitlesShowWhatWasRead() throws {
        let m = try media()
        let (item, pipeline) = try open(m.movie) { $0.autoloadSubtitles = false; $0.subtitleFiles = [m.brokenPgs] }
        let subtitles = try #require(pipeline.subtitles)
        #expect(item.selectedSubtitleTrack != nil)
        #expect(subtitles.showsBitmap(at: MediaTime(seconds: 1.5)))
        #expect(subtitles.showsBitmap(at: MediaTime(seconds: 3.5)))
        #expect(!subtitles.showsBitmap(at: MediaTime(seconds: 4.5)))
        #expect(item.takeWarnings().isEmpty)
    }

    @Test func damagedTextLinesAreSkippedAndTheRestShow() throws {
        let m = try media()
        let (item, pipeline) = try open(m.movie) { $0.autoloadSubtitles = false; $0.subtitleFiles = [m.brokenSrt] }
        let subtitles = try #require(pipeline.subtitles)
        #expect(subtitles.activeText(at: MediaTime(seconds: 1.5)) == ["Été à côté"])
        #expect(subtitles.activeText(at: MediaTime(seconds: 3.5)) == [])
        #expect(subtitles.activeText(at: MediaTime(seconds: 5.2)) == ["fin"])
        #expect(item.takeWarnings().isEmpty)
    }

    // MARK: Control socket

    @Test func tracksAreListedAndChosenThroughTheSocket() throws {
        let m = try media()
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let sockets = ControlSocketTests()
        let player = try sockets.startPlayer([m.movie, "--start", "1.2", "--pause"], socket: socket)
        defer { if player.isRunning { player.terminate() } }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") != nil)

        // mpv numbers tracks from 1 within each type; the file found beside the video comes last.
        guard case .array(let list)? = client.get("track-list") else { Issue.record("no track-list"); return }
        let summary = list.map { "\($0["type"]?.string ?? "?")\($0["id"]?.number.map { Int($0) } ?? 0):\($0["lang"]?.string ?? "-")" }
        #expect(summary == ["video1:-", "audio1:eng", "audio2:fre", "sub1:eng", "sub2:jpn", "sub3:ger", "sub4:fr"])
        #expect(list.last?["external-filename"]?.string == m.frenchSrt)
        #expect(client.get("aid") == .number(1))
        #expect(client.get("sid") == .number(4))
        let waitForText = { (expected: String) -> Bool in
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                if client.get("sub-text") == .string(expected) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return false
        }
        #expect(waitForText("Été — naïve café ✓"))

        #expect(client.error([.string("set_property"), .string("sid"), .number(1)]) == "success")
        #expect(waitForText("First line"))
        #expect(client.error([.string("add"), .string("sub-delay"), .string("0.5")]) == "success")
        #expect(client.get("sub-delay") == .number(0.5))
        #expect(waitForText(""), "1.2 s with a 0.5 s delay is before the line")
        #expect(client.error([.string("set_property"), .string("sid"), .string("no")]) == "success")
        #expect(client.get("sid") == .bool(false))
        #expect(client.error([.string("set_property"), .string("aid"), .number(2)]) == "success")
        #expect(client.get("aid") == .number(2))
        #expect(client.error([.string("set_property"), .string("aid"), .number(3)]) == "invalid parameter")
        #expect(client.error([.string("quit")]) == "success")
        #expect(sockets.waitForExit(player))
    }

    // MARK: Audio tracks

    /// ffmpeg's own decode of audio stream `index` (mono float, 48 kHz).
    func reference(_ path: String, stream index: Int) throws -> [Float] {
        let out = Fixtures.temporaryDirectory().appendingPathComponent("ref.raw")
        defer { try? FileManager.default.removeItem(at: out.deletingLastPathComponent()) }
        let r = try runTool("ffmpeg", ["-v", "error", "-y", "-i", path, "-map", "0:\(index)", "-f", "f32le", "-ac", "1", out.path])
        #expect(r.status == 0)
        let data = try Data(contentsOf: out)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    @Test func switchingAudioMidPlayKeepsVideoAndSync() throws {
        let m = try media()
        let (item, pipeline) = try open(m.movie) { $0.autoloadSubtitles = false }
        let english = try reference(m.movie, stream: 1), french = try reference(m.movie, stream: 2)
        pipeline.setDisplaySize(width: 64, height: 36)
        let rate = 48_000, channels = 2
        let chunk = 480
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * channels)
        defer { buffer.deallocate() }
        var left: [Float] = []
        var frameTimes: [Double] = []
        var markersAfterStart = 0
        var switchedAt: Int?
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            // Read as a device would: audio in 10 ms blocks, video as it comes.
            while let f = pipeline.frames.pop() {
                frameTimes.append(f.pts.seconds)
            }
            let (n, time, _) = pipeline.audioRing.read(into: buffer, frames: chunk)
            if n > 0, let time {
                if time != MediaTime(value: Int64(left.count), timescale: Int64(rate)) { markersAfterStart += 1 }
                for i in 0..<n { left.append(buffer[i * channels]) }
            }
            if switchedAt == nil && left.count >= 2 * rate {
                switchedAt = left.count
                #expect(item.pipeline?.selectAudioTrack(2, playhead: MediaTime(value: Int64(left.count), timescale: Int64(rate))) == true)
            }
            if pipeline.audioRing.isDrained && pipeline.frames.isDrained { break }
            if n == 0 { Thread.sleep(forTimeInterval: 0.001) }
        }
        #expect(item.selectedAudioTrack == 2)
        // Every video frame once, in order: the picture went on untouched.
        #expect(frameTimes.count == 150)
        #expect(zip(frameTimes, frameTimes.dropFirst()).allSatisfy { $1 > $0 })
        // One timeline: no jump in the audio's time, nothing lost or added.
        #expect(markersAfterStart == 0)
        #expect(left.count == english.count, "\(left.count) samples played, the track has \(english.count)")
        // Before the switch: English, sample for sample. After the kept 0.1 s and
        // the 5 ms fade-in: French, at the same timeline position (A/V in sync).
        let at = try #require(switchedAt)
        var worstBefore: Float = 0, worstAfter: Float = 0
        for i in 0..<at { worstBefore = max(worstBefore, abs(left[i] - english[i])) }
        let resume = at + rate / 10 + rate / 200
        // The tones last 6 s; after that comes the encoder's tail (AAC in
        // Matroska carries no end trim), decoded from a flushed decoder here.
        for i in resume..<min(left.count, french.count, 6 * rate) { worstAfter = max(worstAfter, abs(left[i] - french[i])) }
        #expect(worstBefore < 1e-4)
        #expect(worstAfter < 1e-4, "after the switch the samples differ from the French track's by \(worstAfter)")
        // No click: the step between samples around the switch stays as small
        // as the tones' own (1000 Hz at 48 kHz changes by at most ~0.07 a sample).
        let steps = (at..<(resume + 10)).map { abs(left[$0 + 1] - left[$0]) }
        #expect(steps.max() ?? 1 < 0.1)
    }
}
