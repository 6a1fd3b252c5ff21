// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import UI
import TestSupport

/// The window in the user's language: under LANGUAGE=de (and ja) the error
/// line, the bar's tooltip, the help and the menu read in it, as OCR of a
/// screenshot finds; a string the catalog lacks shows in English, never
/// empty. Each app gets catalogs compiled from po/ here (msgfmt), named by
/// DESKPLAYER_LOCALEDIR, and no LANG or LC_*: the "C" locale a service or a
/// test runner has, where glibc alone would ignore LANGUAGE.
extension ScreenTests {
    /// po/LANGUAGE.po compiled into a locale folder under `dir`, with
    /// `change` applied to the .po text first.
    func catalogs(_ language: String, in dir: URL, change: (String) -> String = { $0 }) throws -> String {
        let folder = dir.appendingPathComponent("locale/\(language)/LC_MESSAGES")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = dir.appendingPathComponent("\(language).po")
        let text = try String(contentsOf: Fixtures.root.appendingPathComponent("po/\(language).po"), encoding: .utf8)
        try change(text).write(to: source, atomically: true, encoding: .utf8)
        let result = try runTool("msgfmt", ["--check", "-o", folder.appendingPathComponent("deskplayer.mo").path, source.path])
        #expect(result.status == 0, "\(result.stderr)")
        return dir.appendingPathComponent("locale").path
    }

    /// An app in `language` with only those catalogs and no locale set.
    func translatedApp(_ files: [String], _ language: String, localeDir: String, socket: String) throws -> RunningApp {
        try RunningApp(files + ["--pause", "--geometry", "960x540+0+0", "--no-config", "--no-resume", "--input-ipc-server", socket],
                       environment: ["LANGUAGE": language, "DESKPLAYER_LOCALEDIR": localeDir,
                                     "LANG": nil, "LC_ALL": nil, "LC_MESSAGES": nil])
    }

    /// The text tesseract reads in a picture, in its `language`, lower case,
    /// runs of white space made one space. The picture is doubled and
    /// inverted first: the window's light text on dark becomes the dark on
    /// light, at the size, the OCR reads best.
    func ocr(_ image: String, _ language: String) throws -> String {
        let png = image + ".png"
        try runTool("ffmpeg", ["-v", "error", "-y", "-i", image, "-vf", "scale=iw*2:ih*2:flags=bicubic,format=gray,negate", png])
        let result = try runTool("tesseract", [png, "stdout", "-l", language])
        #expect(result.status == 0, "tesseract: \(result.stderr)")
        return result.stdout.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// LANGUAGE=de: a file that is no media shows its error in German, the
    /// play button's tooltip, the help and the menu read in German, and the
    /// socket's values and stderr stay English.
    @Test(.enabled(if: toolExists("tesseract"), "needs tesseract-ocr with tesseract-ocr-deu (make test-deps)"))
    func theWindowSpeaksGerman() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("notes.mp4")
        try String(repeating: "this is text, not a video\n", count: 40).write(to: bad, atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try translatedApp([bad.path], "de", localeDir: try catalogs("de", in: dir), socket: socket)
        defer { app.stop() }
        app.waitForWindow()
        let client = try #require(app.control, "no control socket: \(app.errors)")

        // The error line, where the picture would be.
        waitUntil("the file fails") { app.errors.contains("notes.mp4: not a playable media file") }
        // stderr can say it before the tile is drawn again ("wird geöffnet…" a moment longer).
        let error = dir.appendingPathComponent("error.ppm").path
        var errorText = ""
        waitUntil("the error line shows in German") {
            guard (try? grabSettled(app, 960, 540, to: error)) != nil else { return false }
            errorText = (try? ocr(error, "deu")) ?? ""
            return errorText.contains("abspielbare mediendatei")
        }
        #expect(!errorText.contains("playable"), "OCR: \(errorText)")
        #expect(app.errors.contains("not a playable media file"), "stderr stays English: \(app.errors)")

        // The help overlay: the command F1 runs, sent through the socket
        // (what is checked is the overlay's words, not the key).
        #expect(client.error([.string("help")]) == "success")
        let help = dir.appendingPathComponent("help.ppm").path
        var helpText = ""
        waitUntil("the help shows in German") {
            guard (try? grabSettled(app, 960, 540, to: help)) != nil else { return false }
            helpText = (try? ocr(help, "deu")) ?? ""
            return helpText.contains("blendet dies aus")
        }
        #expect(helpText.contains("kapitel") && helpText.contains("vollbild"), "OCR: \(helpText)")
        #expect(client.error([.string("help")]) == "success")

        // A file that plays, for the bar: the play button's tooltip.
        _ = client.command([.string("loadfile"), .string(Fixtures.asset("demo.mp4"))])
        #expect(client.waitFor("duration") == .number(10), "\(app.errors)")
        let bar = ControlBar(in: Rect(x: 0, y: 0, width: 960, height: 540))
        let play = try #require(bar.rect(of: .play))
        try runTool("xdotool", ["mousemove", "480", "200", "sleep", "0.2", "mousemove", String(play.x + play.width / 2),
                                String(play.y + play.height / 2)])
        let tip = dir.appendingPathComponent("tip.ppm").path
        var tipText = ""
        waitUntil("the tooltip reads in German") {
            guard (try? grab(320, 80, at: (0, bar.bar.y - 50), to: tip)) != nil else { return false }
            tipText = (try? ocr(tip, "deu")) ?? ""
            return tipText.contains("leertaste")
        }
        #expect(tipText.contains("wiedergabe"), "OCR: \(tipText)")

        // The menu: the socket gives the rows as drawn, the OCR reads them.
        try rightClick(client, at: 200, 120)
        let top = menuColumns(client).first ?? []
        #expect(top.map(\.title).starts(with: ["Datei öffnen…", "Zuletzt geöffnet", "Videos…", "Video aufnehmen…", "Wiedergabeliste"]), "\(top.map(\.title))")
        let menu = dir.appendingPathComponent("menu.ppm").path
        _ = try grabSettled(app, 960, 540, to: menu)
        let menuText = try ocr(menu, "deu")
        #expect(menuText.contains("wiedergabeliste") && menuText.contains("beenden") && menuText.contains("untertitel"),
                "OCR: \(menuText)")
        // `context-menu PATH` names a submenu in English in every language.
        try runTool("xdotool", ["key", "Escape"])
        waitUntil("Esc closes the menu") { menuColumns(client).isEmpty }
        #expect(client.error([.string("context-menu"), .string("Speed")]) == "success")
        waitUntil("the Speed submenu opens alone") { menuColumns(client).first?.contains { $0.title == "Normal" } == true }
        #expect(app.process.isRunning, "\(app.errors)")
    }

