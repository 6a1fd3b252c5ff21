// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Media
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// Audio with a face: each container's own cover (ID3 APIC, FLAC's picture
/// block, MP4's covr, a Vorbis comment's METADATA_BLOCK_PICTURE in Opus)
/// and a cover file beside, decoded by FFmpeg from files ffmpeg made; the
/// tags with it; what the socket and --stats-json say; and covers that do
/// not decode.
@Suite struct CoverArtTests {
    func media() throws -> TaggedMedia { try #require(TaggedMedia.shared, "could not make the test media with ffmpeg") }

    /// Opens `path` as a tile would and waits (up to 10 s) for its cover to decode.
    func openWithCover(_ path: String) throws -> (PlayerItem, CoverPicture?) {
        let item = try openItem(path, size: nil).0
        let deadline = Date().addingTimeInterval(10)
        while item.cover == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return (item, item.cover)
    }

    /// The BGRA pixel at (x, y) as (r, g, b).
    static func rgb(_ picture: PictureBuffer, _ x: Int, _ y: Int) -> (Int, Int, Int) {
        let p = picture.pixels + y * picture.pitch + x * 4
        return (Int(p[2]), Int(p[1]), Int(p[0]))
    }

    /// Each quadrant's middle is its colour (within `tolerance`: JPEG moves them a little).
    static func expectQuadrants(_ picture: PictureBuffer, tolerance: Int, _ comment: String) {
        let w = picture.width, h = picture.height
        let expected = [((w / 4, h / 4), (255, 0, 0)), ((3 * w / 4, h / 4), (0, 255, 0)),
                        ((w / 4, 3 * h / 4), (0, 0, 255)), ((3 * w / 4, 3 * h / 4), (255, 255, 0))]
        for ((x, y), colour) in expected {
            let got = rgb(picture, x, y)
            #expect(abs(got.0 - colour.0) <= tolerance && abs(got.1 - colour.1) <= tolerance && abs(got.2 - colour.2) <= tolerance,
                    "\(comment): at (\(x), \(y)) \(got), expected \(colour)")
        }
    }

    @Test(arguments: ["mp3", "flac", "m4a", "opus"])
    func eachContainersOwnCoverDecodesWithItsTags(_ kind: String) throws {
        let m = try media()
        let path = ["mp3": m.mp3, "flac": m.flac, "m4a": m.m4a, "opus": m.opus][kind] ?? ""
        let (item, cover) = try openWithCover(path)
        defer { item.cancel() }
        let info = try #require(item.info)
        #expect(!info.hasVideo, "a cover is not a video stream")
        #expect(info.coverArt?.format == .png && info.coverArt?.path == nil, "\(kind): the file's own PNG")
        for (key, value) in TaggedMedia.tags { #expect(info.tags[key] == value, "\(kind): \(key) is \(info.tags[key] ?? "missing")") }
        // The picture block is the cover, not a tag (a base64 blob in `metadata` would help no one).
        #expect(info.tags["metadata_block_picture"] == nil)
        let picture = try #require(cover, "\(kind): no cover decoded").decoded
        #expect(picture.width == 64 && picture.height == 64)
        CoverArtTests.expectQuadrants(picture, tolerance: 0, kind)
    }

    @Test func aCoverFileBesideIsFoundInAnyCaseAndCoverComesFirst() throws {
        let m = try media()
        // Cover.JPG and folder.png lie beside plain.mp3: cover wins over folder, whatever its case.
        let found = try #require(CoverArt.beside(m.beside))
        #expect(found.path == m.besideCover && found.format == .jpeg)
        let (item, cover) = try openWithCover(m.beside)
        defer { item.cancel() }
        #expect(item.info?.coverArt?.path == m.besideCover)
        CoverArtTests.expectQuadrants(try #require(cover).decoded, tolerance: 12, "Cover.JPG")
        // None beside a file elsewhere; a text file called cover.jpg is no cover.
        #expect(CoverArt.beside(Fixtures.asset("tone.mp3")) == nil)
        var problems: [String] = []
        #expect(CoverArt.beside(m.brokenBeside) { problems.append($0) } == nil)
        #expect(problems == ["cover cover.jpg: not a JPEG or PNG picture"])
    }

    @Test func coversAreScaledToTheSizeShownOffTheMainThread() throws {
        let (item, cover) = try openWithCover(try media().mp3)
        defer { item.cancel() }
        let picture = try #require(cover)
        // The first answer is the decoded picture, shown scaled meanwhile; the size asked for comes.
        #expect(picture.picture(width: 200, height: 200) === picture.decoded)
        var scaled = picture.picture(width: 200, height: 200)
        let deadline = Date().addingTimeInterval(5)
        while scaled.width != 200 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            scaled = picture.picture(width: 200, height: 200)
        }
        #expect(scaled.width == 200 && scaled.height == 200)
        CoverArtTests.expectQuadrants(scaled, tolerance: 2, "scaled to 200")
        // Large covers are kept at most 2048 px a side.
        #expect(StillImage.fitted(width: 3000, height: 1500, maxSide: 2048) == (2048, 1024))
        #expect(StillImage.fitted(width: 600, height: 600, maxSide: 2048) == (600, 600))
    }

    /// A cover that does not decode: the placeholder (no cover), playback
    /// goes on to the end, one line under -v and none without it.
    @Test(arguments: [true, false])
    func aCoverThatDoesNotDecodeLeavesThePlaceholder(_ embedded: Bool) throws {
        let m = try media()
        let path = embedded ? m.brokenEmbedded : m.brokenBeside
        let (item, cover) = try openWithCover(path)
        item.cancel()
        #expect(cover == nil && item.status == .readyToPlay)
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for verbose in [true, false] {
            let stats = dir.appendingPathComponent("stats.json")
            let result = try runProcess(Fixtures.binary, [path, "--no-config", "--no-resume", "--stats-json", stats.path]
                                        + (verbose ? ["-v"] : []), environment: ControlSocketTests.headless, timeout: 30)
            #expect(result.status == 0, "\(result.stderr)")
            let coverLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("deskplayer:") && $0.contains("cover") }
            #expect(coverLines.count == (verbose ? 1 : 0), "\(result.stderr)")
            let entry = try #require(try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats)).players.first)
            #expect(entry.status == "ready" && !entry.hasCover)
            #expect(entry.audioUnderruns == 0)
        }
    }

