// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import Analysis
import TestSupport

/// The desktop's thumbnail cache as DeskPlayer shares it with file
/// managers (issue 53), checked with the standard's other readers and
/// writers (GLib, hashlib, Pillow: `ThumbnailReader`) on real clips.
@Suite(.serialized) struct ThumbnailStoreTests {
    /// A clip under a name with characters the URI escapes (space, `#`,
    /// `[`, non-ASCII) and ones it keeps (`&`, `=`, `'`), in a fresh folder.
    func clip(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("my clip #1 [été] & 'x=y'.mp4").path
        try FileManager.default.copyItem(atPath: try VideoMedia.rotated(0), toPath: path)
        return path
    }

    func mode(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// A made entry is where GLib and hashlib look for it, readable by
    /// Pillow (every chunk's CRC right) with the standard's chunks, in
    /// folders only the user reads, and no temporary file left beside it.
    @Test func aMadeEntryIsWhereAndWhatTheStandardSays() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = try clip(in: folder)
        let root = folder.appendingPathComponent("cache/thumbnails")
        let store = ThumbnailStore(root: root, version: "test")
        guard case .made(let picture) = store.thumbnail(of: media, size: .normal) else {
            Issue.record("no thumbnail made")
            return
        }
        #expect(picture.width == 128 && picture.height == 72, "\(picture.width)x\(picture.height)")
        let normal = root.appendingPathComponent("normal").path
        let entry = try ThumbnailReader.read(media: media, entry: normal)
        #expect(entry.uri == ThumbnailStore.uri(ofPath: media), "GLib: \(entry.uri)")
        #expect(entry.exists, "no \(entry.name) in \(normal)")
        #expect(entry.size == [128, 72])
        let text = entry.text ?? [:]
        #expect(text["Thumb::URI"] == entry.uri)
        #expect(text["Thumb::MTime"] == String(entry.mtime))
        #expect(text["Thumb::Size"] == String(entry.bytes))
        #expect(text["Thumb::Mimetype"] == "video/mp4")
        #expect(text["Thumb::Movie::Length"] == "2")
        #expect(text["Software"] == "DeskPlayer test")
        #expect(mode(root.path) == 0o700 && mode(normal) == 0o700, "folders \(String(mode(normal), radix: 8))")
        #expect(mode(normal + "/" + entry.name) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: normal) == [entry.name], "only the entry is left")
    }

    /// An entry another program wrote, whose Thumb::MTime is the file's, is
    /// what comes back: a blue 40x30 picture, nothing like the clip's, so
    /// the clip was not decoded.
    @Test func aCurrentEntryIsReadNotMade() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = try clip(in: folder)
        let root = folder.appendingPathComponent("thumbnails")
        try ThumbnailReader.prefill(media: media, folder: root.appendingPathComponent("large").path, colour: "blue",
                                    width: 40, height: 30, mtimeOffset: 0)
        let outcome = ThumbnailStore(root: root, version: "test").thumbnail(of: media, size: .large)
        guard case .cached(let picture) = outcome else {
            Issue.record("the file manager's entry was not used: \(outcome)")
            return
        }
        #expect(picture.width == 40 && picture.height == 30)
        let centre = PPMImage(picture).pixel(20, 15)
        #expect(centre.b > 240 && centre.r < 16 && centre.g < 16, "\(centre)")
    }

    /// An entry for an older version of the file (another Thumb::MTime) is
    /// made again from the clip and replaced.
    @Test func aStaleEntryIsMadeAgain() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = try clip(in: folder)
        let root = folder.appendingPathComponent("thumbnails")
        let large = root.appendingPathComponent("large").path
        try ThumbnailReader.prefill(media: media, folder: large, colour: "blue", width: 40, height: 30, mtimeOffset: -60)
        let outcome = ThumbnailStore(root: root, version: "test").thumbnail(of: media, size: .large)
        guard case .made(let picture) = outcome else {
            Issue.record("the stale entry was used: \(outcome)")
            return
        }
        // The clip is 320x180: it fits in 256 as 256x144, and it is grey with markers, not blue.
        #expect(picture.width == 256 && picture.height == 144)
        let centre = PPMImage(picture).pixel(128, 100)
        #expect(abs(centre.r - 64) < 12 && abs(centre.b - 64) < 12, "\(centre)")
        let entry = try ThumbnailReader.read(media: media, entry: large)
        #expect(entry.text?["Thumb::MTime"] == String(entry.mtime))
        #expect(entry.size == [256, 144])
    }

    /// A FIFO where the entry would be is refused without waiting for a
    /// writer (the caller would hang), and the made entry takes its place.
    @Test func aFIFOInTheCacheIsNotWaitedOn() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = try clip(in: folder)
        let root = folder.appendingPathComponent("thumbnails")
        let store = ThumbnailStore(root: root, version: "test")
        let source = try ThumbnailStore.Source(path: media)
        let entry = store.url(of: source, size: .normal)
        try FileManager.default.createDirectory(at: entry.deletingLastPathComponent(), withIntermediateDirectories: true)
        #expect(mkfifo(entry.path, 0o600) == 0)
        guard case .made = store.thumbnail(of: media, size: .normal) else {
            Issue.record("no thumbnail made")
            return
        }
        #expect(ThumbnailStore.readEntry(entry).map { ThumbnailStore.matches($0.text, source) } == true)
    }

    /// A file that cannot be decoded gets an empty entry with its URI and
    /// MTime in fail/deskplayer-VERSION, none in the size folder, and is
    /// then not tried again.
    @Test func aBrokenFileIsRememberedAsFailed() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let media = folder.appendingPathComponent("broken.mp4").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: media))
        let root = folder.appendingPathComponent("thumbnails")
        let store = ThumbnailStore(root: root, version: "9.9")
        guard case .failed = store.thumbnail(of: media, size: .normal) else {
            Issue.record("a picture of noise")
            return
        }
        let fail = root.appendingPathComponent("fail/deskplayer-9.9").path
        let entry = try ThumbnailReader.read(media: media, entry: fail)
        #expect(entry.exists, "no \(entry.name) in \(fail)")
        #expect(entry.text?["Thumb::URI"] == entry.uri && entry.text?["Thumb::MTime"] == String(entry.mtime))
        #expect(mode(fail) == 0o700 && mode(root.appendingPathComponent("fail").path) == 0o700)
        #expect(mode(fail + "/" + entry.name) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("normal").path))
        guard case .failed(let reason) = store.thumbnail(of: media, size: .normal) else {
            Issue.record("tried again")
            return
        }
        #expect(reason.contains("before"), "\(reason)")
    }

    /// The URI of names GLib escapes and keeps, byte for byte GLib's.
    @Test func theURIIsGLibs() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["plain.mkv", "a b%c?d;e<f>g\"h`i{j}k|l\\m^n.webm", "!$&'()*+,-.:=@_~.mp3", "日本語 ñ\u{1}.ogg"] {
            let path = folder.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let entry = try ThumbnailReader.read(media: path, entry: folder.path)
            #expect(ThumbnailStore.uri(ofPath: path) == entry.uri)
            #expect(ThumbnailStore.entryName(uri: entry.uri) == entry.name)
        }
    }
}
