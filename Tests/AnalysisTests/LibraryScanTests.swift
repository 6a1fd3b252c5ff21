// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media
@testable import Analysis
import TestSupport

/// The camera roll's listing (issue 53) on a made-up home: the Videos
/// folder user-dirs.dirs names, a phone's DCIM folder where gvfs mounts
/// it, clips of several containers and days; its order, its days, its
/// bounds, and a new file seen without asking again (inotify).
@Suite(.serialized) struct LibraryScanTests {
    static func names(_ entries: [LibraryEntry]) -> [String] { entries.map(\.name) }

    @Test func userDirsNamesTheVideosFolder() {
        let text = "# comment\nXDG_VIDEOS_DIR=\"$HOME/Vid\\\"éos\"\nXDG_MUSIC_DIR=\"/srv/music\"\nBROKEN=\"unclosed\n"
        let parsed = UserDirs.parse(text)
        #expect(parsed["XDG_VIDEOS_DIR"] == "$HOME/Vid\"éos")
        #expect(parsed["XDG_MUSIC_DIR"] == "/srv/music")
        #expect(parsed["BROKEN"] == nil, "an unclosed quote is no value")
        // No file: ~/Videos; "$HOME" alone (not set up): ~/Videos too.
        #expect(UserDirs.videos(["HOME": "/nowhere", "XDG_CONFIG_HOME": "/nowhere/.config"]).path == "/nowhere/Videos")
    }

