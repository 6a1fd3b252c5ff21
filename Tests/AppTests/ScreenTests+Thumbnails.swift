// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Output
@testable import Playback
@testable import UI
import TestSupport

/// The seek bar's thumbnails as a person sees them: the mouse moved over
/// the bar with xdotool, the picture grabbed from the X server and its
/// frame number read back; and what hovering costs the playing video.
extension ScreenTests {
    /// Where the thumbnail of a 192x108 picture is drawn for the mouse at
    /// `x` on the seek bar of a tile filling `area`.
    static func thumbnailFrame(pointerX x: Int, in area: Rect) -> Rect {
        let bar = ControlBar(in: area)
        let tipTop = bar.bar.y - TextRenderer().lineHeight - 10
        return SeekThumbnail.frame(width: 192, height: 108, pointerX: x, bottom: tipTop - 4, bounds: area)
    }

    /// Moves the mouse onto the seek bar of the tile filling `area` at
    /// `fraction` of `duration` (after the app connected: Xvfb re-centres
    /// the pointer when its last client leaves) and reads the frame number
    /// in the thumbnail until it is the time's (`seconds` at most).
    func hoverCodedThumbnail(_ fraction: Double, of duration: Double, in area: Rect, dir: URL,
                             seconds: Double = 5) throws -> (asked: Double, shown: Double?) {
        let track = ControlBar(in: area).seekTrack
        let x = track.x + Int(Double(track.width) * fraction), y = track.y + track.height / 2
        let asked = ControlBar.fraction(x: x, along: track) * duration
        try runTool("xdotool", ["mousemove", String(x), String(y - 40), "sleep", "0.1", "mousemove", String(x), String(y)])
        let place = Self.thumbnailFrame(pointerX: x, in: area)
        var shown: Double?
        _ = try eventually(seconds: seconds) {
            let shot = try grab(place.width, place.height, at: (place.x, place.y),
                                to: dir.appendingPathComponent("thumb.ppm").path)
            shown = Double(CodedClip.code(of: shot)) / CodedClip.fps
            return abs((shown ?? 0) - asked) <= 1
        }
        return (asked, shown)
    }

    /// Paused at the start of a clip with keyframes 10 s apart, the mouse at
    /// times along the bar, forward and back: each shows the picture of its
    /// time (within a second). Turned off through the property, the bar
    /// shows only the time.
    @Test func hoveringTheSeekBarShowsThePictureOfThatTime() throws {
        let clip = try CodedClip.file()
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path, stats = dir.appendingPathComponent("stats.json")
        let app = try RunningApp([clip, "--pause", "--geometry", "640x360+0+0", "--no-config", "--no-resume",
                                  "--input-ipc-server", socket, "--stats-json", stats.path])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") == .number(60))
        let area = Rect(x: 0, y: 0, width: 640, height: 360)
        let track = ControlBar(in: area).seekTrack
        let y = track.y + track.height / 2
        for fraction in [0.72, 0.18, 0.55, 0.93, 0.31] {
            let (asked, shown) = try hoverCodedThumbnail(fraction, of: 60, in: area, dir: dir)
            print("thumbnail at \(String(format: "%.2f", asked)) s shows \(shown.map { String(format: "%.2f", $0) } ?? "-") s")
            #expect(shown.map { abs($0 - asked) <= 1 } == true, "hovering \(asked) s shows \(String(describing: shown)) s")
        }

        // Off: no picture over the bar (the paused frame 0, all black, shows there).
        #expect(client.error([.string("set_property"), .string("thumbnails"), .bool(false)]) == "success")
        #expect(client.get("thumbnails") == .bool(false))
        let x = track.x + track.width * 2 / 5
        try runTool("xdotool", ["mousemove", String(x), String(y - 40), "sleep", "0.1", "mousemove", String(x), String(y),
                                "sleep", "1"])
        let place = Self.thumbnailFrame(pointerX: x, in: area)
        let off = try grab(place.width, place.height, at: (place.x, place.y), to: dir.appendingPathComponent("off.ppm").path)
        #expect(off.meanLevel < 20, "a thumbnail shows with thumbnails off (mean level \(off.meanLevel))")

        #expect(client.error([.string("quit")]) == "success")
        _ = eventually { !app.process.isRunning }
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect(report.thumbnailsDecoded >= 3, "\(report.thumbnailsDecoded) thumbnails decoded")
        print("thumbnails: \(report.thumbnailsDecoded) decoded, mean \(report.thumbnailMeanMs ?? -1) ms, "
              + "largest \(report.thumbnailMaxMs ?? -1) ms, \(report.thumbnailsReady) ready at once")
        #expect(!app.errors.contains("error"), "stderr: \(app.errors)")
    }

