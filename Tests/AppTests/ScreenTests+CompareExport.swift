// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
import TestSupport

/// Two short 720p30 renditions (x264 at high quality, MPEG-4 part 2 at a
/// low one) for the export tests, made once per run with the ffmpeg CLI.
enum ExportMedia {
    static let dir = FileManager.default.temporaryDirectory.appendingPathComponent("deskplayer-export-media-2")

    static func path(_ name: String) throws -> String {
        let out = dir.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: out) { return out }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let partial = out + ".part.mp4"
        let source = ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000",
                      "-t", "2"]
        // HD is BT.709, said in the file as cameras and encoders say it.
        var args = ["-v", "error", "-y"] + source + CompareMedia.tags
        switch name {
        case "ref.mp4": args += ["-c:v", "libx264", "-crf", "16", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", partial]
        case "mpeg4.mp4": args += ["-c:v", "mpeg4", "-q:v", "20", "-c:a", "aac", partial]
        default: throw MediaError("no such export clip: \(name)")
        }
        let r = try runTool("ffmpeg", args, timeout: 120)
        guard r.status == 0 else { throw MediaError("ffmpeg for \(name): \(r.stderr)") }
        try FileManager.default.moveItem(atPath: partial, toPath: out)
        return out
    }

    /// Frame `n` of `file`, decoded by ffmpeg.
    static func frame(_ file: String, _ n: Int, in dir: URL) throws -> PPMImage {
        let out = dir.appendingPathComponent("export-frame-\(UUID().uuidString).ppm").path
        let r = try runTool("ffmpeg", ["-v", "error", "-y", "-i", file, "-vf", "select=eq(n\\,\(n))", "-frames:v", "1", out])
        guard r.status == 0 else { throw MediaError("ffmpeg frame \(n) of \(file): \(r.stderr)") }
        return try PPMImage(path: out)
    }

    /// ffprobe's `key=value` lines for the first video stream's `entries`.
    static func probe(_ file: String, _ entries: String) throws -> [String: String] {
        let r = try runTool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                        "stream=\(entries)", "-of", "default=noprint_wrappers=1", file])
        return Dictionary(r.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { a, _ in a })
    }
}

