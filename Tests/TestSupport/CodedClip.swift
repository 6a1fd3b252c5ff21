// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// A clip whose every frame shows its own number, for the seek bar's
/// thumbnail tests (ThumbnailTests, StreamThumbnailTests, the screen's
/// hover test): the file, how to read a picture's number back, and the
/// same clip as an HLS stream with the segment each time falls in.
package enum CodedClip {
    package static let fps = 25.0

    /// 60 s of 320x180 at 25 fps whose frame N shows N in binary: 11
    /// vertical stripes, white for a 1 bit (the least significant on the
    /// left); a keyframe every 10 s only, B-frames, as a screen recorder or
    /// a streaming encoder makes long-GOP video.
    package static func file() throws -> String {
        try VideoMedia.clip("thumbnails-coded.mp4", [
            "-f", "lavfi", "-i", "color=black:size=320x180:rate=25:duration=60",
            "-vf", "geq=lum='if(gt(bitand(N\\,pow(2\\,floor(X*11/W)))\\,0)\\,235\\,16)':cb=128:cr=128",
            "-c:v", "libx264", "-preset", "veryfast", "-g", "250", "-keyint_min", "250", "-sc_threshold", "0",
            "-bf", "3", "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
    }

    /// The frame number a picture of the coded clip shows (read at each stripe's middle).
    package static func code(of picture: PPMImage) -> Int {
        var n = 0
        for bit in 0..<11 where picture.pixel((2 * bit + 1) * picture.width / 22, picture.height / 2).g > 128 {
            n |= 1 << bit
        }
        return n
    }

    /// Segments of the stream below, as the ffmpeg CLI cuts them.
    package static let segmentSeconds = 4.0

    /// The frame-coded clip above (60 s, 25 fps, frame N shows
    /// N) as a VOD stream the way a packager makes one: a keyframe every 2 s,
    /// B-frames, AAC audio, 4 s segments: MPEG-TS in `coded/` under a master
    /// playlist of one variant (`master.m3u8`), and fragmented MP4 (an
    /// initialisation section and `.m4s` segments) in `fmp4/`.
    package static let stream: URL? = {
        guard let clip = try? file() else { return nil }
        let dir = Fixtures.temporaryDirectory().appendingPathComponent("hls-thumbnails")
        for (name, type) in [("coded", "mpegts"), ("fmp4", "fmp4")] {
            let folder = dir.appendingPathComponent(name)
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard let r = try? runTool("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", clip,
                                                  "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000:duration=60",
                                                  "-map", "0:v", "-map", "1:a", "-c:v", "libx264", "-preset", "veryfast",
                                                  "-g", "50", "-keyint_min", "50", "-sc_threshold", "0", "-bf", "3",
                                                  "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k",
                                                  "-f", "hls", "-hls_time", String(Int(segmentSeconds)),
                                                  "-hls_playlist_type", "vod", "-hls_segment_type", type,
                                                  folder.appendingPathComponent("index.m3u8").path]), r.status == 0
            else { return nil }
        }
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180,CODECS=\"avc1.64000d,mp4a.40.2\"\n"
            + "coded/index.m3u8\n"
        try? master.write(to: dir.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        return dir
    }()

    /// The segment file holding `seconds` (the ffmpeg CLI names them index0.ts, index1.ts…).
    package static func segment(at seconds: Double, in folder: String = "coded", type: String = "ts") -> String {
        "/\(folder)/index\(Int(seconds / segmentSeconds)).\(type)"
    }

    /// Every request the server answered so far: path and bytes sent (0 for a fault or a missing file).
    package static func requests(_ server: HLSServer) -> [(path: String, bytes: Int)] {
        ((try? String(contentsOf: server.log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard let path = fields.first else { return nil }
            return (String(path), fields.count > 1 ? Int(fields[1]) ?? 0 : 0)
        }
    }
}
