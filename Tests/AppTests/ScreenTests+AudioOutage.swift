// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport
@testable import Media
@testable import Output
@testable import UI

/// What a person sees while the audio server is gone: the window says so in
/// one line, and says when the sound is back.
extension ScreenTests {
    /// Seconds on CLOCK_MONOTONIC, as audio_outage.py's time.monotonic() reads it.
    static func monotonicSeconds() -> Double { Double(HostTime.now()) / 1e9 }

    /// The real PulseAudio is killed 4 s into the sound and back 2 s later
    /// while DeskPlayer plays a dark video in a 640x360 window. Screenshots
    /// are grabbed all along: the OSD line at the bottom reads "Audio device
    /// lost — retrying" while the server is gone, "Audio device back" once
    /// the sound is, and nothing before the kill.
    @Test func theWindowSaysTheAudioDeviceIsLostWhileTheServerIsGone() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A dark picture: nothing in it has the OSD's colour.
        let clip = try AudioOutageTests.makeClip(in: dir, seconds: 12, video: "color=c=0x202020:size=320x240:rate=25")
        let font = TextRenderer()
        let row = 360 - 24  // the OSD's bottom line, with no control bar (the pointer is away)
        func osdWidth(_ shot: PPMImage) -> Int {
            let ink = Self.inkExtent(shot, rows: (row - font.lineHeight / 2)..<(row + font.lineHeight / 2)) {
                $0.0 > 225 && (195...245).contains($0.1) && (90...150).contains($0.2)
            }
            return ink.map { $0.1 - $0.0 + 1 } ?? 0
        }
        // (the grab's start and end on CLOCK_MONOTONIC, the line's width)
        var shots: [(from: Double, to: Double, width: Int)] = []
        let path = dir.appendingPathComponent("shot.ppm").path
        let o = try AudioOutageTests.outage(["--kill-after-sound", "4", "--down-for", "2"],
                                            player: ["--geometry", "640x360+0+0", "--quit-after", "10", clip],
                                            onScreen: true) { running in
            while running() {
                try runTool("xdotool", ["mousemove", "1919", "1079"])
                let from = Self.monotonicSeconds()
                guard let shot = try? grab(640, 360, to: path) else { continue }
                shots.append((from, Self.monotonicSeconds(), osdWidth(shot)))
            }
        }
        #expect(o.rc == 0, "\(o.stderr)")
        let killed = o.t0_monotonic + o.killed_s, back = o.t0_monotonic + o.server_back_s
        // The app says the loss on stderr in the turn that puts it on the OSD: its
        // watchdog sees it 0.3 s or more after the last callback, later under load.
        let lostSaid = try #require(o.device_lost_s, "the loss was never said: \(o.stderr)") + killed
        #expect(lostSaid < back, "the loss was said only \(lostSaid - killed) s after the kill, the server back already")
        let soundBack = try #require(o.device_back_s, "the sound did not come back: \(o.stderr)") + back
        let lost = font.width(of: "Audio device lost — retrying"), found = font.width(of: "Audio device back")
        func widths(_ from: Double, _ to: Double) -> [Int] { shots.filter { $0.from >= from && $0.to <= to }.map(\.width) }

        print("audio outage on screen: OSD line \(widths(lostSaid + 0.25, back)) px while the server was gone "
              + "('Audio device lost — retrying' is \(lost) px), \(widths(soundBack + 0.3, soundBack + 2.5)) px after "
              + "('Audio device back' is \(found) px), \(widths(o.t0_monotonic + o.first_sound_s + 0.3, killed - 0.1)) px before")
        // Before the kill (the window up and playing; it takes a second or
        // two to open under a loaded X server, the sound starts sooner): no line.
        let before = widths(o.t0_monotonic + o.first_sound_s + 0.3, killed - 0.1)
        #expect(!before.isEmpty && before.allSatisfy { $0 == 0 }, "OSD ink before the kill: \(before) px")
        // While the server is gone, in every grab begun once the loss was said
        // (0.25 s for that turn's present to reach the X server): the one line.
        let gone = widths(lostSaid + 0.25, back)
        #expect(!gone.isEmpty, "no screenshot while the server was gone: \(shots.map { ($0.from - killed, $0.width) })")
        #expect(gone.allSatisfy { $0 > lost - 10 && $0 <= lost + 1 },
                "OSD ink \(gone) px while the server is gone; 'Audio device lost — retrying' is \(lost) px")
        // The sound back: the newest line (at the bottom) says so.
        let again = widths(soundBack + 0.3, soundBack + 2.5)
        #expect(!again.isEmpty && again.allSatisfy { $0 > found - 10 && $0 <= found + 1 },
                "OSD ink \(again) px after the sound came back; 'Audio device back' is \(found) px")
    }
}
