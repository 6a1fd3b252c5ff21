// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Testing
@testable import App
@testable import Media
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// Video as phones, cameras and TV recorders make it, through the real
/// engine headless: every frame timed, turned upright, deinterlaced, tone
/// mapped; compared with what ffprobe and FFmpeg's own filters say. One
/// case at a time: each makes its media with ffmpeg and decodes it, and
/// the suite's timed tests (sync, A/V offset) run beside them on 2 cores.
@Suite(.serialized) struct VideoFilterTests {
    let engine = Pipelines()

    /// Opens `path` with `settings`, waits until ready, decodes at `size`.
    func open(_ path: String, settings: VideoFilterSettings = VideoFilterSettings(),
              size: (Int, Int)? = (64, 36)) throws -> (PlayerItem, ItemPipeline) {
        var preferences = ItemPreferences()
        preferences.video = settings
        return try openItem(path, preferences: preferences, size: size)
    }

    /// The first picture of the pipeline's serial (after a seek).
    func firstPicture(_ pipeline: ItemPipeline) throws -> (PPMImage, MediaTime) {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let f = pipeline.frames.pop() {
                if f.serial == pipeline.serial, let picture = pipeline.picture(of: f) { return (PPMImage(picture), f.pts) }
            } else {
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
        throw MediaError("no picture came")
    }

    /// ffprobe's start time of each stream (seconds), nil where it has none.
    func startTimes(_ path: String) throws -> (video: Double?, audio: Double?) {
        func start(_ kind: String) throws -> Double? {
            let r = try runTool("ffprobe", ["-v", "error", "-select_streams", "\(kind):0", "-show_entries",
                                            "stream=start_time", "-of", "csv=p=0", path])
            let first = r.stdout.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return Double(first.trimmingCharacters(in: CharacterSet(charactersIn: ", ")))
        }
        return (try start("v"), try start("a"))
    }

    // MARK: Every frame at its time

    /// 100 frames in 4 s, each at its own time, one frame apart, starting
    /// where ffprobe says the video starts against the audio (A/V in sync).
    /// Raw streams have no times at all, AVI and raw MPEG-2 only decode
    /// times, and the frames drained at the end have none from FFmpeg.
    @Test(arguments: ["theora", "h264", "hevc", "m2v", "avi", "mpg"])
    func everyFrameIsTimed(_ kind: String) throws {
        let path: String
        switch kind {
        case "theora": path = try VideoMedia.theora()
        case "h264": path = try VideoMedia.rawH264()
        case "hevc": path = try VideoMedia.rawHEVC()
        case "m2v": path = try VideoMedia.rawMPEG2()
        case "avi": path = try VideoMedia.avi()
        default: path = try VideoMedia.programStream()
        }
        let (item, pipeline) = try open(path)
        defer { withExtendedLifetime(item) {} }
        let (video, audio) = engine.drain(pipeline)
        #expect(video.pts.count == 100, "\(kind): \(video.pts.count) frames")
        let steps = zip(video.pts, video.pts.dropFirst()).map { ($1 - $0).seconds }
        let uneven = steps.enumerated().filter { abs($0.element - 0.04) > 1e-6 }
        #expect(uneven.isEmpty, "\(kind): frames not 40 ms apart at \(uneven.prefix(5).map(\.offset))")
        let starts = try startTimes(path)
        let expectedFirst = starts.video.map { v in v - min(v, starts.audio ?? v) } ?? 0
        let first = try #require(video.pts.first).seconds
        #expect(abs(first - expectedFirst) < 0.0015, "\(kind): first frame at \(first), expected \(expectedFirst)")
        if pipeline.audio != nil {
            let audioStart = try #require(audio.firstTime).seconds
            #expect(audioStart < 0.0015, "\(kind): audio starts at \(audioStart)")
        }
        #expect(video.durations.allSatisfy { abs($0.seconds - 0.04) < 1e-6 })
    }

    /// A raw stream (no times at all) looped: the second pass follows the
    /// first on one timeline, frame after frame.
    @Test func aLoopedRawStreamStaysOnOneTimeline() throws {
        let (item, pipeline) = try engine.open(try VideoMedia.rawH264(), passes: 2)
        defer { withExtendedLifetime(item) {} }
        let (video, _) = engine.drain(pipeline)
        #expect(video.pts.count == 200, "\(video.pts.count) frames in two passes")
        let steps = zip(video.pts, video.pts.dropFirst()).map { ($1 - $0).seconds }
        #expect(steps.allSatisfy { abs($0 - 0.04) < 1e-6 }, "uneven at \(steps.enumerated().filter { abs($0.element - 0.04) > 1e-6 }.prefix(3))")
        #expect(video.pts.first == .zero)
    }

    // MARK: Rotation

    /// Where the red and green markers land for each file rotation (FFmpeg
    /// 5.1's rotate tag; as ffmpeg's own autorotate shows them) and what
    /// --video-rotate adds; fractions of the picture.
    static let turns: [(file: Int, extra: Int?, size: (Int, Int), red: (Double, Double), green: (Double, Double))] = [
        (0, 0, (320, 180), (0.1, 0.133), (0.5, 0.089)),
        (90, 0, (180, 320), (0.133, 0.9), (0.089, 0.5)),      // turned counter-clockwise
        (180, 0, (320, 180), (0.9, 0.867), (0.5, 0.911)),
        (270, 0, (180, 320), (0.867, 0.1), (0.911, 0.5)),     // a phone held upright: clockwise
        (270, 90, (320, 180), (0.9, 0.867), (0.5, 0.911)),    // and 90° more: upside down
        (270, nil, (320, 180), (0.1, 0.133), (0.5, 0.089)),   // --video-rotate=no: as stored
        (0, 90, (180, 320), (0.867, 0.1), (0.911, 0.5)),
    ]

    func expectMarkers(_ image: PPMImage, _ turn: (file: Int, extra: Int?, size: (Int, Int), red: (Double, Double), green: (Double, Double)),
                       _ what: String) throws {
        #expect(image.width == turn.size.0 && image.height == turn.size.1, "\(what): \(image.width)x\(image.height)")
        let red = try #require(image.centre(ofRed: true)), green = try #require(image.centre(ofRed: false))
        let redOK = abs(red.x - turn.red.0) < 0.04 && abs(red.y - turn.red.1) < 0.04
        let greenOK = abs(green.x - turn.green.0) < 0.04 && abs(green.y - turn.green.1) < 0.04
        var kept = ""
        if !(redOK && greenOK) {
            // Kept for a look: what was seen, as a PPM beside the system's temporary files.
            kept = FileManager.default.temporaryDirectory.appendingPathComponent("deskplayer-marker-\(UUID().uuidString).ppm").path
            var file = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
            file.append(contentsOf: image.pixels)
            try? file.write(to: URL(fileURLWithPath: kept))
        }
        #expect(redOK, "\(what): red marker at \(red) \(kept)")
        #expect(greenOK, "\(what): green marker at \(green) \(kept)")
    }

    /// The picture played, the display size and the screenshot are all turned the same way.
    @Test(arguments: 0..<turns.count)
    func aDisplayMatrixTurnsThePicture(_ index: Int) throws {
        let turn = VideoFilterTests.turns[index]
        let path = try VideoMedia.rotated(turn.file)
        let settings = VideoFilterSettings(extraRotation: turn.extra)
        let (item, pipeline) = try open(path, settings: settings, size: turn.size)
        defer { withExtendedLifetime(item) {} }
        let what = "rotate=\(turn.file) --video-rotate=\(turn.extra.map(String.init) ?? "no")"
        #expect(pipeline.info.displayWidth == turn.size.0 && pipeline.info.displayHeight == turn.size.1,
                "\(what): display size \(pipeline.info.displayWidth)x\(pipeline.info.displayHeight)")
        pipeline.seek(to: MediaTime(seconds: 1))
        try expectMarkers(try firstPicture(pipeline).0, turn, what + " (played)")
        // The screenshot path (`s`, screenshot-to-file): a PNG at the file's own size.
        let png = Fixtures.temporaryDirectory().appendingPathComponent("shot.png")
        defer { try? FileManager.default.removeItem(at: png.deletingLastPathComponent()) }
        try Screenshots.writeVideo(path, at: MediaTime(seconds: 1), settings: settings, to: png)
        let ppm = png.deletingPathExtension().appendingPathExtension("ppm").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-i", png.path, ppm])
        try expectMarkers(try PPMImage(path: ppm), turn, what + " (screenshot)")
    }

