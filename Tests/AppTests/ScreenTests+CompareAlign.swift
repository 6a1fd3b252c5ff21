// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
import TestSupport

/// Pairs made the way real ones differ, for `compare-align`: one source
/// (testsrc2's moving picture at 30 fps, pink noise at 48 kHz: sound that
/// correlates at one offset only, where a tone would at every period),
/// re-encoded after a cut, at another sample rate, by another encoder, at
/// another frame rate and size, without sound. Made once per run with the
/// ffmpeg CLI.
enum AlignMedia {
    static let dir = FileManager.default.temporaryDirectory.appendingPathComponent("deskplayer-align-media-2")
    static let picture = "testsrc2=size=640x360:rate=30"
    static let noise = "anoisesrc=color=pink:seed=42:sample_rate=48000:amplitude=0.5"

    static func path(_ name: String) throws -> String {
        let out = dir.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: out) { return out }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let partial = out + ".part.mp4"
        var args = ["-v", "error", "-y"]
        switch name {
        case "ref.mp4":
            args += ["-f", "lavfi", "-i", picture, "-f", "lavfi", "-i", noise, "-t", "10", "-c:v", "libx264", "-crf", "18",
                     "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "128k", partial]
        case "late44.mp4":
            // A re-encode cut 1.234 s in: the sound from that sample on, at
            // 44.1 kHz; the picture from the frame on screen then (frame 37,
            // 1.2333 s), another x264 setting.
            args += ["-f", "lavfi", "-i", picture + ",trim=start_frame=37,setpts=PTS-STARTPTS",
                     "-f", "lavfi", "-i", noise + ",atrim=start=1.234,asetpts=PTS-STARTPTS,aresample=44100",
                     "-t", "8", "-c:v", "libx264", "-crf", "26", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                     "-c:a", "aac", "-b:a", "96k", partial]
        case "trim.mp4":
            // An edit: 2.7 s to 7.5 s of the reference, MPEG-4 part 2 and 32 kHz sound.
            args += ["-i", try path("ref.mp4"), "-ss", "2.7", "-t", "4.8", "-c:v", "mpeg4", "-q:v", "5",
                     "-c:a", "aac", "-ar", "32000", "-b:a", "96k", partial]
        case "dub.mp4":
            // late44.mp4's picture with other sound (another noise): the
            // sound does not match, so `auto` goes by the pictures.
            args += ["-i", try path("late44.mp4"), "-f", "lavfi", "-i", "anoisesrc=color=pink:seed=7:sample_rate=48000:amplitude=0.5",
                     "-map", "0:v", "-map", "1:a", "-t", "8", "-c:v", "copy", "-c:a", "aac", "-b:a", "96k", partial]
        case "late7at25.mp4":
            // The picture alone, 7 frames late at 25 fps (0.28 s), scaled to 480x270.
            args += ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25,trim=start_frame=7,setpts=PTS-STARTPTS,scale=480:270",
                     "-t", "8", "-an", "-c:v", "libx264", "-crf", "20", "-preset", "veryfast", "-pix_fmt", "yuv420p", partial]
        default:
            throw MediaError("no such alignment clip: \(name)")
        }
        let r = try runTool("ffmpeg", args, timeout: 120)
        guard r.status == 0 else { throw MediaError("ffmpeg for \(name): \(r.stderr)") }
        try FileManager.default.moveItem(atPath: partial, toPath: out)
        return out
    }
}

extension ScreenTests {
    /// What compare-align found for `rendition`, once it is no longer running.
    func alignment(_ client: ControlSocketTests.Client, _ rendition: Int) -> JSONValue? {
        var found: JSONValue?
        _ = eventually(seconds: 60) {
            guard case .array(let list)? = client.get("compare-align-result"),
                  let entry = list.first(where: { $0["rendition"]?.number == Double(rendition) }),
                  let state = entry["state"]?.string, state != "running" else { return false }
            found = entry
            return true
        }
        return found
    }

    /// The picture's rows (above the OSD line) of side 0 and side 1 in flip,
    /// and the PSNR of the one against the other.
    func sides(_ app: RunningApp, _ client: ControlSocketTests.Client, in dir: URL) throws -> (a: PPMImage, b: PPMImage, psnr: Double) {
        #expect(client.error([.string("set_property"), .string("compare-side"), .number(0)]) == "success")
        let a = try grabSteady(app, 640, 360, in: dir).crop(0, 0, 640, 300)
        #expect(client.error([.string("set_property"), .string("compare-side"), .number(1)]) == "success")
        let b = try grabSteady(app, 640, 360, in: dir).crop(0, 0, 640, 300)
        return (a, b, a.psnr(b))
    }