    /// LANGUAGE=ja: the menu reads in Japanese
    /// (Droid Sans Fallback draws them, tesseract's jpn reads them).
    @Test(.enabled(if: toolExists("tesseract"), "needs tesseract-ocr with tesseract-ocr-jpn (make test-deps)"))
    func theWindowSpeaksJapanese() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let app = try translatedApp([], "ja", localeDir: try catalogs("ja", in: dir), socket: socket)
        defer { app.stop() }
        app.waitForWindow()
        let client = try #require(app.control, "no control socket: \(app.errors)")
        try rightClick(client, at: 200, 120)
        let top = menuColumns(client).first ?? []
        #expect(top.map(\.title).starts(with: ["ファイルを開く…", "最近使ったファイル", "ビデオ…", "ビデオを撮る…", "プレイリスト"]), "\(top.map(\.title))")
        let menu = dir.appendingPathComponent("menu.ppm").path
        _ = try grabSettled(app, 960, 540, to: menu)
        // Japanese has no spaces between words; tesseract puts some between characters.
        let text = try ocr(menu, "jpn").replacingOccurrences(of: " ", with: "")
        #expect(text.contains("プレイリスト") && text.contains("終了"), "OCR: \(text)")
    }

    /// A catalog without a string (its msgstr empty, as an unfinished
    /// translation has it): that row reads in English, the others in German;
    /// a language with no catalog at all reads in English.
    @Test func aMissingTranslationFallsBackToEnglish() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var dropped = false
        let localeDir = try catalogs("de", in: dir) { po in
            let changed = po.replacingOccurrences(of: "msgid \"Open file…\"\nmsgstr \"Datei öffnen…\"",
                                                  with: "msgid \"Open file…\"\nmsgstr \"\"")
            dropped = changed != po
            return changed
        }
        #expect(dropped, "po/de.po no longer has the entry this test drops")
        for (language, expected) in [("de", ["Open file…", "Zuletzt geöffnet"]), ("eo", ["Open file…", "Open recent"])] {
            let socket = dir.appendingPathComponent("\(language).sock").path
            let app = try translatedApp([], language, localeDir: localeDir, socket: socket)
            defer { app.stop() }
            app.waitForWindow()
            let client = try #require(app.control, "no control socket: \(app.errors)")
            try rightClick(client, at: 200, 120)
            let top = menuColumns(client).first ?? []
            #expect(top.map(\.title).starts(with: expected), "LANGUAGE=\(language): \(top.map(\.title))")
            #expect(!top.contains { $0.title.isEmpty }, "no empty row")
        }
    }
}