extension ScreenTests {
    /// `compare-export` through the socket, while the window shows a wipe
    /// (the divider at 0.4), the heat difference at gain 4, the two stacks
    /// and B alone (flip): each
    /// export's frame at the paused time equals the window's screenshot
    /// of it (PSNR ≥ 45 dB, labels and divider included), at the
    /// reference's frame rate and length (ffprobe), and the player goes on.
    @Test func anExportIsTheWindowFrameForFrame() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let (ref, other) = (try ExportMedia.path("ref.mp4"), try ExportMedia.path("mpeg4.mp4"))
        // 800x450: the 720p sides are decoded in full (at half size or less they would be decoded fast).
        let app = try RunningApp([ref, other, "--compare", "wipe", "--compare-wipe", "0.4", "--start", "1", "--pause",
                                  "--geometry", "800x450+0+0", "--no-config", "--input-ipc-server", socket])
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        let views: [(String, [(String, JSONValue)])] = [
            ("wipe", []),
            ("diff", [("compare", .string("diff")), ("compare-diff", .string("heat")), ("compare-diff-gain", .number(4))]),
            ("hstack", [("compare", .string("hstack"))]),
            ("vstack", [("compare", .string("vstack"))]),
            ("flip", [("compare", .string("flip")), ("compare-side", .number(1))]),
        ]
        for (name, settings) in views {
            for (property, value) in settings {
                #expect(client.error([.string("set_property"), .string(property), value]) == "success", "set \(property)")
            }
            let shot = try grabSteady(app, 800, 450, in: dir)
            if name == "wipe" {
                // The labels say each frame's picture type and coded size as ffprobe reports them.
                var labels: [String] = []
                if case .array(let list)? = client.get("compare-label-text") { labels = list.compactMap(\.string) }
                for (label, file) in zip(labels, [ref, other]) {
                    let frame = try MetricsScanTests.probeFrames(file)[30]
                    let coded = String(format: "#30  %@ %.1f kB", frame.type, (Double(frame.size) ?? 0) / 1000)
                    #expect(label.contains(coded), "\(label) should say \(coded)")
                }
                #expect(labels.count == 2, "\(labels)")
            }
            let out = dir.appendingPathComponent("export-\(name).mp4").path
            #expect(client.error([.string("compare-export"), .string(out), .string("no")]) == "success", "\(app.errors)")
            var state: String?
            #expect(eventually(seconds: 300) {
                state = client.get("compare-export-progress")?["state"]?.string
                return state != nil && state != "running"
            }, "the export never ended: \(String(describing: client.get("compare-export-progress")))")
            #expect(state == "done", "\(String(describing: client.get("compare-export-progress"))) \(app.errors)")
            // The window shows the reference's frame 30 (1 s): the export's frame 30.
            let frame = try ExportMedia.frame(out, 30, in: dir)
            let psnr = frame.psnr(shot)
            if let keep = ProcessInfo.processInfo.environment["DP_KEEP"] {
                for (image, kind) in [(shot, "shot"), (frame, "frame")] {
                    let header = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
                    try? (header + Data(image.pixels)).write(to: URL(fileURLWithPath: "\(keep)/\(kind)-\(name).ppm"))
                }
            }
            print("compare-export \(name): frame 30 against the window's screenshot: \(psnr) dB")
            #expect(frame.width == 800 && frame.height == 450)
            #expect(psnr >= 45, "\(name): the export's frame is \(psnr) dB from the window's")
            let probe = try ExportMedia.probe(out, "codec_name,avg_frame_rate,nb_read_frames,duration")
            #expect(probe["codec_name"] == "h264", "\(probe)")
            #expect(probe["avg_frame_rate"] == "30/1", "\(probe)")
            #expect(probe["nb_read_frames"] == "60", "\(probe)")
            #expect(abs((Double(probe["duration"] ?? "") ?? 0) - 2) < 0.05, "\(probe)")
            #expect(app.errors.contains("Exported \(out)"), "\(app.errors)")
        }
        #expect(app.process.isRunning)
    }

    /// `compare-mark` (M) marks the frame on screen; `compare-export-frames
    /// DIR` writes, for it, A's and B's frames at their own size (1280x720)
    /// and the view, which is the window's screenshot (PNG: lossless).
    @Test func exportFramesWritesEachSideAndTheViewOfTheMarkedFrames() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let (ref, other) = (try ExportMedia.path("ref.mp4"), try ExportMedia.path("mpeg4.mp4"))
        let app = try RunningApp([ref, other, "--compare", "hstack", "--start", "1", "--pause",
                                  "--geometry", "800x450+0+0", "--no-config", "--input-ipc-server", socket])
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        let shot = try grabSteady(app, 800, 450, in: dir)
        #expect(client.error([.string("compare-mark")]) == "success")
        #expect(client.get("compare-marks").map { if case .array(let l) = $0 { l.count } else { 0 } } == 1, "\(String(describing: client.get("compare-marks")))")
        let out = dir.appendingPathComponent("frames")
        let reply = client.command([.string("compare-export-frames"), .string(out.path)])
        #expect(reply?["error"]?.string == "success", "\(String(describing: reply)) \(app.errors)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path))?.sorted() ?? []
        #expect(names == ["frame-00030-A.png", "frame-00030-B.png", "frame-00030-view.png"], "\(names)")
        func ppm(_ name: String) throws -> PPMImage {
            let path = dir.appendingPathComponent(name + ".ppm").path
            _ = try runTool("ffmpeg", ["-v", "error", "-y", "-i", out.appendingPathComponent(name + ".png").path, path])
            return try PPMImage(path: path)
        }
        let a = try ppm("frame-00030-A")
        #expect(a.width == 1280 && a.height == 720)
        // A at its own size is ffmpeg's decode of frame 30.
        let decoded = try ExportMedia.frame(ref, 30, in: dir)
        #expect(a.psnr(decoded) > 40, "A's frame: \(a.psnr(decoded)) dB from ffmpeg's decode")
        let view = try ppm("frame-00030-view")
        let psnr = view.psnr(shot)
        print("compare-export-frames: the view against the window's screenshot: \(psnr) dB")
        #expect(psnr >= 45, "the view is \(psnr) dB from the window's")
    }

    /// `--compare-export` with no window: the wipe with A's sound, at the
    /// reference's rate and length, and one line said at the end.
    @Test func theCommandLineExportsWithSoundAndExits() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (ref, other) = (try ExportMedia.path("ref.mp4"), try ExportMedia.path("mpeg4.mp4"))
        let out = dir.appendingPathComponent("wipe.mkv").path
        let r = try runTool(Fixtures.binary, [ref, other, "--no-config", "--compare", "wipe", "--compare-wipe-orientation", "horizontal",
                                          "--compare-export", out], timeout: 300)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("Exported \(out): 60 frames (1280x720, 30.000 fps"), "\(r.stderr)")
        let probe = try ExportMedia.probe(out, "width,height,avg_frame_rate,nb_read_frames")
        #expect(probe["width"] == "1280" && probe["avg_frame_rate"] == "30/1" && probe["nb_read_frames"] == "60", "\(probe)")
        let audio = try runTool("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name,channels",
                                            "-of", "default=noprint_wrappers=1", out]).stdout
        #expect(audio.contains("codec_name=aac") && audio.contains("channels=2"), "\(audio)")
        let bad = try runTool(Fixtures.binary, [ref, other, "--no-config", "--compare", "wipe", "--compare-export", dir.path + "/x.unknownext"],
                              timeout: 60)
        #expect(bad.status == 1 && bad.stderr.contains("no container"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/x.unknownext"))
    }
}