    /// `--compare-align auto` with three renditions: a re-encode cut 1.234 s
    /// in with 44.1 kHz sound against the reference's 48 kHz, a trimmed
    /// edit (2.7 s in, another encoder, 32 kHz), and the first's picture
    /// with other sound (found by its pictures). The first two are found by their sound
    /// against the reference, to a sample of the 48 kHz both are compared
    /// at, its compare-shift set; then each side shows the reference's
    /// moment (the same frame: closer to it than to its neighbours).
    @Test func alignFindsEachRenditionBySoundToTheSample() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let (ref, late, trim) = (try AlignMedia.path("ref.mp4"), try AlignMedia.path("late44.mp4"), try AlignMedia.path("trim.mp4"))
        let dub = try AlignMedia.path("dub.mp4")
        let app = try compareApp([ref, late, trim, dub], ["--compare", "flip", "--compare-align", "auto"], socket: socket)
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        let sample = 1.0 / 48000
        for (rendition, truth) in [(1, 1.234), (2, 2.7)] {
            let found = alignment(client, rendition)
            let offset = found?["offset"]?.number ?? .nan
            print("compare-align: rendition \(rendition) found \(offset) s (truth \(truth) s, \((offset - truth) / sample) samples off), "
                + "confidence \(found?["confidence"]?.number ?? .nan), \(found?["seconds"]?.number ?? .nan) s")
            #expect(found?["method"]?.string == "audio", "\(String(describing: found)) \(app.errors)")
            #expect(abs(offset - truth) <= sample, "rendition \(rendition): \(offset) s against \(truth) s")
            #expect((found?["confidence"]?.number ?? 0) > 0.8)
            #expect(abs((found?["shift"]?.number ?? 0) + offset) < 1e-6)
        }
        // Another sound over late44's picture: by the pictures, to its frame 37 (1.2333 s).
        let dubbed = alignment(client, 3)
        print("compare-align, sound that does not match: \(String(describing: dubbed))")
        #expect(dubbed?["method"]?.string == "video", "\(String(describing: dubbed)) \(app.errors)")
        #expect(abs((dubbed?["offset"]?.number ?? 0) - 37.0 / 30) < 1e-6)
        #expect(abs((client.get("compare-shift")?.number ?? 0) + 1.234) <= sample, "B's compare-shift")
        #expect(app.errors.contains("B is 1.2340 s later"), "said on stderr: \(app.errors)")
        #expect(app.errors.contains("B2 is 2.7000 s later"), "\(app.errors)")
        // A frame by hand (Ctrl+→'s command) keeps the fraction of a frame found.
        #expect(client.error([.string("add"), .string("compare-shift-frames"), .number(1)]) == "success")
        #expect(abs((client.get("compare-shift")?.number ?? 0) - (-1.234 + 1.0 / 30)) <= sample)
        #expect(client.error([.string("add"), .string("compare-shift-frames"), .number(-1)]) == "success")
        #expect(abs((client.get("compare-shift")?.number ?? 0) + 1.234) <= sample)

