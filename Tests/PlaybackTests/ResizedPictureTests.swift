// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Testing
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// Playing backward, the prefetch thread keeps each frame resized to the
/// size shown as zimg gives it (planar RGB, `PlanarRGBResizer.resize`),
/// and the thread that draws only packs it into BGRA (swscale at the same
/// size). The picture on screen must be the one the drawing thread makes
/// from the decoded frame, to the byte: 8-bit and 10-bit video, shown
/// smaller than decoded.
@Suite struct ResizedPictureTests {
    @Test(arguments: ["yuv420p", "yuv420p10le"])
    func aPictureResizedAheadIsThePictureDrawn(pixelFormat: String) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("detail.mkv").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=1",
                               "-c:v", "ffv1", "-pix_fmt", pixelFormat, path])
        let (item, pipeline) = try openItem(path, size: (640, 360))
        defer { withExtendedLifetime(item) {} }
        let deadline = Date().addingTimeInterval(20)
        var compared = 0
        while compared < 3 && Date() < deadline {
            guard let frame = pipeline.frames.pop() else { pipeline.frames.waitForFrame(timeout: 0.5); continue }
            for (w, h) in [(426, 240), (320, 180)] {
                let drawn = try #require(frame.madePicture(width: w, height: h))
                let resized = try Frame()
                try PlanarRGBResizer().resize(frame.source.pointer, width: w, height: h, into: resized)
                let packed = PictureBuffer(width: w, height: h)
                try Scaler(display: true).scale(resized.pointer, into: packed)
                var differing = 0
                for y in 0..<h {
                    let a = drawn.pixels + y * drawn.pitch, b = packed.pixels + y * packed.pitch
                    for x in 0..<(w * 4) where a[x] != b[x] { differing += 1 }
                }
                #expect(differing == 0, "\(pixelFormat) at \(w)x\(h): \(differing) bytes differ")
            }
            compared += 1
        }
        #expect(compared == 3)
    }
}