extension ScreenTests {
    /// `--compare-align auto` with `--compare-export`: the pair lined up
    /// first (a re-encode cut 1.234 s in, by its sound), then exported.
    @Test func theCommandLineExportAlignsFirst() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("aligned.mp4").path
        let r = try runProcess(Fixtures.binary, [try AlignMedia.path("ref.mp4"), try AlignMedia.path("late44.mp4"), "--no-config",
                                                 "--compare", "hstack", "--compare-align", "auto", "--compare-export", out], timeout: 300)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("B is 1.2340 s later (compare-shift -1.2340)"), "\(r.stderr)")
        #expect(r.stderr.contains("Exported \(out): 300 frames (1280x360"), "\(r.stderr)")
    }
}

extension ScreenTests {
    /// The export carries the chosen side's sound shifted as it is heard: a
    /// beep at 1.0 s of A, B cut 0.5 s in (its beep at 0.5 s), B shown
    /// 0.5 s behind (compare-shift −0.5): B's sound puts its beep at 1.0 s
    /// of the export, to the millisecond, as A's does; `both` puts A's on
    /// the left and B's on the right, each at 1.0 s.
    @Test func theExportsSoundIsTheChosenSidesShifted() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = dir.appendingPathComponent("beep-a.mp4").path, b = dir.appendingPathComponent("beep-b.mp4").path
        _ = try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=3", "-f", "lavfi",
                                   "-i", "aevalsrc=exprs='if(between(t,1.0,1.05),sin(2*PI*1000*t),0)':s=48000:d=3",
                                   "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "192k", a])
        _ = try runTool("ffmpeg", ["-v", "error", "-y", "-ss", "0.5", "-i", a, "-c:v", "libx264", "-c:a", "aac", "-b:a", "192k", b])
        func beep(_ file: String, channel: Int? = nil) throws -> Double {
            let raw = dir.appendingPathComponent(UUID().uuidString + ".f32").path
            let mono = channel.map { ["-af", "pan=mono|c0=c\($0)"] } ?? ["-ac", "1"]
            _ = try runTool("ffmpeg", ["-v", "error", "-y", "-i", file, "-map", "0:a"] + mono + ["-f", "f32le", "-ar", "48000", raw])
            let data = try Data(contentsOf: URL(fileURLWithPath: raw))
            let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            return Double(samples.firstIndex { abs($0) > 0.3 } ?? -48000) / 48000
        }
        for side in ["a", "b", "both"] {
            let out = dir.appendingPathComponent("export-\(side).mp4").path
            let r = try runProcess(Fixtures.binary, [a, b, "--no-config", "--compare", "wipe", "--compare-shift=-0.5",
                                                     "--compare-export-audio", side, "--compare-export", out], timeout: 120)
            #expect(r.status == 0, "\(r.stderr)")
            // `both`: A on the left, B on the right.
            for channel in side == "both" ? [0, 1] : [nil] {
                let at = try beep(out, channel: channel)
                print("compare-export, \(side)'s sound\(channel.map { " channel \($0)" } ?? ""): the beep at \(at) s")
                #expect(abs(at - 1.0) < 0.001, "\(side) \(String(describing: channel)): the beep at \(at) s")
            }
        }
    }
}