        // 4.0167 s: the middle of A's frame 120, which both cuts show there.
        #expect(client.error([.string("set_property"), .string("compare-labels"), .bool(false)]) == "success")
        #expect(client.error([.string("seek"), .string("4.0167"), .string("absolute")]) == "success")
        // ffmpeg's -ss gives the first frame at or after the time: A's frames 119 and 121.
        let frames = (try CompareMedia.frame(ref, at: 119.0 / 30 - 0.001, 640, 360, in: dir).crop(0, 0, 640, 300),
                      try CompareMedia.frame(ref, at: 121.0 / 30 - 0.001, 640, 360, in: dir).crop(0, 0, 640, 300))
        for rendition in [1, 2] {
            #expect(client.error([.string("set_property"), .string("compare-rendition"), .number(Double(rendition))]) == "success")
            let (a, b, psnr) = try sides(app, client, in: dir)
            let neighbours = (frames.0.psnr(b), frames.1.psnr(b))
            print("rendition \(rendition) at 4.0167 s: B against A \(psnr) dB, against A's frames before and after \(neighbours)")
            #expect(psnr > 30, "B\(rendition) should show A's moment: \(psnr) dB")
            #expect(psnr > max(neighbours.0, neighbours.1) + 3, "nearer A's frame than its neighbours: \(psnr), \(neighbours)")
            _ = a
        }
    }

    /// A copy without sound, 7 frames late at 25 fps and 480x270 against
    /// 30 fps 640x360: `compare-align` (the `=` key) matches the pictures and
    /// finds the exact frame (compare-shift-frames −7); the sides then show
    /// the same moment. `compare-step` moves one side alone: B a frame of
    /// its own (Alt+.), A a frame of its own (Ctrl+.), compare-shift
    /// changing by that frame and the other side staying.
    @Test func alignFindsAVideoOnlyCopyByItsPicturesAndEachSideSteps() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let (ref, late) = (try AlignMedia.path("ref.mp4"), try AlignMedia.path("late7at25.mp4"))
        let app = try compareApp([ref, late], ["--compare", "flip"], socket: socket)
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.error([.string("set_property"), .string("compare-labels"), .bool(false)]) == "success")
        _ = try grabSteady(app, 640, 360, in: dir)
        try runTool("xdotool", ["key", "equal"])
        let found = alignment(client, 1)
        print("compare-align, pictures: \(String(describing: found))")
        #expect(found?["method"]?.string == "video", "no sound on B: the pictures decide \(String(describing: found)) \(app.errors)")
        #expect(client.get("compare-shift-frames") == .number(-7), "\(String(describing: client.get("compare-shift")))")
        #expect(abs((client.get("compare-shift")?.number ?? 0) + 0.28) < 1e-6)
        #expect(app.errors.contains("B is 0.2800 s later"), "\(app.errors)")

        // 2.01 s: A's frame 60 (2.0 s), B's frame 43, whose content is 2.0 s too.
        #expect(client.error([.string("seek"), .string("2.01"), .string("absolute")]) == "success")
        let (_, b, psnr) = try sides(app, client, in: dir)
        // A's frames 59 and 61 (ffmpeg's -ss: the first frame at or after the time).
        let neighbours = (try CompareMedia.frame(ref, at: 59.0 / 30 - 0.001, 640, 360, in: dir).crop(0, 0, 640, 300).psnr(b),
                          try CompareMedia.frame(ref, at: 61.0 / 30 - 0.001, 640, 360, in: dir).crop(0, 0, 640, 300).psnr(b))
        print("aligned by pictures at 2.01 s: B against A \(psnr) dB, against A's neighbouring frames \(neighbours)")
        #expect(psnr > max(neighbours.0, neighbours.1) + 3, "B shows A's moment: \(psnr) dB, neighbours \(neighbours)")

        // B alone one frame on (Alt+.): a frame of B, 0.04 s; A stays.
        let aTime = client.get("time-pos")?.number ?? .nan
        try runTool("xdotool", ["key", "alt+period"])
        #expect(eventually(seconds: 3) { client.get("compare-shift-frames") == .number(-6) }, "\(String(describing: client.get("compare-shift")))")
        #expect(abs((client.get("compare-shift")?.number ?? 0) + 0.24) < 1e-6)
        #expect(abs((client.get("time-pos")?.number ?? .nan) - aTime) < 1e-3, "A stays")
        // A alone one frame on (the command, then Ctrl+, back): a frame of A, 1/30 s.
        #expect(client.error([.string("compare-step"), .string("A"), .number(1)]) == "success")
        #expect(abs((client.get("compare-shift")?.number ?? 0) - (-0.24 - 1.0 / 30)) < 1e-6)
        #expect(eventually(seconds: 3) { abs((client.get("time-pos")?.number ?? 0) - (aTime + 1.0 / 30)) < 2e-3 },
                "A one frame on: \(String(describing: client.get("time-pos")))")
        try runTool("xdotool", ["key", "ctrl+comma"])
        #expect(eventually(seconds: 3) { abs((client.get("compare-shift")?.number ?? 0) + 0.24) < 1e-6 },
                "\(String(describing: client.get("compare-shift")))")
        #expect(client.error([.string("compare-step"), .string("C")]) == "invalid parameter")
        #expect(app.process.isRunning)
    }
}
