// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Testing
@testable import Analysis
@testable import App
@testable import Control
@testable import Media
@testable import Output
@testable import Playback
@testable import UI
import TestSupport

/// Scopes: FFmpeg's histogram, waveform and vectorscope of a tile's
/// picture, the same pictures the ffmpeg command line draws; the `scope`
/// property through the socket. (The panel on screen is in
/// ScreenTests+Metrics, with the other tests of the screen.)
@Suite(.serialized) struct ScopeTests {
    /// Half black, half white, with a red box: two levels in the histogram,
    /// two traces in the waveform, one colour off the vectorscope's centre.
    static func twoTone() throws -> String {
        try VideoMedia.clip("scope-two-tone.mp4", ["-f", "lavfi", "-i",
                                                   "color=c=black:size=320x180:rate=25:duration=1,drawbox=x=160:y=0:w=160:h=180:color=white:t=fill,drawbox=x=20:y=20:w=60:h=60:color=red:t=fill",
                                                   "-c:v", "libx264", "-crf", "10", "-pix_fmt", "yuv420p"])
    }

    /// The first frame of `path`, decoded by the scope's own reader.
    static func firstFrame(_ path: String) throws -> (Frame, AVRational) {
        let input = try MetricsInput(path: path)
        input.start()
        defer { input.stop() }
        guard case .frame(let frame)? = input.next() else { throw MediaError("no frame in \(path)") }
        return (frame, input.timeBase)
    }

    @Test(arguments: [ScopeKind.histogram, .waveform, .vectorscope])
    func eachScopeIsTheOneFFmpegDraws(_ kind: ScopeKind) throws {
        let clip = try Self.twoTone()
        let (frame, timeBase) = try Self.firstFrame(clip)
        let picture = try #require(try ScopeFilter(kind: kind).picture(of: frame, timeBase: timeBase))
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("scope.bgra").path
        let chain = try #require(kind.chain)
        let r = try runTool("ffmpeg", ["-nostdin", "-v", "error", "-i", clip, "-vf", chain + ",format=bgra", "-frames:v", "1",
                                       "-f", "rawvideo", raw])
        #expect(r.status == 0, "\(r.stderr)")
        let probe = try runTool("ffmpeg", ["-nostdin", "-v", "error", "-i", clip, "-vf", chain + ",showinfo", "-frames:v", "1",
                                           "-f", "null", "-"]).stderr
        let theirs = try Data(contentsOf: URL(fileURLWithPath: raw))
        #expect(theirs.count == picture.width * picture.height * 4, "size: ours \(picture.width)x\(picture.height); \(probe)")
        guard theirs.count == picture.width * picture.height * 4 else { return }
        // Pixel by pixel (both converted to BGRA by swscale at the same size).
        var differing = 0, lit = 0
        theirs.withUnsafeBytes { bytes in
            for y in 0..<picture.height {
                for x in 0..<picture.width {
                    for c in 0..<3 {
                        let ours = Int(picture.pixels[y * picture.pitch + x * 4 + c])
                        let expected = Int(bytes[(y * picture.width + x) * 4 + c])
                        if abs(ours - expected) > 3 { differing += 1 }
                        if ours > 40 { lit += 1 }
                    }
                }
            }
        }
        #expect(differing == 0, "\(differing) samples differ from FFmpeg's \(kind.rawValue)")
        // Not an empty picture: the scope drew something.
        #expect(lit > 100)
    }

    @Test func theScopePropertyShowsHidesAndCycles() throws {
        let clip = try Self.twoTone()
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("ipc.sock").path
        let process = try LiveMetricsTests.start(["--pause", clip], socket: socket, headless: true,
                                                 stderr: folder.appendingPathComponent("err.txt"))
        defer { LiveMetricsTests.stop(process) }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("scope")?.string == "none")
        #expect(client.error([.string("set_property"), .string("scope"), .string("waveform")]) == "success")
        #expect(client.get("scope")?.string == "waveform")
        #expect(client.error([.string("cycle"), .string("scope")]) == "success")
        #expect(client.get("scope")?.string == "vectorscope")
        #expect(client.error([.string("set_property"), .string("scope"), .string("parade")]) == "invalid parameter")
        #expect(client.error([.string("keypress"), .string("h")]) == "success")
        #expect(client.get("scope")?.string == "none")
        _ = client.command([.string("quit")])
    }
}