    /// The same clip as an HLS stream over HTTP (4 s segments, a keyframe
    /// every 2 s), paused at its start: hovering times far past what it
    /// buffered shows each one's picture, and the only segments fetched
    /// beyond the player's own are those that hold the times hovered. A
    /// segment the server answers with 404 shows no picture, is asked for
    /// once, and nothing is said. A click on the first time then plays the
    /// stream from there, its segment taken from the cache.
    @Test func hoveringAnHLSStreamShowsThePictureOfThatTime() throws {
        let stream = try #require(CodedClip.stream, "ffmpeg could not make the HLS stream")
        let missing = "/coded/index9.ts"  // 36 s to 40 s
        let server = try HLSServer(serving: stream, faults: "\(missing)=404")
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try RunningApp([server.url("master.m3u8"), "--pause", "--geometry", "640x360+0+0", "--no-config",
                                  "--no-resume", "--input-ipc-server", socket])
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        let duration = try #require(client.waitFor("duration")?.number, "no duration")
        #expect(abs(duration - 60) < 0.5, "duration \(duration)")
        let segments = { Set(CodedClip.requests(server).map(\.path).filter { $0.hasSuffix(".ts") }) }
        // The paused player buffers what it reads ahead: until it has a
        // segment and then asks for no other for half a second.
        _ = eventually {
            let before = segments()
            Thread.sleep(forTimeInterval: 0.5)  // nothing must happen for 0.5 s: no request, the reading has stopped
            return !before.isEmpty && segments() == before
        }
        let playersOwn = segments()
        let area = Rect(x: 0, y: 0, width: 640, height: 360)
        var hovered: Set<String> = []
        for fraction in [0.72, 0.18, 0.93, 0.47] {
            let (asked, shown) = try hoverCodedThumbnail(fraction, of: duration, in: area, dir: dir)
            print("stream thumbnail at \(String(format: "%.2f", asked)) s shows \(shown.map { String(format: "%.2f", $0) } ?? "-") s")
            #expect(shown.map { abs($0 - asked) <= 1 } == true, "hovering \(asked) s shows \(String(describing: shown)) s")
            hovered.insert(CodedClip.segment(at: asked))
        }
        let fetched = segments().subtracting(playersOwn)
        print("segments: the player's \(playersOwn.sorted()), fetched for thumbnails \(fetched.sorted())")
        #expect(fetched == hovered.subtracting(playersOwn), "fetched \(fetched.sorted()) for \(hovered.sorted())")

        // The missing segment: no picture (the paused first frame, all black, shows there), asked for once.
        let track = ControlBar(in: area).seekTrack
        let x = track.x + Int(Double(track.width) * 0.63)
        #expect(CodedClip.segment(at: ControlBar.fraction(x: x, along: track) * duration) == missing)
        try runTool("xdotool", ["mousemove", String(x), String(track.y - 40), "sleep", "0.1",
                                "mousemove", String(x), String(track.y + track.height / 2), "sleep", "1.5"])
        let place = Self.thumbnailFrame(pointerX: x, in: area)
        let none = try grab(place.width, place.height, at: (place.x, place.y), to: dir.appendingPathComponent("none.ppm").path)
        #expect(none.meanLevel < 20, "a picture shows for a missing segment (mean level \(none.meanLevel))")
        let asked = CodedClip.requests(server).filter { $0.path == missing }.count
        #expect(asked == 1, "the missing segment was asked for \(asked) times")

        // A click where the first thumbnail was: the stream plays on from
        // there, its segment from the cache (not fetched again).
        let first = track.x + Int(Double(track.width) * 0.72)
        let clicked = ControlBar.fraction(x: first, along: track) * duration
        try runTool("xdotool", ["mousemove", String(first), String(track.y + track.height / 2), "click", "1"])
        #expect(client.error([.string("set_property"), .string("pause"), .bool(false)]) == "success")
        #expect(eventually { (client.get("time-pos")?.number ?? 0) > clicked + 1 }, "the stream does not play from \(clicked) s")
        #expect(app.process.isRunning)
        let segment = CodedClip.segment(at: clicked)
        let fetches = CodedClip.requests(server).filter { $0.path == segment }.count
        #expect(fetches == 1, "\(segment), fetched for its thumbnail, was fetched \(fetches) times")
        #expect(app.errors.isEmpty, "stderr: \(app.errors)")
    }

