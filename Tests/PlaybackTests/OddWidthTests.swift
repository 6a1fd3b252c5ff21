// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Testing
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// Video whose width is not a multiple of 8 (854x480 is 16:9 480p, as many
/// encoders make it), shown at its own size: every column of every picture
/// is the frame's, the last ones included. swscale's x86 YUV→RGB converter
/// works 8 pixels at a time and, in a row with no room for a whole last
/// group, left the last width % 8 pixels as the buffer held them: the
/// picture before, or garbage.
@Suite struct OddWidthTests {
    @Test func theLastColumnsOfAnOddWidthPictureAreTheFrames() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("odd.mkv").path
        // A flat grey that brightens every frame: a stale column is a step at the right edge.
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=black:s=854x480:r=25:d=2",
                               "-vf", "geq=lum='N*5':cb=128:cr=128", "-c:v", "ffv1", "-pix_fmt", "yuv420p", path])
        let (item, pipeline) = try openItem(path, size: (854, 480))
        defer { withExtendedLifetime(item) {} }
        var checked = 0
        var stale: [String] = []
        // One maker and one picture for every frame, as a view has: what a
        // frame leaves in the picture must not show in the next.
        let maker = FramePictureMaker(), picture = PictureBuffer(width: 854, height: 480)
        let deadline = Date().addingTimeInterval(20)
        while checked < 50 && Date() < deadline {
            guard let frame = pipeline.frames.pop() else { Thread.sleep(forTimeInterval: 0.002); continue }
            #expect(maker.make(frame, width: 854, height: 480, into: picture))
            #expect(picture.width == 854 && picture.height == 480)
            for y in stride(from: 0, to: picture.height, by: 16) {
                let row = picture.pixels + y * picture.pitch
                for x in 840..<picture.width where (0..<3).contains(where: { abs(Int(row[x * 4 + $0]) - Int(row[$0])) > 2 }) {
                    stale.append("frame \(checked) (\(x), \(y)): \(row[x * 4 + 2]),\(row[x * 4 + 1]),\(row[x * 4]) beside \(row[2]),\(row[1]),\(row[0])")
                }
            }
            checked += 1
        }
        #expect(checked == 50)
        #expect(stale.count == 0, "pixels unlike their row: \(stale.prefix(4))")
    }
}
