// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Music and video as the world makes them with ffmpeg: tags, a cover in
/// each container's own way, a cover file beside, chapters from an
/// ffmetadata file, and the damaged kinds. Made once per test run.
package struct TaggedMedia: Sendable {
    package let folder: URL
    /// A 64x64 PNG in quadrants: red | lime over blue | yellow.
    package var cover: String { path("quad.png") }
    /// 3 s of sine, each with title/artist/album tags and the quadrant cover.
    package var mp3: String { path("song.mp3") }          // ID3v2.3 APIC
    package var flac: String { path("song.flac") }        // METADATA_BLOCK_PICTURE
    package var m4a: String { path("song.m4a") }          // MP4 covr
    package var opus: String { path("song.opus") }        // Vorbis comment METADATA_BLOCK_PICTURE (built here)
    /// A plain MP3 (title tag only) in a folder with `Cover.JPG` and `folder.png` (a different colour).
    package var beside: String { path("beside/plain.mp3") }
    package var besideCover: String { path("beside/Cover.JPG") }
    /// MP3s whose covers will not decode: an ID3 APIC of garbage that says
    /// it is PNG; a `cover.jpg` beside that is text.
    package var brokenEmbedded: String { path("broken/embedded.mp3") }
    package var brokenBeside: String { path("broken/other/beside.mp3") }
    /// 12 s of 320x180 video and audio, chapters Opening 0, Middle Part 2, Ending 5.
    package var mkv: String { path("chapters.mkv") }
    package var mp4: String { path("chapters.mp4") }
    /// Ogg Opus whose CHAPTERxxx comments start at 0, 6, 3, -3600 and 50 s in an 8 s file.
    package var badChapters: String { path("bad-chapters.opus") }

    package static let chapterTitles = ["Opening", "Middle Part", "Ending"]
    package static let chapterStarts = [0.0, 2.0, 5.0]
    package static let tags = ["title": "Song Title", "artist": "The Artist", "album": "The Album"]

    package func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    package static let shared: TaggedMedia? = try? TaggedMedia(in: Fixtures.temporaryDirectory())

    private init(in folder: URL) throws {
        self.folder = folder
        for sub in ["beside", "broken"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        func ffmpeg(_ arguments: [String]) throws {
            let result = try runTool("ffmpeg", ["-v", "error", "-y"] + arguments, timeout: 120)
            guard result.status == 0 else { throw MediaError("ffmpeg \(arguments.last ?? ""): \(result.stderr)") }
        }
        // Made in RGB throughout: through YUV, red would come out 253.
        try ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=32x32,format=rgb24", "-f", "lavfi", "-i", "color=c=lime:s=32x32,format=rgb24",
                    "-f", "lavfi", "-i", "color=c=blue:s=32x32,format=rgb24", "-f", "lavfi", "-i", "color=c=yellow:s=32x32,format=rgb24",
                    "-filter_complex", "[0][1]hstack[t];[2][3]hstack[b];[t][b]vstack", "-frames:v", "1", path("quad.png")])
        let sine = ["-f", "lavfi", "-i", "sine=frequency=440:duration=3"]
        let tags = TaggedMedia.tags.sorted { $0.key < $1.key }.flatMap { ["-metadata", "\($0.key)=\($0.value)"] }
        let picture = ["-i", path("quad.png"), "-map", "0", "-map", "1", "-c:v", "png", "-disposition:v", "attached_pic"]
        try ffmpeg(sine + picture + ["-c:a", "libmp3lame", "-b:a", "64k", "-id3v2_version", "3"] + tags + [mp3])
        try ffmpeg(sine + picture + ["-c:a", "flac"] + tags + [flac])
        try ffmpeg(sine + picture + ["-c:a", "aac", "-b:a", "64k"] + tags + [m4a])
        // FFmpeg 5.1's Ogg muxer cannot take a picture stream: the comment
        // holds it as FLAC's picture block, base64 (what opustags and
        // Picard write).
        let block = try TaggedMedia.flacPictureBlock(Data(contentsOf: URL(fileURLWithPath: cover)), mime: "image/png",
                                                     width: 64, height: 64)
        try ffmpeg(sine + ["-c:a", "libopus", "-b:a", "48k"] + tags
                   + ["-metadata", "METADATA_BLOCK_PICTURE=\(block.base64EncodedString())", opus])

        try ffmpeg(sine + ["-c:a", "libmp3lame", "-b:a", "64k", "-metadata", "title=Beside Song", beside])
        try ffmpeg(["-i", cover, besideCover])
        try ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=16x16", "-frames:v", "1", path("beside/folder.png")])

        try ffmpeg(sine + ["-c:a", "libmp3lame", "-b:a", "64k", path("broken/plain.mp3")])
        try Data(TaggedMedia.id3WithGarbagePicture() + [UInt8](Data(contentsOf: URL(fileURLWithPath: path("broken/plain.mp3")))))
            .write(to: URL(fileURLWithPath: brokenEmbedded))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("broken/other"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: path("broken/plain.mp3"), toPath: path("broken/other/beside.mp3"))
        try Data("not a picture\n".utf8).write(to: URL(fileURLWithPath: path("broken/other/cover.jpg")))

        let metadata = folder.appendingPathComponent("chapters.txt")
        var text = ";FFMETADATA1\ntitle=Chaptered\n"
        let ends = Array(TaggedMedia.chapterStarts.dropFirst()) + [12.0]
        for (i, title) in TaggedMedia.chapterTitles.enumerated() {
            text += "\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(Int(TaggedMedia.chapterStarts[i] * 1000))\nEND=\(Int(ends[i] * 1000))\ntitle=\(title)\n"
        }
        try text.write(to: metadata, atomically: true, encoding: .utf8)
        for out in [mkv, mp4] {
            try ffmpeg(["-f", "lavfi", "-i", "testsrc=s=320x180:r=25:d=12", "-f", "lavfi", "-i", "sine=duration=12",
                        "-i", metadata.path, "-map", "0", "-map", "1", "-map_metadata", "2", "-map_chapters", "2",
                        "-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac", "-b:a", "64k", out])
        }
        // Ogg's own chapter comments, as podcast tools write them.
        var chapters: [String] = []
        for (i, (time, title)) in [("00:00:00.000", "First"), ("00:00:06.000", "Late"), ("00:00:03.000", "Back"),
                                   ("-1:00:00.000", "Negative"), ("00:00:50.000", "Beyond")].enumerated() {
            chapters += ["-metadata", String(format: "CHAPTER%03d=%@", i, time), "-metadata", String(format: "CHAPTER%03dNAME=%@", i, title)]
        }
        try ffmpeg(["-f", "lavfi", "-i", "sine=duration=8", "-c:a", "libopus", "-b:a", "32k", "-metadata", "title=Podcast"]
                   + chapters + [badChapters])
    }

    /// FLAC's METADATA_BLOCK_PICTURE body: a front cover (type 3).
    package static func flacPictureBlock(_ image: Data, mime: String, width: Int, height: Int) -> Data {
        var block = Data()
        func u32(_ v: Int) { block.append(contentsOf: withUnsafeBytes(of: UInt32(v).bigEndian, Array.init)) }
        u32(3)
        u32(mime.utf8.count)
        block.append(contentsOf: Array(mime.utf8))
        u32(0)  // no description
        u32(width)
        u32(height)
        u32(24)
        u32(0)
        u32(image.count)
        block.append(image)
        return block
    }

    /// An ID3v2.3 tag with one APIC frame that says image/png and holds a
    /// PNG signature followed by garbage.
    package static func id3WithGarbagePicture() -> [UInt8] {
        let garbage = [UInt8](repeating: 0x5A, count: 300)
        let body: [UInt8] = [0] + Array("image/png".utf8) + [0, 3, 0] + [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + garbage
        let frame = Array("APIC".utf8) + withUnsafeBytes(of: UInt32(body.count).bigEndian, Array.init) + [0, 0] + body
        let n = frame.count
        let size: [UInt8] = [UInt8((n >> 21) & 0x7F), UInt8((n >> 14) & 0x7F), UInt8((n >> 7) & 0x7F), UInt8(n & 0x7F)]
        return Array("ID3".utf8) + [3, 0, 0] + size + frame
    }
}