    @Test func theRootsAreTheVideosFolderAndThePhonesDCIM() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let roots = LibraryScan.roots(home.environment)
        #expect(roots == [LibraryScan.Root(path: home.videos.path, source: "Videos"),
                          LibraryScan.Root(path: home.dcim.path, source: "Google Pixel 7")])
    }

    /// Newest first across the folders and the phone; one group per day
    /// (the two clips of three days ago together); hidden files and
    /// others than videos left out; nothing opened (the broken file is
    /// listed like the others: only its picture will fail).
    @Test func newestFirstGroupedByDay() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let result = LibraryScan.run(LibraryScan.roots(home.environment))
        #expect(result.entries.map(\.path) == home.newestFirst)
        #expect(result.problems.isEmpty && !result.truncated)
        #expect(result.entries.first?.source == "Google Pixel 7")
        #expect(Set(result.folders) == Set([home.videos.path, home.videos.path + "/2025", home.videos.path + "/clips",
                                            home.videos.path + "/clips/deep", home.dcim.path, home.dcim.path + "/Camera"]))
        let days = LibraryScan.days(result.entries)
        #expect(days.map { Self.names($0.entries) } == [["PXL_20261127_120000.mp4"], ["screen.mov", "holiday.mp4"],
                                                         ["broken.mp4"], ["party.mkv"], ["old.webm"]])
        let modified = Date(timeIntervalSince1970: Double(result.entries[1].modified))
        let parts = Calendar.current.dateComponents([.year, .month, .day], from: modified)
        #expect(days[1].day == String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0))
    }

    /// Past the depth, folders are not entered; past the count, the oldest
    /// are left out and the result says so.
    @Test func depthAndCountAreBounded() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let roots = LibraryScan.roots(home.environment)
        let shallow = LibraryScan.run(roots, maxDepth: 1)
        #expect(!shallow.entries.map(\.path).contains(home.old), "clips/deep is two folders down")
        #expect(shallow.entries.map(\.path).contains(home.party))
        let few = LibraryScan.run(roots, maxCount: 3)
        #expect(few.entries.map(\.path) == Array(home.newestFirst.prefix(3)))
        #expect(few.truncated)
    }

    /// A folder that cannot be listed is said, once, and the rest are listed.
    @Test(.enabled(if: getuid() != 0, "root lists any folder")) func aFolderThatCannotBeListedIsSkipped() throws {
        let home = try LibraryHome()
        defer {
            chmod(home.videos.path + "/2025", 0o755)
            try? FileManager.default.removeItem(at: home.root)
        }
        chmod(home.videos.path + "/2025", 0)
        let result = LibraryScan.run(LibraryScan.roots(home.environment))
        #expect(result.problems.count == 1 && result.problems[0].contains("2025"), "\(result.problems)")
        #expect(result.entries.map(\.path) == home.newestFirst.filter { $0 != home.party })
    }

    /// A clip copied into a subfolder (renamed into place, as a copy does)
    /// and a new folder with a clip show in a new listing without asking.
    @Test func aNewFileIsListedWithoutAsking() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let environment = home.environment
        let scanner = LibraryScanner(roots: { LibraryScan.roots(environment) }, wake: {})
        #expect(eventually { scanner.latest?.result.entries.count == 6 })
        let copied = home.videos.path + "/2025/new.mp4"
        try FileManager.default.copyItem(atPath: home.holiday, toPath: copied + ".part")
        try FileManager.default.moveItem(atPath: copied + ".part", toPath: copied)
        #expect(eventually { scanner.latest?.result.entries.contains { $0.path == copied } == true })
        let folder = home.dcim.appendingPathComponent("Trip")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(eventually { scanner.latest?.result.folders.contains(folder.path) == true })
        try FileManager.default.copyItem(atPath: home.party, toPath: folder.appendingPathComponent("trip.mkv").path)
        #expect(eventually { scanner.latest?.result.entries.contains { $0.name == "trip.mkv" } == true })
        #expect(scanner.takeProblems().isEmpty)
    }

    /// A phone whose mount hangs (a lister that blocks on its DCIM folder
    /// until the test lets it go) does not hold the listing: the Videos
    /// folder's videos come and the phone is unreachable; let go, its video
    /// comes and it is reachable again. Its DCIM folder removed while the
    /// roll is open: its video stays (greyed), the phone unreachable again.
    @Test func aHungOrVanishedPhoneIsUnreachableAndNothingWaits() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let environment = home.environment
        let gate = DispatchSemaphore(value: 0)
        let dcim = home.dcim.path
        let scanner = LibraryScanner(roots: { LibraryScan.roots(environment) }, list: { folder, wanted throws(MediaError) in
            if folder.hasPrefix(dcim) {
                gate.wait()
                gate.signal()
            }
            return try FolderListing.list(folder, wanted: wanted)
        }, bound: 0.5, wake: {})
        let others = home.newestFirst.filter { $0 != home.phone }
        #expect(eventually {
            guard let latest = scanner.latest else { return false }
            return latest.unreachable == ["Google Pixel 7"] && latest.result.entries.map(\.path) == others
        }, "\(String(describing: scanner.latest?.unreachable))")
        gate.signal()
        #expect(eventually {
            guard let latest = scanner.latest else { return false }
            return latest.unreachable.isEmpty && latest.result.entries.map(\.path) == home.newestFirst
        }, "\(String(describing: scanner.latest?.unreachable))")
        try FileManager.default.removeItem(at: home.dcim)
        #expect(eventually {
            guard let latest = scanner.latest else { return false }
            return latest.unreachable == ["Google Pixel 7"] && latest.result.entries.map(\.path) == home.newestFirst
        }, "\(String(describing: scanner.latest?.unreachable))")
    }

    /// Import copies the phone's videos into the Videos folder: a name
    /// taken there gets " (2)", each copy is the source byte for byte, the
    /// sources stay, a file that cannot be read is said and leaves nothing
    /// behind (no temporary file).
    @Test func importCopiesIntoTheVideosFolderAndKeepsTheSources() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let taken = home.dcim.path + "/Camera/holiday.mp4"
        try FileManager.default.copyItem(atPath: home.party, toPath: taken)
        let missing = home.dcim.path + "/Camera/gone.mp4"
        let size: (String) -> Int = { ((try? FileManager.default.attributesOfItem(atPath: $0))?[.size] as? Int) ?? -1 }
        let importer = LibraryImport([(home.phone, size(home.phone)), (taken, size(taken)), (missing, 10)], into: home.videos.path, wake: {})
        #expect(eventually { importer.progress.finished })
        let progress = importer.progress
        let second = home.videos.path + "/holiday (2).mp4"
        #expect(progress.copied == [home.videos.path + "/PXL_20261127_120000.mp4", second], "\(progress)")
        #expect(progress.done == 3 && progress.failures.count == 1 && progress.failures[0].hasPrefix(missing), "\(progress.failures)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: second)) == Data(contentsOf: URL(fileURLWithPath: taken)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: progress.copied[0])) == Data(contentsOf: URL(fileURLWithPath: home.phone)))
        #expect(FileManager.default.fileExists(atPath: home.phone) && FileManager.default.fileExists(atPath: taken), "the sources stay")
        #expect(size(home.holiday) != size(second), "the Videos folder's holiday.mp4 is left as it was")
        let names = try FileManager.default.contentsOfDirectory(atPath: home.videos.path)
        #expect(!names.contains { $0.hasSuffix(".part") }, "\(names)")
        #expect(progress.bytesCopied == size(home.phone) + size(taken))
    }

    /// The listing reads kinds from the folder's entries: a link to a
    /// video is listed (with the video's time), a link to a folder is not
    /// entered, a name in capitals (a camera's MVI_0001.MOV) is a video, a
    /// name that only ends like one ("mp4") is not.
    @Test func linksAndCapitalsAreListedAsTheFilesTheyLeadTo() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let fm = FileManager.default
        let linked = home.videos.path + "/linked.mp4", loop = home.videos.path + "/loop"
        try fm.createSymbolicLink(atPath: linked, withDestinationPath: home.party)
        try fm.createSymbolicLink(atPath: loop, withDestinationPath: home.videos.path)
        let camera = home.videos.path + "/MVI_0001.MOV"
        try fm.copyItem(atPath: home.screen, toPath: camera)
        try Data().write(to: URL(fileURLWithPath: home.videos.path + "/mp4"))
        let result = LibraryScan.run(LibraryScan.roots(home.environment))
        let names = Set(Self.names(result.entries))
        #expect(names.contains("linked.mp4") && names.contains("MVI_0001.MOV") && !names.contains("mp4"), "\(names)")
        #expect(result.entries.first { $0.name == "linked.mp4" }?.modified == result.entries.first { $0.path == home.party }?.modified)
        #expect(!result.folders.contains(loop), "a linked folder is not entered")
        #expect(result.entries.count == 8, "\(Self.names(result.entries))")
    }
}
