// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
import TestSupport

/// The one binding table: input.conf over it, and the help made from it.
@Suite struct KeyBindingTests {
    static let pause = Command.cycle(property: "pause", down: false)

    @Test func everyCommandReadsBackFromItsName() throws {
        for binding in FeatureRegistry.keyBindings {
            #expect(binding.command != .ignore, "\(binding.key)'s default command reads")
            #expect(try Command(parsing: binding.command.text) == binding.command, "\(binding.command.text)")
            #expect(KeyBindings.isKeyName(binding.key), "\(binding.key)")
        }
        #expect(try Command(parsing: "seek  -5   relative") == .seek(-5, .relative))
        #expect(try Command(parsing: "add volume -3") == .add(property: "volume", by: -3))
        #expect(try Command(parsing: "multiply speed 1/1.1") == .multiply(property: "speed", by: 1 / 1.1))
        #expect(try Command(parsing: "cycle-values loop-file \"inf\" \"no\"") == .cycleValues(property: "loop-file", values: ["inf", "no"]))
        #expect(try Command(parsing: "seek 5 absolute+exact") == .seek(5, .absolute))
        #expect(throws: CommandError.invalidParameter) { try Command(parsing: "seek ten") }
        #expect(throws: CommandError.invalidParameter) { try Command(parsing: "seek 5 sideways") }
        #expect(throws: CommandError.invalidParameter) { try Command(parsing: "frobnicate") }
        #expect(throws: CommandError.invalidParameter) { try Command(parsing: "cycle") }
        // Every command in the table has a name a client can call, and reads from it.
        for spec in CommandSpec.all {
            #expect(CommandSpec.named(spec.name)?.name == spec.name)
        }
    }

    @Test func everyPropertyInTheTableIsNamedOnceAndListed() {
        let names = PropertyTable.all.map(\.name)
        #expect(Set(names).count == names.count, "a property is one entry")
        for name in ["pause", "time-pos", "volume", "mute", "loop-file", "aid", "sid", "sub-delay", "sub-visibility",
                     "fullscreen", "playlist-pos", "property-list", "command-list"] {
            #expect(PropertyTable.named(name) != nil, "\(name)")
        }
        #expect(PropertyTable.named("sub")?.name == "sid", "mpv's alias")
    }

