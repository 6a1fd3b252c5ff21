// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import UI
import TestSupport

/// The context menu driven by the mouse alone, as a person uses it: a
/// right click opens it, the pointer on a row opens its submenu, a click
/// chooses. Each effect is checked over the control socket and in the
/// window's pixels. Where a row is comes from `context-menu-items` (a person
/// finds it by eye); nothing waits for time to pass, only for states.
extension ScreenTests {
    /// One row of the open menu, as `context-menu-items` gives it.
    struct MenuRow {
        let title: String
        let rect: Rect
        let checked: Bool
        let mark: String

        init?(_ value: JSONValue) {
            guard let title = value["title"]?.string, let x = value["x"]?.number, let y = value["y"]?.number,
                  let w = value["width"]?.number, let h = value["height"]?.number else { return nil }
            self.title = title
            rect = Rect(x: Int(x), y: Int(y), width: Int(w), height: Int(h))
            checked = value["checked"] == .bool(true)
            mark = value["mark"]?.string ?? ""
        }

        var centre: (x: Int, y: Int) { (rect.x + rect.width / 3, rect.y + rect.height / 2) }
    }

    /// The open columns of the menu (empty while it is closed).
    func menuColumns(_ client: ControlSocketTests.Client) -> [[MenuRow]] {
        guard case .array(let levels)? = client.get("context-menu-items") else { return [] }
        return levels.map { level in
            guard case .array(let rows) = level else { return [] }
            return rows.compactMap(MenuRow.init)
        }
    }