    /// A 540p clip with keyframes 10 s apart plays 10 s twice: once with the
    /// mouse away, once scrubbing over the seek bar all the while, 20 moves
    /// a second to times all over it (so thumbnails are decoded, not only
    /// taken from the cache). The video drops no more frames for it: at
    /// most 3 more than without (the load of the shared machine moves
    /// either run by a frame or two).
    @Test func hoveringCostsThePlayingVideoNoFrame() throws {
        let clip = try VideoMedia.clip("thumbnails-540p.mp4", [
            "-f", "lavfi", "-i", "testsrc2=size=960x540:rate=25:duration=30",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0",
            "-pix_fmt", "yuv420p"])
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let area = Rect(x: 0, y: 0, width: 960, height: 540)
        let track = ControlBar(in: area).seekTrack
        func play(scrubbing: Bool) throws -> StatsReport {
            let stats = dir.appendingPathComponent("stats-\(scrubbing).json")
            let app = try RunningApp([clip, "--geometry", "960x540+0+0", "--no-config", "--no-resume", "--quit-after", "10",
                                      "--stats-json", stats.path])
            defer { app.stop() }
            app.waitForWindow()
            if scrubbing {
                // All over the bar, 20 moves a second, until the app ends: a
                // fixed pseudo-random walk (a linear congruential sequence).
                var moves: [String] = []
                let y = String(track.y + track.height / 2)
                var state: UInt32 = 12345
                for _ in 0..<220 {
                    state = state &* 1_103_515_245 &+ 12345
                    let fraction = Double(state >> 16 & 0x7fff) / 32767
                    moves += ["mousemove", String(track.x + Int(Double(track.width - 1) * fraction)), y, "sleep", "0.05"]
                }
                try runTool("xdotool", moves, timeout: 30)
            } else {
                try runTool("xdotool", ["mousemove", "1919", "1079"])
            }
            _ = eventually(seconds: 20) { !app.process.isRunning }
            return try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        }
        let still = try play(scrubbing: false), scrubbed = try play(scrubbing: true)
        let a = try #require(still.players.first), b = try #require(scrubbed.players.first)
        print("frames dropped: \(a.framesDropped) of \(a.framesPresented + a.framesDropped) without hovering, "
              + "\(b.framesDropped) of \(b.framesPresented + b.framesDropped) scrubbing "
              + "(\(scrubbed.thumbnailsMade) pictures made, \(scrubbed.thumbnailsDecoded) shown when made, mean \(scrubbed.thumbnailMeanMs ?? -1) ms, "
              + "\(scrubbed.thumbnailsReady) ready at once)")
        #expect(scrubbed.thumbnailsMade >= 20, "scrubbing made \(scrubbed.thumbnailsMade) pictures")
        #expect(still.thumbnailsMade == 0, "not hovering made \(still.thumbnailsMade) pictures")
        #expect(b.framesDropped <= a.framesDropped + 3, "scrubbing dropped \(b.framesDropped), still \(a.framesDropped)")
        #expect(b.framesPresented >= 200, "\(b.framesPresented) frames presented in 10 s")
    }
}