    /// A phone's upright clip whose frame rate is 30000090/1001003 went
    /// through the rotation filter and trapped on the decode thread, taking
    /// the app with it (issue 50; mpv plays it). Now: every frame, one frame
    /// time apart, turned as the 90° clip is.
    @Test func aPhoneClipWithAnOddTimescalePlaysTurned() throws {
        let path = try VideoMedia.phoneOddTimescale()
        let (item, pipeline) = try open(path, size: (180, 320))
        defer { withExtendedLifetime(item) {} }
        #expect(pipeline.info.displayWidth == 180 && pipeline.info.displayHeight == 320)
        let (video, _) = engine.drain(pipeline)
        #expect(video.pts.count == 60, "\(video.pts.count) frames of 60")
        let frameTime = 1001003.0 / 30000090
        let steps = zip(video.pts, video.pts.dropFirst()).map { ($1 - $0).seconds }
        #expect(steps.allSatisfy { abs($0 - frameTime) < 1e-6 }, "uneven: \(steps.prefix(5))")
        #expect(video.durations.allSatisfy { abs($0.seconds - frameTime) < 1e-6 }, "\(video.durations.prefix(3))")
        pipeline.seek(to: MediaTime(seconds: 1))
        try expectMarkers(try firstPicture(pipeline).0, VideoFilterTests.turns[1], "odd timescale, rotate=90")
    }

