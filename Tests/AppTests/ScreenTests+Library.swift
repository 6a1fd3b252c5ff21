// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Analysis
@testable import App
@testable import Control
@testable import Media
@testable import Playback
@testable import UI
import TestSupport

/// The camera roll (issue 53) on a made-up home, as a person uses it: the
/// grid of every video, its pictures from the desktop's thumbnail cache
/// (a file manager's entry used as it is, missing ones written per the
/// standard, the broken file under fail/), a click that plays, three
/// Ctrl+clicked videos played in tiles.
extension ScreenTests {
    /// Where each video's cell is drawn in a 1280x960 window at 1x, as the
    /// roll lays them out (newest first, by day).
    static func libraryCells(_ home: LibraryHome) -> [String: Rect] {
        let view = LibraryView(pictures: LibraryPictures(store: ThumbnailStore(root: home.thumbnails, version: "test"), size: .normal))
        let result = LibraryScan.run(LibraryScan.roots(home.environment))
        view.show(LibraryScan.days(result.entries))
        var cells: [String: Rect] = [:]
        for (index, entry) in view.entries.enumerated() {
            cells[entry.path] = view.cellRect(of: index, in: Rect(x: 0, y: 0, width: 1280, height: 960), scale: oneX)
        }
        return cells
    }

    /// Pixels of a cell's picture box (its top 90 rows) that are not the
    /// empty box's colour (40, 40, 48), as a share.
    static func pictured(_ shot: PPMImage, _ cell: Rect) -> Double {
        var drawn = 0, all = 0
        for y in stride(from: cell.y + 4, to: cell.y + 86, by: 2) {
            for x in stride(from: cell.x + 4, to: cell.x + cell.width - 4, by: 2) {
                let p = rgb(shot, x, y)
                all += 1
                if abs(p.0 - 40) + abs(p.1 - 40) + abs(p.2 - 48) > 24 { drawn += 1 }
            }
        }
        return Double(drawn) / Double(max(all, 1))
    }

    static func modified(_ path: String) -> Date? {
        try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    static func mode(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func startLibrary(_ home: LibraryHome, socket: String) throws -> RunningApp {
        let app = try RunningApp(["--library", "--geometry", "1280x960+0+0", "--ui-scale", "1", "--no-config", "--no-resume",
                                  "--input-ipc-server", socket], environment: home.environment)
        app.waitForWindow()
        return app
    }

    /// `--library`: every video in the grid, newest first; the holiday
    /// clip's picture is the file manager's (magenta, its file untouched),
    /// the others made and written per the standard (the phone's upright),
    /// the broken file's failure under fail/ and said once; a click on a
    /// cell plays that file and closes the roll.
    @Test func theRollShowsEveryVideoFromTheCacheAndPlaysAClick() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let normal = home.thumbnails.appendingPathComponent("normal")
        try ThumbnailReader.prefill(media: home.holiday, folder: normal.path, colour: "#ff00ff", width: 128, height: 72, mtimeOffset: 0)
        let prefilled = normal.appendingPathComponent(try ThumbnailReader.read(media: home.holiday, entry: normal.path).name).path
        // Older than anything the app could write, so a rewrite would show.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: prefilled)
        let prefilledTime = Self.modified(prefilled)

        let socket = home.root.appendingPathComponent("ipc.sock").path
        let app = try startLibrary(home, socket: socket)
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("library-count") == .number(6), "\(app.errors)")
        let total: (JSONValue?) -> Double = { value in
            ["cached", "made", "failed"].reduce(0) { $0 + (value?[$1]?.number ?? 0) }
        }
        #expect(eventually(seconds: 30) { total(client.get("library-pictures")) == 6 }, "\(String(describing: client.get("library-pictures")))")
        let counts = client.get("library-pictures")
        #expect(counts?["cached"]?.number == 1 && counts?["made"]?.number == 4 && counts?["failed"]?.number == 1
                && counts?["held"]?.number == 6, "\(String(describing: counts)) \(app.errors)")

