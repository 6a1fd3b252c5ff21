// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Analysis
@testable import Playback
import TestSupport

/// `deskplayer-thumbnailer -s SIZE INPUT OUTPUT`, run as the desktop runs
/// it (the binary by that name, a file URI for %u): its PNG read by the
/// standard's readers (`ThumbnailReader`), upright for a phone's clip,
/// tone mapped for HDR, the cover for music (issue 53).
@Suite(.serialized) struct ThumbnailerTests {
    /// Runs the binary by the thumbnailer's name (a link to it in `folder`).
    func thumbnailer(_ arguments: [String], in folder: URL) throws -> ProcessResult {
        let link = folder.appendingPathComponent("deskplayer-thumbnailer").path
        if !FileManager.default.fileExists(atPath: link) {
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Fixtures.binary)
        }
        return try runProcess(link, arguments, timeout: 60)
    }

    /// The PNG at `png` as RGB (through ffmpeg's PNG decoder).
    func image(_ png: URL) throws -> PPMImage {
        let ppm = png.deletingPathExtension().appendingPathExtension("ppm").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-i", png.path, ppm])
        return try PPMImage(path: ppm)
    }

    /// A phone's upright clip (rotate=270, stored landscape), named with a
    /// space so the URI is escaped: a portrait PNG with the markers where
    /// the upright picture has them, and the standard's chunks.
    @Test func aPhoneClipIsUprightAndItsChunksAreTheStandards() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = folder.appendingPathComponent("phone clip.mp4").path
        try FileManager.default.copyItem(atPath: try VideoMedia.rotated(270), toPath: media)
        let uri = ThumbnailStore.uri(ofPath: media)
        #expect(uri.hasSuffix("/phone%20clip.mp4"))
        let output = folder.appendingPathComponent("out.png")
        let run = try thumbnailer(["-s", "320", uri, output.path], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let entry = try ThumbnailReader.read(media: media, entry: output.path)
        #expect(entry.size == [180, 320], "portrait: \(entry.size ?? [])")
        #expect(entry.text?["Thumb::URI"] == entry.uri, "GLib's URI \(entry.uri)")
        #expect(entry.text?["Thumb::MTime"] == String(entry.mtime))
        #expect(entry.text?["Thumb::Size"] == String(entry.bytes))
        #expect(entry.text?["Thumb::Movie::Length"] == "2")
        try VideoFilterTests().expectMarkers(try image(output), VideoFilterTests.turns[3], "thumbnailer, rotate=270")

        // A file manager's normal size: 128 on the long side, still portrait.
        let small = folder.appendingPathComponent("small.png")
        #expect(try thumbnailer(["-s", "128", media, small.path], in: folder).status == 0)
        let picture = try image(small)
        #expect(picture.width == 72 && picture.height == 128, "\(picture.width)x\(picture.height)")
        let red = try #require(picture.centre(ofRed: true))
        #expect(red.x > 0.75 && red.y < 0.2, "red marker at \(red): top right when upright")
    }

    /// HDR10 comes out as FFmpeg's own tone mapping chain maps the frame a
    /// tenth in (0.2 s of 2 s); unmapped it is far from that.
    @Test func hdrIsToneMapped() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = try VideoMedia.hdr10()
        let output = folder.appendingPathComponent("hdr.png")
        let run = try thumbnailer(["-s", "320", media, output.path], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let made = try image(output)
        let mapped = folder.appendingPathComponent("mapped.ppm").path, plain = folder.appendingPathComponent("plain.ppm").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-ss", "0.2", "-i", media, "-vf", VideoFilters.toneMapChain(.hable),
                               "-frames:v", "1", mapped])
        try runTool("ffmpeg", ["-v", "error", "-y", "-ss", "0.2", "-i", media, "-frames:v", "1", plain])
        let psnr = try PPMImage(path: mapped).psnr(made), unmapped = try PPMImage(path: plain).psnr(made)
        print("thumbnailer HDR: PSNR \(psnr) dB against FFmpeg's tone mapping, \(unmapped) dB against the unmapped frame")
        #expect(psnr > 30, "PSNR \(psnr) dB")
        #expect(unmapped < psnr - 5, "unmapped \(unmapped) dB")
    }

    /// Music: its cover (a 64x64 picture in quadrants), never scaled up.
    @Test func musicShowsItsCover() throws {
        let media = try #require(TaggedMedia.shared)
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("cover.png")
        let run = try thumbnailer(["-s", "256", media.mp3, output.path], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let picture = try image(output)
        #expect(picture.width == 64 && picture.height == 64)
        let topLeft = picture.pixel(8, 8), bottomRight = picture.pixel(56, 56)
        #expect(topLeft.r > 240 && topLeft.g < 16 && topLeft.b < 16, "red quadrant: \(topLeft)")
        #expect(bottomRight.r > 240 && bottomRight.g > 240 && bottomRight.b < 16, "yellow quadrant: \(bottomRight)")
    }

    /// A bad command line exits 2; a file with nothing to show, or a
    /// remote URI, exits 1 and writes nothing.
    @Test func failuresSayWhatAndWriteNothing() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.png").path
        let text = folder.appendingPathComponent("notes.mp4").path
        try Data("not a video\n".utf8).write(to: URL(fileURLWithPath: text))
        #expect(try thumbnailer([text, output], in: folder).status == 2)
        #expect(try thumbnailer(["-s", "0", text, output], in: folder).status == 2)
        #expect(try thumbnailer(["-s", "99999", text, output], in: folder).status == 2)
        let broken = try thumbnailer(["-s", "128", text, output], in: folder)
        #expect(broken.status == 1 && broken.stderr.contains("notes.mp4"), "\(broken.stderr)")
        #expect(try thumbnailer(["-s", "128", "https://example.invalid/a.mp4", output], in: folder).status == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["deskplayer-thumbnailer", "notes.mp4"])
    }

    /// The thumbnailer entry the package installs asks for what the
    /// desktop entry opens, and runs the thumbnailer as the spec says.
    @Test func theThumbnailerEntryMatchesTheDesktopEntry() throws {
        let entry = try String(contentsOfFile: Fixtures.asset("deskplayer.thumbnailer"), encoding: .utf8)
        let desktop = try String(contentsOfFile: Fixtures.asset("deskplayer.desktop"), encoding: .utf8)
        func line(_ key: String, _ text: String) -> String? {
            text.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        #expect(entry.hasPrefix("[Thumbnailer Entry]\n"))
        #expect(line("TryExec", entry) == "deskplayer-thumbnailer")
        #expect(line("Exec", entry) == "deskplayer-thumbnailer -s %s %u %o")
        let types = try #require(line("MimeType", entry))
        #expect(types == line("MimeType", desktop))
        // Every type DeskPlayer names in Thumb::Mimetype is one it offers to picture.
        for mime in Set(MediaMimeType.byExtension.values) {
            #expect(types.split(separator: ";").contains(Substring(mime)), "\(mime)")
        }
    }
}