    /// A display matrix that is a shear, not a turn: one warning, the picture as stored.
    @Test func aShearingDisplayMatrixIsIgnoredWithAWarning() throws {
        let plain = try VideoMedia.rotated(0)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        let tkhd = Array("tkhd".utf8)
        let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == tkhd })
        // tkhd version 0: the matrix follows 40 bytes of fields; its c (second row, first column) becomes 0.5.
        let c = at + 4 + (bytes[at + 4] == 1 ? 52 : 40) + 12
        bytes[c..<c + 4] = [0x00, 0x00, 0x80, 0x00]
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let sheared = dir.appendingPathComponent("sheared.mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: sheared))
        let (item, pipeline) = try open(sheared, size: (320, 180))
        defer { withExtendedLifetime(item) {} }
        let warnings = item.takeWarnings()
        #expect(warnings.count == 1 && warnings.first?.contains("display matrix") == true, "\(warnings)")
        #expect(pipeline.info.displayWidth == 320 && pipeline.info.displayHeight == 180)
        pipeline.seek(to: MediaTime(seconds: 1))
        try expectMarkers(try firstPicture(pipeline).0, VideoFilterTests.turns[0], "sheared")
    }

    // MARK: Deinterlacing

    /// Interlaced MPEG-2 of a pattern moving sideways: deinterlaced (auto,
    /// from the stream's field order) its rows agree as the progressive
    /// source's do, one picture per field; with `no` they comb.
    @Test func interlacedVideoIsDeinterlaced() throws {
        let path = try VideoMedia.interlaced()
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let refPath = dir.appendingPathComponent("progressive.ppm").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", VideoMedia.movingSource, "-vf", "select=eq(n\\,50)",
                               "-frames:v", "1", refPath])
        let progressive = try PPMImage(path: refPath).combEnergy

        let (item, pipeline) = try open(path, size: (320, 180))
        defer { withExtendedLifetime(item) {} }
        #expect(pipeline.info.videoInterlaced)
        pipeline.seek(to: MediaTime(seconds: 1))
        let (deinterlaced, _) = try firstPicture(pipeline)
        pipeline.setDeinterlace(.no)
        pipeline.seek(to: MediaTime(seconds: 1))
        let (combed, _) = try firstPicture(pipeline)
        print("comb energy: progressive \(progressive), deinterlaced \(deinterlaced.combEnergy), woven \(combed.combEnergy)")
        #expect(deinterlaced.combEnergy < progressive * 1.5, "deinterlaced \(deinterlaced.combEnergy) vs progressive \(progressive)")
        #expect(combed.combEnergy > progressive * 3, "without deinterlacing \(combed.combEnergy) vs progressive \(progressive)")

        // One picture per field: 50 a second, 20 ms apart, from the start.
        let (wholeItem, whole) = try open(path)
        defer { withExtendedLifetime(wholeItem) {} }
        let (video, _) = engine.drain(whole)
        #expect(video.pts.count == 100, "\(video.pts.count) pictures from 50 interlaced frames")
        #expect(zip(video.pts, video.pts.dropFirst()).allSatisfy { abs(($1 - $0).seconds - 0.02) < 1e-6 })
    }

    // MARK: HDR

    /// HEVC Main10 PQ is tone mapped to SDR as FFmpeg's own zscale/tonemap
    /// chain maps it; unmapped it is far from that.
    @Test func hdrIsToneMappedAsFFmpegDoes() throws {
        let path = try VideoMedia.hdr10()
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let refPath = dir.appendingPathComponent("mapped.ppm").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-ss", "1", "-i", path, "-vf", VideoFilters.toneMapChain(.hable),
                               "-frames:v", "1", refPath])
        let reference = try PPMImage(path: refPath)
        let (item, pipeline) = try open(path, size: (320, 180))
        defer { withExtendedLifetime(item) {} }
        pipeline.seek(to: MediaTime(seconds: 1))
        let mapped = try firstPicture(pipeline).0
        let psnr = reference.psnr(mapped)
        let (plainItem, plain) = try open(path, settings: VideoFilterSettings(toneMapping: .no), size: (320, 180))
        defer { withExtendedLifetime(plainItem) {} }
        plain.seek(to: MediaTime(seconds: 1))
        let unmapped = reference.psnr(try firstPicture(plain).0)
        print("tone mapping: PSNR \(psnr) dB against FFmpeg's chain; unmapped \(unmapped) dB")
        #expect(psnr > 30, "PSNR \(psnr) dB")
        #expect(unmapped < psnr - 5, "unmapped \(unmapped) dB")
    }

    // MARK: Colours

    /// Untagged video: BT.709 for HD sizes, BT.601 below (mpv's guess), as
    /// FFmpeg converts it when told the matrix.
    @Test(arguments: [(1280, 720, "bt709"), (640, 360, "bt601")])
    func anUnspecifiedMatrixIsGuessedBySize(_ width: Int, _ height: Int, _ matrix: String) throws {
        let path = try VideoMedia.clip("untagged\(width).mp4", ["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=25:duration=1",
                                                                "-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "10"])
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let refPath = dir.appendingPathComponent("ref.ppm").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-i", path, "-vf", "scale=in_color_matrix=\(matrix):flags=bilinear",
                               "-frames:v", "1", refPath])
        let (item, pipeline) = try open(path, size: (width, height))
        defer { withExtendedLifetime(item) {} }
        pipeline.seek(to: .zero)
        let psnr = try PPMImage(path: refPath).psnr(try firstPicture(pipeline).0)
        #expect(psnr > 35, "\(width)x\(height) as \(matrix): PSNR \(psnr) dB")
    }

    // MARK: The filter graph owner

    /// Audio through a graph, with a runtime command (what the speed
    /// control's atempo needs): the volume filter halves the samples after
    /// `volume 0.5` is sent.
    @Test func anAudioGraphTakesCommandsWhileRunning() throws {
        var layout = dp_channel_layout_stereo()
        let graph = try FilterGraph(source: .audio(sampleRate: 48000, format: AV_SAMPLE_FMT_FLT, channelLayout: "stereo",
                                                   timeBase: AVRational(num: 1, den: 48000)),
                                    filters: "volume=volume=1.0,aformat=sample_fmts=flt")
        func run(_ value: Float) throws -> Float {
            let input = try Frame(), output = try Frame()
            input.pointer.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
            input.pointer.pointee.nb_samples = 480
            input.pointer.pointee.sample_rate = 48000
            av_channel_layout_copy(&input.pointer.pointee.ch_layout, &layout)
            #expect(av_frame_get_buffer(input.pointer, 0) >= 0)
            let samples = UnsafeMutableRawPointer(input.pointer.pointee.data.0!).bindMemory(to: Float.self, capacity: 960)
            for i in 0..<960 { samples[i] = value }
            try graph.push(input)
            #expect(try graph.pull(into: output) == .frame)
            return UnsafeRawPointer(output.pointer.pointee.data.0!).bindMemory(to: Float.self, capacity: 960)[10]
        }
        #expect(abs(try run(0.8) - 0.8) < 1e-4)
        try graph.sendCommand(to: "volume", "volume", "0.5")
        #expect(abs(try run(0.8) - 0.4) < 1e-4)
    }

    /// A filter FFmpeg does not have is a clear error, not a crash.
    @Test func anUnknownFilterIsAClearError() {
        #expect(!FilterGraph.isAvailable("no_such_filter"))
        do {
            _ = try FilterGraph(source: .video(width: 64, height: 36, format: AV_PIX_FMT_YUV420P,
                                               timeBase: AVRational(num: 1, den: 25), sampleAspect: AVRational(num: 1, den: 1),
                                               frameRate: AVRational(num: 25, den: 1)),
                                filters: "no_such_filter")
            Issue.record("an unknown filter was accepted")
        } catch {
            #expect("\(error)".contains("no_such_filter"), "\(error)")
        }
    }

    // MARK: Orientation arithmetic

    /// FFmpeg's own display matrices for the eight turns and flips are read
    /// back as the turn they describe; a scale is refused.
    @Test func displayMatricesAreReadAsFFmpegWritesThem() {
        var matrix = [Int32](repeating: 0, count: 9)
        for degrees in [0, 90, 180, 270] {
            for flip in [false, true] {
                // av_display_rotation_set takes counter-clockwise degrees.
                av_display_rotation_set(&matrix, Double(degrees))
                // FFmpeg's angle is counter-clockwise (ffplay turns by its negative).
                let angle = Int(av_display_rotation_get(matrix).rounded())
                let turned = matrix.withUnsafeBufferPointer { VideoOrientation(displayMatrix: $0.baseAddress!) }
                #expect(turned == .clockwise(-angle), "\(degrees)°: \(String(describing: turned)), FFmpeg says \(angle)")
                guard flip else { continue }
                av_display_matrix_flip(&matrix, 1, 0)
                let read = matrix.withUnsafeBufferPointer { VideoOrientation(displayMatrix: $0.baseAddress!) }
                // The flip negates the matrix's first column: the turned picture mirrored.
                #expect(read == turned?.then(.mirrored), "\(degrees)° flipped: \(String(describing: read))")
                #expect(read?.swapsAxes == (degrees % 180 == 90))
                #expect(turned?.swapsAxes == (degrees % 180 == 90))
            }
        }
        matrix = [2 << 16, 0, 0, 0, 2 << 16, 0, 0, 0, 1 << 30]
        #expect(matrix.withUnsafeBufferPointer { VideoOrientation(displayMatrix: $0.baseAddress!) } == nil)
        #expect(VideoOrientation.clockwise(90).then(.clockwise(270)) == .upright)
        #expect(VideoOrientation.clockwise(90).filters == ["transpose=clock"])
        #expect(VideoOrientation.clockwise(270).filters == ["transpose=cclock"])
        #expect(VideoOrientation.clockwise(90).then(.mirrored).filters == ["transpose=cclock_flip"])
        #expect(VideoOrientation.mirrored.then(.clockwise(90)).filters == ["transpose=clock_flip"])
    }
}

extension VideoOrientation {
    /// Left and right swapped (a selfie camera's mirror), read the way the
    /// player reads it: from a display matrix (a = -1, d = 1 in 16.16; upright
    /// if the reading failed, which the tests comparing with it then show).
    static let mirrored = [Int32(-65536), 0, 0, 0, 65536, 0, 0, 0, 1 << 30].withUnsafeBufferPointer { matrix in
        matrix.baseAddress.flatMap(VideoOrientation.init(displayMatrix:)) ?? .upright
    }
}