    @Test func inputConfRebindsUnbindsAndReportsBadLines() {
        let text = """
            # my keys
            x cycle pause
            RIGHT seek 10     # further
            Ctrl+q quit
            q ignore

            WHAT seek 5
            y frobnicate
            z
            """
        let (table, problems) = KeyBindings.applying(inputConf: text, file: "input.conf", to: KeyBindings.defaults)
        #expect(KeyBindings.command(forKey: "x", in: table) == Self.pause)
        #expect(KeyBindings.command(forKey: "RIGHT", in: table) == .seek(10, .relative))
        #expect(KeyBindings.command(forKey: "Ctrl+q", in: table) == .quit)
        #expect(KeyBindings.command(forKey: "q", in: table) == nil)
        #expect(KeyBindings.command(forKey: "SPACE", in: table) == Self.pause, "the rest of the defaults stay")
        #expect(problems == ["input.conf:7: unknown key 'WHAT'", "input.conf:8: unknown command 'frobnicate'",
                             "input.conf:9: 'z' has no command"])
        #expect(table.filter { $0.key == "RIGHT" }.count == 1, "a key has one binding")
    }

    /// mpv's `{section}` prefix binds a key in the Picture in Picture window
    /// only; there the main section's keys still work unless overridden.
    @Test func thePipSectionOverridesTheMainOneInItsWindow() {
        let text = "{pip} ESC quit\n{pip} m cycle pause\n{nowhere} x quit\nSHARP cycle sub  # audio was here\n"
        let (table, problems) = KeyBindings.applying(inputConf: text, file: "input.conf", to: KeyBindings.defaults)
        #expect(KeyBindings.command(forKey: "ESC", in: table, section: .pip) == .quit)
        #expect(KeyBindings.command(forKey: "ESC", in: table) == .set(property: "fullscreen", value: .string("no")))
        #expect(KeyBindings.command(forKey: "m", in: table, section: .pip) == Self.pause)
        #expect(KeyBindings.command(forKey: "m", in: table) == .cycle(property: "mute", down: false))
        #expect(KeyBindings.command(forKey: "f", in: table, section: .pip) == .cycle(property: "fullscreen", down: false))
        #expect(KeyBindings.command(forKey: "SHARP", in: table) == .cycle(property: "sub", down: false))
        #expect(problems == ["input.conf:3: unknown section '{nowhere}'"])
    }

    @Test func helpListsEveryBindingOnce() {
        let (table, _) = KeyBindings.applying(inputConf: "x cycle pause\nF5 seek 30\n", file: "input.conf",
                                              to: KeyBindings.defaults)
        let lines = KeyBindings.helpLines(table)
        for binding in table {
            let shown = KeyBindings.displayName(binding.key, binding.section)
            let holding = lines.filter { $0.keys.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .contains(shown) }
            #expect(holding.count == 1, "\(shown) is listed once")
            #expect(holding.first?.help == table.first { $0.command == binding.command && $0.section == binding.section }?.help)
        }
        #expect(lines.contains { $0.keys == "SPACE, p, x" && $0.help == "pause / play" })
        #expect(lines.contains { $0.keys == "F5" && $0.help == "seek 30" })
    }

    @Test func configOptionsAreCheckedLineByLine() {
        let text = "# defaults\nvolume=50\nmute\n--pause\nvolume=500\nno-such-option=1\n"
        let (arguments, problems) = ConfigFiles.optionArguments(text, file: "deskplayer.conf") { option in
            do { _ = try DeskPlayerCommand.parseAsRoot(option); return nil } catch {
                return DeskPlayerCommand.message(for: error)
            }
        }
        #expect(arguments == ["--volume=50", "--mute", "--pause"])
        #expect(problems.count == 2)
        #expect(problems.first?.hasPrefix("deskplayer.conf:5: ") == true && problems.first?.contains("volume") == true)
        #expect(problems.last?.hasPrefix("deskplayer.conf:6: ") == true && problems.last?.contains("no-such-option") == true)
    }
}

/// The built-in file browser and the recent-files list.
@Suite struct OpeningTests {
    @Test func theBrowserListsFoldersFirstAndWalksTheTree() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        try fm.createDirectory(at: dir.appendingPathComponent("b-folder"), withIntermediateDirectories: true)
        try fm.createDirectory(at: dir.appendingPathComponent(".hidden"), withIntermediateDirectories: true)
        for name in ["z.mp4", "a.mp3", "file10.flac", "file9.flac"] {
            try Data().write(to: dir.appendingPathComponent(name))
        }
        try Data().write(to: dir.appendingPathComponent("b-folder/inner.wav"))
        var browser = FileBrowser(folder: dir)
        #expect(browser.entries.map(\.label) == ["../", "b-folder/", "a.mp3", "file9.flac", "file10.flac", "z.mp4"])
        let entered = browser.open(1)
        #expect(entered == nil, "a folder is entered")
        #expect(browser.entries.map(\.label) == ["../", "inner.wav"])
        let inner = browser.open(1)
        #expect(inner?.path == dir.appendingPathComponent("b-folder/inner.wav").standardizedFileURL.path)
        browser.goUp()
        #expect(browser.folder.path == dir.standardizedFileURL.path)
        let last = browser.open(5)
        #expect(last?.lastPathComponent == "z.mp4")
    }

    @Test func recentFilesAreNewestFirstWithoutRepeats() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("state/recent.json")
        var recent = RecentFiles(url: url)
        for i in 0..<25 { _ = recent.add("/media/\(i).mp4") }
        let moved = recent.add("/media/3.mp4"), again = recent.add("/media/3.mp4")
        #expect(moved)
        #expect(!again, "already first: nothing to write")
        try recent.save()
        let loaded = RecentFiles(url: url)
        #expect(loaded.paths.count == RecentFiles.limit)
        #expect(loaded.paths.prefix(3) == ["/media/3.mp4", "/media/24.mp4", "/media/23.mp4"])
        #expect(Set(loaded.paths).count == loaded.paths.count)
    }
}