        let shot = try grabSettled(app, 1280, 960, to: home.root.appendingPathComponent("roll.ppm").path)
        let cells = Self.libraryCells(home)
        #expect(cells.count == 6, "all six cells in view: \(cells.keys)")
        for path in home.newestFirst where path != home.broken {
            let cell = try #require(cells[path])
            // (the phone's portrait picture covers a third of the landscape box)
            #expect(Self.pictured(shot, cell) > 0.25, "\(path)'s picture is drawn: \(Self.pictured(shot, cell))")
        }
        let holidayCell = try #require(cells[home.holiday])
        let middle = Self.rgb(shot, holidayCell.x + 80, holidayCell.y + 45)
        #expect(middle.0 > 230 && middle.1 < 30 && middle.2 > 230, "the file manager's magenta picture: \(middle)")
        #expect(Self.modified(prefilled) == prefilledTime, "the cached entry is read, not made again")

        // The missing ones, per the standard, where GLib and hashlib look.
        for path in [home.phone, home.screen, home.party, home.old] {
            let entry = try ThumbnailReader.read(media: path, entry: normal.path)
            #expect(entry.exists, "\(path)")
            #expect(entry.text?["Thumb::URI"] == entry.uri && entry.text?["Thumb::MTime"] == String(entry.mtime), "\(String(describing: entry.text))")
            #expect(entry.text?["Thumb::Movie::Length"] == "2", "\(String(describing: entry.text))")
            #expect(Self.mode(normal.appendingPathComponent(entry.name).path) == 0o600)
            #expect(max(entry.size?[0] ?? 0, entry.size?[1] ?? 0) == 128, "\(String(describing: entry.size))")
        }
        let phone = try ThumbnailReader.read(media: home.phone, entry: normal.path)
        #expect((phone.size?[1] ?? 0) > (phone.size?[0] ?? 0), "the phone's clip held upright is a portrait picture: \(String(describing: phone.size))")
        let fail = home.thumbnails.appendingPathComponent("fail/deskplayer-\(DeskPlayerCommand.version)").path
        #expect(try ThumbnailReader.read(media: home.broken, entry: fail).exists)
        #expect(!(try ThumbnailReader.read(media: home.broken, entry: normal.path).exists))
        #expect(app.errors.split(separator: "\n").filter { $0.contains("broken.mp4") }.count == 1,
                "the broken file is said once: \(app.errors)")

        // A click plays the party clip and closes the roll.
        let party = try #require(cells[home.party])
        try runTool("xdotool", ["mousemove", String(party.x + 80), String(party.y + 45), "sleep", "0.2", "click", "1"])
        #expect(eventually { client.get("path") == .string(home.party) }, "\(String(describing: client.get("path"))) \(app.errors)")
        #expect(client.get("library") == .bool(false))
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// Three videos Ctrl+clicked, then "Play in tiles": a tile each.
    @Test func threeSelectedVideosPlayInTiles() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let socket = home.root.appendingPathComponent("ipc.sock").path
        let app = try startLibrary(home, socket: socket)
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("library-count") == .number(6), "\(app.errors)")
        let cells = Self.libraryCells(home)
        let chosen = [home.screen, home.phone, home.old]
        for path in chosen {
            let cell = try #require(cells[path])
            try runTool("xdotool", ["mousemove", String(cell.x + 80), String(cell.y + 45), "sleep", "0.2",
                                    "keydown", "ctrl", "click", "1", "keyup", "ctrl"])
        }
        // The button shows once two are selected, at the bottom left.
        let g = LibraryView(pictures: LibraryPictures(store: ThumbnailStore(root: home.thumbnails, version: "test"), size: .normal))
            .geometry(Rect(x: 0, y: 0, width: 1280, height: 960), scale: Self.oneX)
        let button = g.tilesButton
        let shot = try grabSettled(app, 1280, 960, to: home.root.appendingPathComponent("selected.ppm").path)
        #expect(Self.isCurrentMark(Self.rgb(shot, button.x + 4, button.y + button.height / 2)), "the Play in tiles button")
        try runTool("xdotool", ["mousemove", String(button.x + button.width / 2), String(button.y + button.height / 2),
                                "sleep", "0.2", "click", "1"])
        func tileFiles() -> [String] {
            guard case .array(let tiles)? = client.get("tiles") else { return [] }
            return tiles.compactMap { $0["filename"]?.string }
        }
        #expect(eventually { tileFiles() == chosen }, "\(tileFiles()) \(app.errors)")
        #expect(client.get("library") == .bool(false))
    }

    /// From the idle window by keys alone: Ctrl+L opens the roll (the
    /// `library` command through the binding table), Esc closes it, the
    /// arrows move along the newest-first order and Enter plays.
    @Test func theRollByKeys() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let socket = home.root.appendingPathComponent("ipc.sock").path
        let app = try RunningApp(["--geometry", "1280x960+0+0", "--ui-scale", "1", "--no-config", "--no-resume",
                                  "--input-ipc-server", socket], environment: home.environment)
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("library") == .bool(false))
        try runTool("xdotool", ["key", "ctrl+l"])
        #expect(eventually { client.get("library") == .bool(true) }, "\(app.errors)")
        try runTool("xdotool", ["key", "Escape"])
        #expect(eventually { client.get("library") == .bool(false) })
        try runTool("xdotool", ["key", "ctrl+l"])
        #expect(eventually { client.get("library-count") == .number(6) }, "\(app.errors)")
        // The cursor starts on the newest (the phone's); two to the right is the holiday clip.
        try runTool("xdotool", ["key", "Right", "Right", "Return"])
        #expect(eventually { client.get("path") == .string(home.holiday) }, "\(String(describing: client.get("path"))) \(app.errors)")
        #expect(client.get("library") == .bool(false))
    }

    /// Two videos Ctrl+clicked, then "Compare": the first against the second in a wipe, synced.
    @Test func twoSelectedVideosCompare() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let socket = home.root.appendingPathComponent("ipc.sock").path
        let app = try startLibrary(home, socket: socket)
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("library-count") == .number(6), "\(app.errors)")
        let cells = Self.libraryCells(home)
        let chosen = [home.holiday, home.party]
        for path in chosen {
            let cell = try #require(cells[path])
            try runTool("xdotool", ["mousemove", String(cell.x + 80), String(cell.y + 45), "sleep", "0.2",
                                    "keydown", "ctrl", "click", "1", "keyup", "ctrl"])
        }
        let button = LibraryView(pictures: LibraryPictures(store: ThumbnailStore(root: home.thumbnails, version: "test"), size: .normal))
            .geometry(Rect(x: 0, y: 0, width: 1280, height: 960), scale: Self.oneX).compareButton
        #expect(eventually { client.get("window-settled") == .bool(true) })
        try runTool("xdotool", ["mousemove", String(button.x + button.width / 2), String(button.y + button.height / 2),
                                "sleep", "0.2", "click", "1"])
        #expect(eventually { client.get("compare") == .string("wipe") }, "\(app.errors)")
        #expect(eventually {
            guard case .array(let tiles)? = client.get("tiles") else { return false }
            return tiles.compactMap { $0["filename"]?.string } == chosen
        }, "\(String(describing: client.get("tiles"))) \(app.errors)")
        #expect(client.get("library") == .bool(false))
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// Green pixels (the watched mark, 80, 200, 120) in the bottom-left corner of a cell's picture.
    static func hasWatchedMark(_ shot: PPMImage, _ cell: Rect) -> Bool {
        var green = 0
        for y in stride(from: cell.y + 90 - 24, to: cell.y + 90 - 6, by: 2) {
            for x in stride(from: cell.x + 6, to: cell.x + 24, by: 2) {
                let p = rgb(shot, x, y)
                if abs(p.0 - 80) < 25 && abs(p.1 - 200) < 25 && abs(p.2 - 120) < 25 { green += 1 }
            }
        }
        return green > 20
    }

    /// A clip played to its end is recorded (watched.json beside the resume
    /// positions) and marked in the roll, the others not; the phone's chip
    /// shows the phone's video alone; Ctrl+click and "Queue" append the
    /// selected to the playlist, after what plays.
    @Test func theWatchedMarkTheSourceChipsAndQueue() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let socket = home.root.appendingPathComponent("ipc.sock").path
        let app = try RunningApp(["--idle", "--geometry", "1280x960+0+0", "--ui-scale", "1", "--no-config", "--no-resume",
                                  "--input-ipc-server", socket, home.holiday], environment: home.environment)
        defer { app.stop() }
        app.waitForWindow()
        let client = try ControlSocketTests.Client(path: socket)
        let store = WatchedStore.defaultURL(home.environment)
        #expect(eventually(seconds: 30) { WatchedStore.read(url: store) == [home.holiday] },
                "\(WatchedStore.read(url: store)) \(app.errors)")
        #expect(client.error([.string("set_property"), .string("library"), .bool(true)]) == "success")
        #expect(client.waitFor("library-count") == .number(6), "\(app.errors)")
        let shot = try grabSettled(app, 1280, 960, to: home.root.appendingPathComponent("watched.ppm").path)
        let cells = Self.libraryCells(home)
        let holiday = try #require(cells[home.holiday]), party = try #require(cells[home.party])
        #expect(Self.hasWatchedMark(shot, holiday), "the holiday clip was played to its end")
        #expect(!Self.hasWatchedMark(shot, party))

        // The phone's chip, by mouse: the phone's video alone.
        let view = LibraryView(pictures: LibraryPictures(store: ThumbnailStore(root: home.thumbnails, version: "test"), size: .normal))
        view.show(LibraryScan.days(LibraryScan.run(LibraryScan.roots(home.environment)).entries))
        let bounds = Rect(x: 0, y: 0, width: 1280, height: 960)
        let g = view.geometry(bounds, scale: Self.oneX)
        let chip = try #require(view.chips(g, scale: Self.oneX).first { $0.source == "Google Pixel 7" }?.rect)
        try runTool("xdotool", ["mousemove", String(chip.x + chip.width / 2), String(chip.y + chip.height / 2), "sleep", "0.2", "click", "1"])
        #expect(eventually { client.get("library-source") == .string("Google Pixel 7") }, "\(app.errors)")
        #expect(client.get("library-count") == .number(1))
        // Its one cell is the roll's first; Ctrl+click, then Queue.
        view.showSource("Google Pixel 7")
        let phone = try #require(view.cellRect(of: 0, in: bounds, scale: Self.oneX))
        try runTool("xdotool", ["mousemove", String(phone.x + 80), String(phone.y + 45), "sleep", "0.2",
                                "keydown", "ctrl", "click", "1", "keyup", "ctrl"])
        #expect(eventually { client.get("window-settled") == .bool(true) })
        let queue = g.queueButton
        try runTool("xdotool", ["mousemove", String(queue.x + queue.width / 2), String(queue.y + queue.height / 2),
                                "sleep", "0.2", "click", "1"])
        func playlist() -> [String] {
            guard case .array(let items)? = client.get("playlist") else { return [] }
            return items.compactMap { $0["filename"]?.string }
        }
        #expect(eventually { playlist() == [home.holiday, home.phone] }, "\(playlist()) \(app.errors)")
        #expect(client.get("library") == .bool(false))
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// The phone's clip Ctrl+clicked, then "Import": copied into the Videos
    /// folder (the phone's file left), the roll lists it there too, and the
    /// end is said (OSD and stderr).
    @Test func importCopiesAPhonesVideoByMouse() throws {
        let home = try LibraryHome()
        defer { try? FileManager.default.removeItem(at: home.root) }
        let socket = home.root.appendingPathComponent("ipc.sock").path
        let app = try startLibrary(home, socket: socket)
        defer { app.stop() }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("library-count") == .number(6), "\(app.errors)")
        let phone = try #require(Self.libraryCells(home)[home.phone])
        try runTool("xdotool", ["mousemove", String(phone.x + 80), String(phone.y + 45), "sleep", "0.2",
                                "keydown", "ctrl", "click", "1", "keyup", "ctrl"])
        #expect(eventually { client.get("window-settled") == .bool(true) })
        let button = LibraryView(pictures: LibraryPictures(store: ThumbnailStore(root: home.thumbnails, version: "test"), size: .normal))
            .geometry(Rect(x: 0, y: 0, width: 1280, height: 960), scale: Self.oneX).importButton
        try runTool("xdotool", ["mousemove", String(button.x + button.width / 2), String(button.y + button.height / 2),
                                "sleep", "0.2", "click", "1"])
        let copied = home.videos.path + "/PXL_20261127_120000.mp4"
        #expect(eventually { app.errors.contains("Imported 1 of 1 into \(home.videos.path)") }, "\(app.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copied)) == Data(contentsOf: URL(fileURLWithPath: home.phone)))
        #expect(FileManager.default.fileExists(atPath: home.phone), "the phone's file stays")
        #expect(eventually { client.get("library-count") == .number(7) }, "the copy is listed (inotify)")
        #expect(app.process.isRunning, "\(app.errors)")
    }
}
