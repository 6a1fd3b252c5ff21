// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// Video shown at half its size or less (a small tile) decodes without the
/// H.264 loop filter: after scaling, the picture stays within 35 dB of a
/// full decode scaled the same way; at full size nothing changes; and
/// `--small-video-decode full` turns it off.
@Suite(.serialized) struct SmallVideoDecodeTests {
    /// 1280x720 H.264 with fine moving detail and grain, as a camera makes
    /// it (the loop filter has most to smooth there), half a second at 30 fps.
    static func detailedClip() throws -> String {
        try VideoMedia.clip("detail720.mp4", ["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30:duration=0.5",
                                              "-vf", "noise=alls=8:allf=t", "-c:v", "libx264", "-preset", "veryfast",
                                              "-pix_fmt", "yuv420p"])
    }

    /// Every picture the engine makes of `path` shown at `size`, by time.
    func pictures(_ path: String, fast: Bool, size: (Int, Int)) throws -> [Double: PPMImage] {
        var preferences = ItemPreferences()
        preferences.decodesSmallVideoFast = fast
        let item = PlayerItem(path, preferences: preferences)
        defer { withExtendedLifetime(item) {} }
        item.load()
        guard item.waitUntilLoaded() == .readyToPlay, let pipeline = item.pipeline as? ItemPipeline else {
            throw MediaError("\(path) did not open")
        }
        pipeline.setDisplaySize(width: size.0, height: size.1)
        let serial = pipeline.seek(to: .zero, pass: 0)  // every frame from here on at this size
        var result: [Double: PPMImage] = [:]
        let deadline = Date().addingTimeInterval(20)
        while result.count < 15 && Date() < deadline {
            guard let f = pipeline.frames.pop() else {
                if pipeline.frames.isDrained { break }
                Thread.sleep(forTimeInterval: 0.002)
                continue
            }
            if f.serial == serial, let picture = pipeline.picture(of: f, width: size.0, height: size.1) {
                result[f.pts.seconds] = PPMImage(picture)
            }
        }
        return result
    }

    @Test func aSmallPictureLosesLittleAndAFullSizeOneNothing() throws {
        let path = try Self.detailedClip()
        let full = try pictures(path, fast: false, size: (480, 270))
        let fast = try pictures(path, fast: true, size: (480, 270))
        #expect(full.count == 15 && fast.count == 15, "frames: \(full.count) full, \(fast.count) fast")
        let psnrs = full.sorted { $0.key < $1.key }.compactMap { t, picture in fast[t].map { picture.psnr($0) } }
        #expect(psnrs.count == 15)
        print("small video decode at 480x270: PSNR \(String(format: "%.1f", psnrs.min() ?? 0))–\(String(format: "%.1f", psnrs.max() ?? 0)) dB")
        #expect(psnrs.allSatisfy { $0 > 35 }, "PSNR against a full decode scaled the same way: \(psnrs)")
        // The filter was skipped: later frames differ (a full decode is bit-exact, 99 here).
        #expect(psnrs.contains { $0 < 99 }, "no frame differs: the loop filter was not skipped")

        // At full size (and at more than half) every frame is the full decode's.
        for size in [(1280, 720), (700, 394)] {
            let reference = try pictures(path, fast: false, size: size)
            let same = try pictures(path, fast: true, size: size)
            #expect(reference.count == 15 && same.count == 15)
            let differing = reference.filter { t, picture in same[t].map { picture.psnr($0) < 99 } ?? true }.keys
            #expect(differing.isEmpty, "\(size): frames decoded differently at \(differing.sorted())")
        }
    }

    @Test func theOptionTurnsItOff() throws {
        let options = try DeskPlayerCommand.parse(["a.mp4", "--small-video-decode", "full"])
        #expect(options.smallVideoDecode == .full)
        #expect(TileFactory(options: options).preferences.decodesSmallVideoFast == false)
        #expect(TileFactory(options: try DeskPlayerCommand.parse(["a.mp4"])).preferences.decodesSmallVideoFast)
        #expect(throws: (any Error).self) { try DeskPlayerCommand.parse(["a.mp4", "--small-video-decode", "half"]) }
    }
}