    /// Polls the socket until `condition` holds (up to 15 s): the state a step waits for.
    @discardableResult
    func waitUntil(_ what: String, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)  // polling the state, not waiting for time to pass
        }
        Issue.record("never happened: \(what)")
        return false
    }

    /// A right click at (x, y); returns once the menu is open.
    func rightClick(_ client: ControlSocketTests.Client, at x: Int, _ y: Int) throws {
        try runTool("xdotool", ["mousemove", String(x), String(y), "click", "3"])
        waitUntil("the menu opens") { !menuColumns(client).isEmpty }
    }

    /// Follows a path of titles: the pointer rests on each submenu's row
    /// (it opens), then clicks the last one. Returns the rows of the column
    /// the last title was in, as they were before the click.
    @discardableResult
    func choose(_ client: ControlSocketTests.Client, _ path: [String]) throws -> [MenuRow] {
        var column: [MenuRow] = []
        for (depth, title) in path.enumerated() {
            var row: MenuRow?
            waitUntil("'\(title)' shows in column \(depth + 1)") {
                let columns = menuColumns(client)
                guard columns.count > depth else { return false }
                column = columns[depth]
                row = column.first { $0.title == title }
                return row != nil
            }
            guard let row else { return column }
            let (x, y) = row.centre
            if depth == path.count - 1 {
                try runTool("xdotool", ["mousemove", String(x), String(y), "click", "1"])
            } else {
                try runTool("xdotool", ["mousemove", String(x), String(y)])
                waitUntil("'\(title)' opens its submenu") { menuColumns(client).count > depth + 1 }
            }
        }
        waitUntil("the menu closes after a choice") { menuColumns(client).isEmpty }
        return column
    }

    /// The mean of a 960x540 grab's channels (0...255), every fourth pixel.
    func brightness(_ image: PPMImage) -> Double {
        var sum = 0
        for y in stride(from: 0, to: 540, by: 4) {
            for x in stride(from: 0, to: 960, by: 4) { let p = image.pixel(x, y); sum += p.r + p.g + p.b }
        }
        return Double(sum) / Double(240 * 135 * 3)
    }

    /// Whether a row's mark (✓ or ●) is drawn: bright pixels in its mark column.
    func markDrawn(_ image: PPMImage, _ row: MenuRow) -> Bool {
        var bright = 0
        for y in (row.rect.y + 4)..<(row.rect.y + row.rect.height - 4) {
            for x in (row.rect.x + 4)..<(row.rect.x + 22) {
                let p = image.pixel(x, y)
                if p.r > 200 && p.g > 200 && p.b > 200 { bright += 1 }
            }
        }
        return bright > 10
    }

    /// Opens the menu, rests on the submenu at `path` and grabs the window
    /// with it open; returns the submenu's rows and the picture, then closes it (Esc).
    func lookAtSubmenu(_ app: RunningApp, _ client: ControlSocketTests.Client, _ path: [String], to file: String)
        throws -> (rows: [MenuRow], image: PPMImage) {
        try rightClick(client, at: 200, 120)
        for (depth, title) in path.enumerated() {
            var row: MenuRow?
            waitUntil("'\(title)' shows") { row = menuColumns(client).dropFirst(depth).first?.first { $0.title == title }; return row != nil }
            guard let row else { break }
            try runTool("xdotool", ["mousemove", String(row.centre.x), String(row.centre.y)])
            waitUntil("'\(title)' opens") { menuColumns(client).count > depth + 1 }
        }
        let rows = menuColumns(client).last ?? []
        let image = try grabSettled(app, 960, 540, to: file)
        try runTool("xdotool", ["key", "Escape"])
        waitUntil("Esc closes the menu") { menuColumns(client).isEmpty }
        return (rows, image)
    }

    /// From the idle window: Open file… plays a file (the desktop's dialog
    /// answers), Audio track ▸ switches to the second track, Subtitles ▸
    /// Load file… adds a subtitle file whose line then shows, Speed ▸ 1.5×;
    /// each submenu shows the new value marked. The control bar's audio
    /// button says what it is and opens the audio submenu alone.
    @Test func theMenuOpensAFileAndSwitchesTracksSubtitlesAndSpeed() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let movie = try VideoMedia.twoAudioTracks()
        let srt = dir.appendingPathComponent("line.srt")
        try "1\n00:00:00,000 --> 00:01:00,000\nMENU SUBTITLE LINE\n".write(to: srt, atomically: true, encoding: .utf8)
        // The desktop's dialog, as zenity answers: the file chosen on stdout.
        let zenity = dir.appendingPathComponent("zenity")
        try """
            #!/bin/sh
            case "$*" in *subtitles*) echo '\(srt.path)' ;; *) echo '\(movie)' ;; esac
            """.write(to: zenity, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: zenity.path)
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try RunningApp(["--pause", "--geometry", "960x540+0+0", "--no-config", "--input-ipc-server", socket],
                                 audio: ["SDL_AUDIODRIVER": "dummy", "PATH": dir.path, "XDG_STATE_HOME": dir.path])
        defer { app.stop() }
        app.waitForWindow()
        let client = try #require(app.control, "no control socket: \(app.errors)")

        // Open file… in the idle window's menu.
        try rightClick(client, at: 480, 270)
        let top = menuColumns(client).first ?? []
        #expect(top.map(\.title).starts(with: ["Open file…", "Open recent", "Videos…", "Take video…", "Playlist"]), "\(top.map(\.title))")
        #expect(!top.contains { $0.title == "Compare" }, "Compare shows only while comparing")
        try choose(client, ["Open file…"])
        waitUntil("the file chosen plays") { client.get("path") == .string(movie) }
        #expect(abs((client.waitFor("duration")?.number ?? 0) - 10) < 0.1)
        let playing = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("playing.ppm").path)
        #expect(playing.pixel(480, 100).r + playing.pixel(480, 100).g + playing.pixel(480, 100).b > 90,
                "the test pattern shows, not the idle window")

        // Audio track ▸ 2.
        #expect(client.get("aid") == .number(1))
        try rightClick(client, at: 200, 120)
        let tracks = try choose(client, ["Audio track", "2. Français · fre · aac"])
        #expect(tracks.prefix(2).map(\.checked) == [true, false], "the first track was the one marked")
        waitUntil("the second audio track plays") { client.get("aid") == .number(2) }
        let audio = try lookAtSubmenu(app, client, ["Audio track"], to: dir.appendingPathComponent("audio.ppm").path)
        #expect(audio.rows.prefix(2).map(\.checked) == [false, true])
        #expect(audio.rows.count >= 2 && !markDrawn(audio.image, audio.rows[0]) && markDrawn(audio.image, audio.rows[1]),
                "the window shows the mark on the second track")

        // Subtitles ▸ Load file…: the dialog's file becomes a track, its line shows.
        let before = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("before.ppm").path)
        try rightClick(client, at: 200, 120)
        try choose(client, ["Subtitles", "Load file…"])
        waitUntil("the subtitle line is on screen") { client.get("sub-text") == .string("MENU SUBTITLE LINE") }
        #expect(client.get("track-list")?.text.contains("line.srt") == true)
        let after = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("subtitle.ppm").path)
        var changed = 0
        for y in stride(from: 360, to: 540, by: 2) {
            for x in stride(from: 0, to: 960, by: 2) where before.pixel(x, y) != after.pixel(x, y) { changed += 1 }
        }
        #expect(changed > 300, "the line is drawn in the lower part of the picture (\(changed) pixels changed)")

        // Speed ▸ 1.5×.
        try rightClick(client, at: 200, 120)
        try choose(client, ["Speed", "1.5×"])
        waitUntil("speed 1.5") { client.get("speed") == .number(1.5) }
        let speed = try lookAtSubmenu(app, client, ["Speed"], to: dir.appendingPathComponent("speed.ppm").path)
        // Among the speeds (the submenu also has J/K/L's Pause, marked while paused).
        #expect(speed.rows.filter { $0.checked && ($0.title.hasSuffix("×") || $0.title == "Normal") }.map(\.title) == ["1.5×"])
        if let row = speed.rows.first(where: { $0.title == "1.5×" }), let normal = speed.rows.first(where: { $0.title == "Normal" }) {
            #expect(markDrawn(speed.image, row) && !markDrawn(speed.image, normal), "the window marks 1.5×")
        }

        // The control bar's audio button: its name while the pointer is on it; a click opens the audio submenu alone.
        let bar = ControlBar(in: Rect(x: 0, y: 0, width: 960, height: 540))
        let button = (x: bar.audioButton.x + bar.audioButton.width / 2, y: bar.audioButton.y + bar.audioButton.height / 2)
        try runTool("xdotool", ["mousemove", "480", "300", "mousemove", String(button.x), String(button.y)])
        waitUntil("the bar shows") { client.get("window-unsettled-by") == .string("a control bar") }
        try runTool("xdotool", ["click", "1"])
        waitUntil("the audio submenu opens") { !menuColumns(client).isEmpty }
        let alone = menuColumns(client)
        #expect(alone.count == 1 && alone.first?.first?.title == "1. English · eng · aac", "\(alone.map { $0.map(\.title) })")
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// A wipe comparison switched to the difference view from Compare ▸ View:
    /// two renditions of one picture differ little, so the window goes dark.
    @Test func theMenuSwitchesAComparisonToTheDifferenceView() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try RunningApp(["--compare", "wipe", try CompareMedia.path("ref.mp4"), try CompareMedia.path("mpeg4.mp4"),
                                  "--pause", "--geometry", "960x540+0+0", "--no-config"])
        defer { app.stop() }
        app.waitForWindow()
        let client = try #require(app.control, "no control socket: \(app.errors)")
        #expect(client.waitFor("duration") != nil)
        let wipe = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("wipe.ppm").path)
        #expect(client.get("compare") == .string("wipe"))
        try rightClick(client, at: 300, 200)
        let view = try choose(client, ["Compare", "View", "diff"])
        #expect(view.filter(\.checked).map(\.title) == ["wipe"], "the wipe view was the one marked")
        waitUntil("the difference view") { client.get("compare") == .string("diff") }
        let diff = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("diff.ppm").path)
        #expect(brightness(diff) < brightness(wipe) / 3, "wipe \(brightness(wipe)), diff \(brightness(diff))")
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// Screenshot from the menu writes a file; Picture in Picture moves the
    /// player to its mini window and, chosen again (checked now), back.
    @Test func theMenuTakesAScreenshotAndTogglesPictureInPicture() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--pause", "--geometry", "960x540+0+0", "--no-config",
                                  "--screenshot-dir", dir.path])
        defer { app.stop() }
        app.waitForWindow()
        let client = try #require(app.control, "no control socket: \(app.errors)")
        #expect(client.waitFor("duration") == .number(10))

        try rightClick(client, at: 300, 200)
        try choose(client, ["Screenshot"])
        var shots: [String] = []
        waitUntil("a screenshot file") {
            shots = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".png") }
            return !shots.isEmpty
        }
        #expect(shots.contains { $0.hasPrefix("deskplayer-demo-") }, "\(shots)")

        let shown = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("shown.ppm").path)
        try rightClick(client, at: 300, 200)
        let top = try choose(client, ["Picture in Picture"])
        #expect(top.first { $0.title == "Picture in Picture" }?.checked == false)
        waitUntil("the player is in Picture in Picture") { client.get("pip") == .bool(true) }
        waitUntil("its mini window is up") { (try? findWindow(" - PiP$")) != nil }
        let main = try grabSettled(app, 960, 540, to: dir.appendingPathComponent("pip.ppm").path)
        #expect(brightness(main) < brightness(shown) / 3, "the picture left the main window (\(brightness(shown)) -> \(brightness(main)))")
        try rightClick(client, at: 300, 200)
        let again = try choose(client, ["Picture in Picture"])
        #expect(again.first { $0.title == "Picture in Picture" }?.checked == true, "the menu shows it on")
        waitUntil("the player is back") { client.get("pip") == .bool(false) }
        waitUntil("the mini window is gone") { (try? findWindow(" - PiP$")) == nil }
        #expect(app.process.isRunning, "\(app.errors)")
    }
}