    /// What the socket says of tagged audio, a cover beside and an Opus
    /// picture: mpv's `metadata` and `media-title`.
    @Test func theSocketSaysMetadataAndMediaTitle() throws {
        let m = try media()
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let player = try ControlSocketTests().startPlayer([m.opus, "--pause", "--no-config", "--no-resume"], socket: socket)
        defer { if player.isRunning { player.terminate() } }
        let client = try ControlSocketTests.Client(path: socket)
        // The Vorbis comments, the picture block not among them (ffmpeg adds its encoder tag).
        let metadata = try #require(client.waitFor("metadata"))
        for (key, value) in TaggedMedia.tags { #expect(metadata[key] == .string(value), "\(metadata)") }
        #expect(metadata["metadata_block_picture"] == nil)
        #expect(client.get("metadata/by-key/artist") == .string("The Artist"))
        #expect(client.get("media-title") == .string("Song Title"))

        client.clearEvents()
        #expect(client.error([.string("loadfile"), .string(m.beside)]) == "success")
        #expect(client.waitForEvent("file-loaded"))
        #expect(client.get("media-title") == .string("Beside Song"))
        #expect(client.get("metadata/by-key/title") == .string("Beside Song"))
        #expect(client.error([.string("get_property"), .string("metadata/by-key/artist")]) != "success")

        client.clearEvents()
        #expect(client.error([.string("loadfile"), .string(m.brokenBeside)]) == "success")
        #expect(client.waitForEvent("file-loaded"))
        #expect(client.get("media-title") == .string("beside.mp3"), "no title tag: the file's name")
        #expect(player.isRunning)
    }

    /// --stats-json says what each tile showed: title, artist, album, cover.
    @Test func theStatsSayTitleArtistAlbumAndCover() throws {
        let m = try media()
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stats = dir.appendingPathComponent("stats.json")
        // The last half second of each, one after another.
        let result = try runProcess(Fixtures.binary, [m.opus, m.beside, m.brokenBeside, "--start", "2.5", "--no-config",
                                                      "--no-resume", "--stats-json", stats.path],
                                    environment: ControlSocketTests.headless, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        let entries = Dictionary(report.players.map { (DisplayText.shortName($0.item), $0) }, uniquingKeysWith: { $1 })
        let opus = try #require(entries["song.opus"]), beside = try #require(entries["plain.mp3"])
        let plain = try #require(entries["beside.mp3"])
        #expect(opus.title == "Song Title" && opus.artist == "The Artist" && opus.album == "The Album" && opus.hasCover)
        #expect(beside.title == "Beside Song" && beside.artist == nil && beside.album == nil && beside.hasCover)
        #expect(plain.title == "beside.mp3" && !plain.hasCover)
        #expect(opus.chapterCount == 0 && opus.chapters.isEmpty)
    }

    @Test func aTrackLineReadsAsMusicPlayersShowIt() {
        #expect(DisplayText.trackLine(tags: TaggedMedia.tags, name: "/a/song.mp3") == "Song Title — The Artist — The Album")
        #expect(DisplayText.trackLine(tags: ["artist": "X", "title": "  "], name: "/a/song.mp3") == "song.mp3 — X")
        #expect(DisplayText.trackLine(tags: [:], name: "/a/song.mp3") == "song.mp3")
    }
}
