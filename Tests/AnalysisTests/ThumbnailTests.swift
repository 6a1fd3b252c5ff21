// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import Analysis
@testable import Playback
import TestSupport

/// The seek bar's thumbnails as their source makes them, from real H.264
/// with keyframes ten seconds apart: the frame number drawn into each
/// picture says which frame it is.
@Suite struct ThumbnailTests {
    /// Asks `source` for `seconds` until its entry is made (10 s at most).
    static func entry(_ source: ThumbnailSource, at seconds: Double) -> ThumbnailCache.Entry? {
        var found: ThumbnailCache.Entry?
        _ = eventually { () -> Bool in
            found = source.entry(at: seconds)
            if found == nil { source.request(seconds) }
            return found != nil
        }
        return found
    }

    /// Times all over the clip, forward, back and across keyframes: each
    /// picture is the frame at that time to within half a second (its
    /// bucket), however far the keyframe before it is.
    @Test func eachTimeShowsItsOwnFrameThoughKeyframesAreTenSecondsApart() throws {
        let madeBefore = ThumbnailSource.picturesMadeInAll
        let source = ThumbnailSource(location: MediaLocation(try CodedClip.file()), settings: VideoFilterSettings())
        var worst = 0.0
        for seconds in [9.7, 3.3, 17.2, 42.6, 55.9, 12.1, 30.0, 0.2, 59.9, 47.4] {
            let entry = try #require(Self.entry(source, at: seconds), "no thumbnail at \(seconds) s")
            let picture = try #require(entry.picture, "no picture at \(seconds) s")
            #expect(picture.width == 192 && picture.height == 108, "\(picture.width)x\(picture.height)")
            let shown = Double(CodedClip.code(of: PPMImage(picture))) / CodedClip.fps
            #expect(abs(shown - seconds) <= ThumbnailCache.bucketSeconds + 0.2, "at \(seconds) s the thumbnail shows \(shown) s")
            #expect(abs(shown - entry.frameSeconds) < 0.02, "the picture is of the frame it says (\(entry.frameSeconds) s)")
            worst = max(worst, abs(shown - seconds))
        }
        print("thumbnails: largest distance from the time asked \(String(format: "%.2f", worst)) s")
        // The count --stats-json reports (every source of the process).
        #expect(ThumbnailSource.picturesMadeInAll - madeBefore >= 10)
    }

    /// A download cut off halfway (the index, at the front, still lists
    /// every frame): past the cut, the last picture there is.
    @Test func aFileCutShortShowsItsLastPicture() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = try Data(contentsOf: URL(fileURLWithPath: try CodedClip.file()))
        let cut = dir.appendingPathComponent("cut.mp4")
        try whole.prefix(whole.count / 2).write(to: cut)
        // The last frame ffmpeg decodes of it.
        let frames = try runTool("ffprobe", ["-v", "quiet", "-select_streams", "v", "-show_entries", "frame=pts_time",
                                             "-of", "csv=p=0", cut.path]).stdout
        let lastFrame = try #require(frames.split(separator: "\n").compactMap { Double($0) }.max())
        #expect(lastFrame < 45, "the cut leaves \(lastFrame) s")
        let source = ThumbnailSource(location: MediaLocation(cut.path), settings: VideoFilterSettings())
        for seconds in [52.0, 58.0] {
            let entry = try #require(Self.entry(source, at: seconds), "no thumbnail at \(seconds) s")
            let picture = try #require(entry.picture, "no picture at \(seconds) s")
            let shown = Double(CodedClip.code(of: PPMImage(picture))) / CodedClip.fps
            // Within a few frames: frames nothing refers to are not decoded.
            #expect(abs(shown - lastFrame) <= 0.2, "at \(seconds) s: \(shown) s, the file's last frame is \(lastFrame) s")
        }
        // Before the cut, the frame at the time.
        let early = try #require(Self.entry(source, at: 12.3)?.picture)
        #expect(abs(Double(CodedClip.code(of: PPMImage(early))) / CodedClip.fps - 12.3) <= 0.7)
    }

    /// Garbage over the frames from 24 s to 28 s (a bad sector, a broken
    /// download), between keyframes at 20 s and 30 s: no picture for times
    /// there, never a broken one; the times around it have theirs.
    @Test func aDamagedRegionGivesNoPicture() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try CodedClip.file()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        // Where the frames at 24 s and 28 s are in the file, as ffprobe reads its index.
        let packets = try runTool("ffprobe", ["-v", "quiet", "-select_streams", "v", "-show_entries", "packet=pts_time,pos",
                                              "-of", "csv=p=0", clip]).stdout
        let positions = packets.split(separator: "\n").compactMap { line -> (Double, Int)? in
            let fields = line.split(separator: ",")
            guard fields.count == 2, let time = Double(fields[0]), let pos = Int(fields[1]) else { return nil }
            return (time, pos)
        }
        let from = try #require(positions.first { $0.0 >= 24 }?.1), to = try #require(positions.first { $0.0 >= 28 }?.1)
        var generator = SystemRandomNumberGenerator()
        for i in from..<to { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        let damaged = dir.appendingPathComponent("damaged.mp4")
        try Data(bytes).write(to: damaged)
        let source = ThumbnailSource(location: MediaLocation(damaged.path), settings: VideoFilterSettings())
        var missing: [Double] = []
        for seconds in stride(from: 20.25, through: 40.0, by: 1.0) {
            let entry = try #require(Self.entry(source, at: seconds), "nothing made for \(seconds) s")
            guard let picture = entry.picture else {
                missing.append(seconds)
                continue
            }
            let shown = Double(CodedClip.code(of: PPMImage(picture))) / CodedClip.fps
            #expect(abs(shown - seconds) <= 0.7, "at \(seconds) s a picture of \(shown) s (a damaged frame?)")
        }
        print("thumbnails: no picture at \(missing) s (damage from 24 s to 28 s)")
        #expect(!missing.isEmpty, "the damaged stretch gave pictures")
        #expect(missing.allSatisfy { $0 > 23.5 && $0 < 30 }, "pictures missing outside the damage: \(missing)")
    }
}
