// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Small clips made with the ffmpeg command line the way phones, cameras and
/// TV recorders make them (320x180, 1–4 s), for the video tests. Each is
/// made once per test process, in one scratch folder removed at exit.
package enum VideoMedia {
    private static let folder: URL = {
        let url = Fixtures.temporaryDirectory()
        atexit { try? FileManager.default.removeItem(atPath: VideoMedia.folderPath) }
        return url
    }()
    private static let folderPath = folder.path
    private static let made = NSLock()

    /// The clip `name`, made by `ffmpeg` with `arguments` (the output path last) if it is not there yet.
    package static func clip(_ name: String, _ arguments: [String]) throws -> String {
        made.lock()
        defer { made.unlock() }
        let path = folder.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        let r = try runTool("ffmpeg", ["-nostdin", "-v", "error", "-y"] + arguments + [path + ".part." + (name as NSString).pathExtension])
        guard r.status == 0 else { throw MediaError("ffmpeg could not make \(name): \(r.stderr)") }
        try FileManager.default.moveItem(atPath: path + ".part." + (name as NSString).pathExtension, toPath: path)
        return path
    }

    /// A dark grey picture with a red box in its top-left corner and a
    /// green one at the middle of its top edge: where they land tells the
    /// turn and the flip apart.
    package static let markedPicture = "color=c=0x404040:size=320x180:rate=25:duration=2,"
        + "drawbox=x=0:y=0:w=64:h=48:color=red:t=fill,drawbox=x=136:y=0:w=48:h=32:color=lime:t=fill"

    /// As a phone records it: landscape pixels and a display matrix, written
    /// by FFmpeg 5.1's `rotate` tag on a stream copy (its 270 is a phone
    /// held upright: turned 90° clockwise for display).
    package static func rotated(_ degrees: Int) throws -> String {
        let plain = try clip("marked.mp4", ["-f", "lavfi", "-i", markedPicture, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25"])
        if degrees == 0 { return plain }
        return try clip("rotate\(degrees).mp4", ["-i", plain, "-c", "copy", "-metadata:s:v", "rotate=\(degrees)"])
    }

    /// A phone clip as some phones write it (issue 50): 29.97 fps in a
    /// 30000090 Hz track time base, so its frame rate reads 30000090/1001003,
    /// held upright (its display matrix turns it 90°): the rate times
    /// itself overflows `Int32`.
    package static func phoneOddTimescale() throws -> String {
        let plain = try clip("marked-odd-timescale.mp4", [
            "-f", "lavfi", "-i", markedPicture.replacingOccurrences(of: "rate=25", with: "rate=30000/1001"),
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-video_track_timescale", "30000090"])
        return try clip("phone-odd-timescale.mp4", ["-i", plain, "-c", "copy", "-metadata:s:v", "rotate=90"])
    }

    /// 4 s at 25 fps of a numbered test pattern with a tone.
    private static let pattern = ["-f", "lavfi", "-i", "testsrc=size=320x180:rate=25:duration=4"]
    private static let tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=4"]

    package static func theora() throws -> String { try clip("theora.ogv", pattern + tone + ["-c:v", "libtheora", "-q:v", "6", "-c:a", "libvorbis"]) }
    package static func rawH264() throws -> String { try clip("raw.h264", pattern + ["-c:v", "libx264", "-pix_fmt", "yuv420p"]) }
    package static func rawHEVC() throws -> String {
        try clip("raw.hevc", pattern + ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-x265-params", "log-level=error"])
    }
    package static func rawMPEG2() throws -> String { try clip("raw.m2v", pattern + ["-c:v", "mpeg2video"]) }
    /// AVI stores decode times only; MPEG-4 part 2 with B-frames reorders.
    package static func avi() throws -> String { try clip("bframes.avi", pattern + tone + ["-c:v", "mpeg4", "-bf", "2", "-c:a", "mp3"]) }
    /// Two audio tracks, as a film with a dub has them: English at 440 Hz
    /// (the default) and French at 1000 Hz, 10 s so a test has time to act.
    package static func twoAudioTracks() throws -> String {
        try clip("two-audio.mkv", ["-f", "lavfi", "-i", "testsrc=size=320x180:rate=25:duration=10",
                                   "-f", "lavfi", "-i", "sine=frequency=440:duration=10",
                                   "-f", "lavfi", "-i", "sine=frequency=1000:duration=10",
                                   "-map", "0", "-map", "1", "-map", "2", "-c:v", "libx264", "-preset", "ultrafast",
                                   "-pix_fmt", "yuv420p", "-c:a", "aac",
                                   "-metadata:s:a:0", "language=eng", "-metadata:s:a:0", "title=English",
                                   "-metadata:s:a:1", "language=fre", "-metadata:s:a:1", "title=Français",
                                   "-disposition:a:0", "default", "-disposition:a:1", "0"])
    }
    /// A DVD-style MPEG program stream with B-frames.
    package static func programStream() throws -> String {
        try clip("program.mpg", pattern + tone + ["-c:v", "mpeg2video", "-bf", "2", "-c:a", "mp2", "-f", "vob"])
    }

    /// A test pattern scrolling sideways at 50 progressive frames a second.
    package static let movingSource = "testsrc=size=320x180:rate=50:duration=2,scroll=h=0.01"

    /// Interlaced MPEG-2 as a TV recorder writes it: the moving pattern
    /// woven into 25 top-field-first frames, coded as interlaced.
    package static func interlaced() throws -> String {
        try clip("interlaced.mpg", ["-f", "lavfi", "-i", movingSource, "-vf", "interlace=scan=tff:lowpass=0",
                                    "-c:v", "mpeg2video", "-q:v", "2", "-flags", "+ilme+ildct", "-top", "1", "-an"])
    }

    /// HDR10 as cameras and streaming masters carry it: HEVC Main10, BT.2020,
    /// PQ. The pattern is converted to PQ (100 nits white) so mapping it
    /// back is meaningful.
    package static func hdr10() throws -> String {
        try clip("hdr10.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2",
                               "-vf", "zscale=tin=bt709:min=bt709:pin=bt709:rin=tv:t=smpte2084:m=bt2020nc:p=bt2020:r=tv:npl=100,format=yuv420p10le",
                               "-c:v", "libx265", "-pix_fmt", "yuv420p10le",
                               "-x265-params", "colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:log-level=error",
                               "-tag:v", "hvc1"])
    }
}

/// A BGRA picture as RGB, for comparisons.
extension PPMImage {
    package init(_ picture: PictureBuffer) {
        var rgb = [UInt8](repeating: 0, count: picture.width * picture.height * 3)
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let p = picture.pixels + y * picture.pitch + x * 4
                let o = (y * picture.width + x) * 3
                rgb[o] = p[2]; rgb[o + 1] = p[1]; rgb[o + 2] = p[0]
            }
        }
        self.init(width: picture.width, height: picture.height, pixels: rgb)
    }

    package func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
        let o = (y * width + x) * 3
        return (Int(pixels[o]), Int(pixels[o + 1]), Int(pixels[o + 2]))
    }

    /// Where the marker colours are: the mean position of the pixels that
    /// are clearly red / clearly green, as fractions of the size (nil when none).
    package func centre(ofRed red: Bool) -> (x: Double, y: Double)? {
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y)
                let hit = red ? p.r > 180 && p.g < 80 && p.b < 80 : p.g > 180 && p.r < 80 && p.b < 80
                if hit { sx += Double(x); sy += Double(y); n += 1 }
            }
        }
        return n > 20 ? (sx / n / Double(width), sy / n / Double(height)) : nil
    }

    /// Line-to-line difference energy: the mean squared difference between
    /// each row and the next, over all channels. Combing (two moments woven
    /// into one picture) makes neighbouring rows disagree.
    package var combEnergy: Double {
        var sum = 0.0
        for y in 0..<(height - 1) {
            for i in 0..<(width * 3) {
                let d = Double(pixels[y * width * 3 + i]) - Double(pixels[(y + 1) * width * 3 + i])
                sum += d * d
            }
        }
        return sum / Double((height - 1) * width * 3)
    }
}