extension ScreenTests {
    /// An HDR10 rendition (HEVC Main10, BT.2020, PQ) beside an SDR one: the
    /// HDR side is tone mapped as it plays and its label says so (the SDR
    /// side's does not); the metrics refuse the pair with one line (stderr
    /// and OSD) instead of comparing code values of different transfer
    /// functions, and so does `--scan` (exit 1).
    @Test func hdrBesideSDRIsMappedLabelledAndNotMeasured() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let hdr = try VideoMedia.hdr10()
        let sdr = try VideoMedia.clip("sdr-beside-hdr.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2",
                                                             "-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv420p"])
        let app = try RunningApp([hdr, sdr, "--compare", "hstack", "--compare-metrics", "psnr,ssim", "--start", "1", "--pause",
                                  "--geometry", "640x360+0+0", "--no-config", "--input-ipc-server", socket])
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        var labels: [String] = []
        #expect(eventually(seconds: 20) {
            guard case .array(let list)? = client.get("compare-label-text") else { return false }
            labels = list.compactMap(\.string)
            return labels.count == 2 && labels.allSatisfy { $0.contains("#25") }
        }, "\(labels)")
        #expect(labels.first?.contains("HDR tone mapped") == true, "A's label: \(labels)")
        #expect(labels.last?.contains("HDR tone mapped") == false, "B's label: \(labels)")
        let refusal = "hdr10.mp4 is HDR (PQ) and sdr-beside-hdr.mp4 SDR: not measured"
        #expect(eventually(seconds: 20) { app.errors.contains(refusal) }, "\(app.errors)")
        #expect(app.errors.components(separatedBy: "not measured").count == 2, "said once: \(app.errors)")
        // Both pictures show (the mapped one darker: hable's curve).
        let shot = try grabSteady(app, 640, 360, in: dir)
        if let keep = ProcessInfo.processInfo.environment["DP_KEEP"] {
            try? (Data("P6\n640 360\n255\n".utf8) + Data(shot.pixels)).write(to: URL(fileURLWithPath: "\(keep)/hdr.ppm"))
        }
        let (left, right) = (shot.crop(0, 100, 320, 160), shot.crop(320, 100, 320, 160))
        print("HDR tone mapped beside SDR: mean levels \(left.meanLevel), \(right.meanLevel); labels \(labels)")
        #expect(left.meanLevel > 40 && right.meanLevel > 40, "\(left.meanLevel) \(right.meanLevel)")
        let scan = try runProcess(Fixtures.binary, ["--no-config", "--scan", hdr, sdr, "--compare-metrics-out",
                                                    dir.appendingPathComponent("m.csv").path], timeout: 60)
        #expect(scan.status == 1 && scan.stderr.contains(refusal), "\(scan.stderr)")
    }
}

extension ScreenTests {
    /// A reference whose header claims ten hours while its frames end at
    /// 2 s: the export ends at its last frame (50 frames at 25 fps), not
    /// ten hours later.
    @Test func theExportEndsAtTheReferencesLastFrameNotItsClaimedDuration() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = "testsrc2=size=320x180:rate=25:duration=2"
        let liar = try LyingDuration.matroska("liar.mkv", in: dir, filter: picture, codec: ["-c:v", "mpeg4", "-q:v", "5"],
                                              claimed: 36_000)
        let claimed = try runTool("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", liar]).stdout
        #expect(Double(claimed.trimmingCharacters(in: .whitespacesAndNewlines)) == 36_000, "ffprobe believes the header: \(claimed)")
        let other = try LyingDuration.matroska("other.mkv", in: dir, filter: picture, codec: ["-c:v", "mpeg4", "-q:v", "20"],
                                               claimed: 2)
        let out = dir.appendingPathComponent("export.mkv").path
        let r = try runProcess(Fixtures.binary, [liar, other, "--no-config", "--compare", "hstack", "--compare-export", out], timeout: 120)
        #expect(r.status == 0 && !r.timedOut, "\(r.stderr)")
        #expect(r.stderr.contains("Exported \(out): 50 frames (640x180, 25.000 fps"), "\(r.stderr)")
        let probe = try ExportMedia.probe(out, "nb_read_frames")
        #expect(probe["nb_read_frames"] == "50", "\(probe)")
    }
}
