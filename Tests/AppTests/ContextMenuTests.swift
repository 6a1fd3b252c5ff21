// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Playback
@testable import UI
import TestSupport

/// The context menu's one table: its commands read, input.conf's `#menu:`
/// lines extend it, and the menu made from it shows the properties' values
/// and the keys bound to the same commands, on real files.
@Suite struct ContextMenuTests {
    @Test func everyItemOfTheTableRunsACommandDeskPlayerHas() throws {
        for entry in FeatureRegistry.menuTable where !entry.isSeparator && entry.list == nil && !entry.path.isEmpty {
            let command = try Command(parsing: entry.command)
            #expect(try Command(parsing: command.text) == command, "\(entry.path): \(entry.command)")
        }
        let titles = Set(FeatureRegistry.menuTable.compactMap(\.path.first))
        for title in ["Open file…", "Open recent", "Playlist", "Audio track", "Subtitles", "Video", "Speed", "Loop",
                      "Compare", "Picture in Picture", "Screenshot", "Fullscreen", "Keys…", "Quit"] {
            #expect(titles.contains(title), "\(title)")
        }
        #expect(try Command(parsing: "context-menu Audio") == .contextMenu("Audio"))
        #expect(try Command(parsing: "open-files sub") == .openFiles(subtitles: true))
        #expect(KeyBindings.command(forKey: "MBTN_RIGHT") == .contextMenu(nil), "a right click is a binding, as in mpv")
    }

    /// mpv's input.conf menu comments: one line binds a key and adds an
    /// item for the same command; `_` adds the item alone; a known path gets
    /// the new command; bad lines are reported.
    @Test func inputConfMenuCommentsExtendTheTable() {
        let text = """
            Ctrl+t cycle-values video-zoom 1 0   #menu: Video > Zoom 2x
            _ set speed 3                        #menu: Speed > 3×
            _ set speed 1.75                     #menu: Speed > 1.5×
            _ frobnicate                         #menu: Video > Broken
            x cycle pause   # just a comment
            _ ignore                             #menu:
            """
        let (table, problems) = MenuTable.applying(inputConf: text, file: "input.conf", to: FeatureRegistry.menuTable)
        #expect(table.contains(MenuEntry(path: ["Video", "Zoom 2x"], command: "cycle-values video-zoom 1 0")))
        #expect(table.contains(MenuEntry(path: ["Speed", "3×"], command: "set speed 3")))
        #expect(table.filter { $0.path == ["Speed", "1.5×"] }.map(\.command) == ["set speed 1.75"], "replaced, not doubled")
        #expect(table.last?.path == ["Quit"], "user items go before the last group")
        #expect(problems == ["input.conf:4: menu item 'Video > Broken' has no command DeskPlayer knows",
                             "input.conf:6: '#menu:' names no item"])
        let (bindings, keyProblems) = KeyBindings.applying(inputConf: text, file: "input.conf", to: KeyBindings.defaults)
        #expect(KeyBindings.command(forKey: "Ctrl+t", in: bindings) == .cycleValues(property: "video-zoom", values: ["1", "0"]))
        #expect(KeyBindings.command(forKey: "_", in: bindings) == nil, "_ binds no key")
        #expect(keyProblems.isEmpty, "a _ line is the menu's to report")
    }

    /// The menu for a file with two audio tracks: the tracks with the
    /// selected one marked, the speed's value, flags checked, the keys of
    /// the same commands; Compare only while comparing; `context-menu
    /// Audio` opens that submenu alone; a chosen item runs its command.
    @Test func theMenuShowsTheValuesNowAndItsItemsRunTheirCommands() throws {
        let rig = try CommandTests.Rig([try VideoMedia.twoAudioTracks()])
        try rig.apply("context-menu", from: .mouse)
        let items = try #require(rig.screen.menuItems)
        #expect(!items.contains { $0.title == "Compare" }, "no comparison, no Compare menu")
        let audio = try #require(ContextMenuBuilder.submenu("Audio", in: items))
        #expect(audio.prefix(2).map(\.title) == ["1. English · eng · aac", "2. Français · fre · aac"])
        #expect(audio.prefix(2).map(\.mark) == [.radio(true), .radio(false)])
        let speed = try #require(ContextMenuBuilder.submenu("Speed", in: items))
        #expect(speed.first { $0.title == "Normal" }?.mark == .radio(true))
        #expect(speed.first { $0.title == "Normal" }?.shortcut == "BS", "the key bound to the same command")
        #expect(items.first { $0.title == "Screenshot" }?.shortcut == "s")
        #expect(items.first { $0.title == "Fullscreen" }?.mark == .check(false))

        // An item's command, run as the window hands it over.
        let french = try #require(audio[1].command)
        try rig.apply(french, from: .mouse)
        try rig.apply("set speed 1.5", from: .mouse)
        try rig.apply("context-menu audio", from: .mouse)
        let reopened = try #require(rig.screen.menuItems)
        #expect(reopened.prefix(2).map(\.mark) == [.radio(false), .radio(true)], "the submenu alone, French now chosen")
        #expect(try rig.controller.value(of: "aid") == .number(2))
        try rig.apply("context-menu", from: .mouse)
        let whole = try #require(rig.screen.menuItems)
        let after = try #require(ContextMenuBuilder.submenu("Speed", in: whole))
        // The rig is paused: `set pause yes` (editors' K) is what is now, as 1.5× is.
        #expect(after.filter { $0.mark == .radio(true) }.map(\.title) == ["1.5×", "Pause"])
        #expect(["Play backward (again: faster)", "Pause", "Play forward (again: faster)"].map { title in
            after.first { $0.title == title }?.shortcut ?? "" } == ["Alt+j", "Alt+k", "Alt+l"], "J/K/L's keys beside them")
        #expect(throws: CommandError.invalidParameter) { try rig.apply("context-menu Nowhere") }
    }

    /// Video ▸ Rotate: `set video-rotate 90` opens the file again turned,
    /// where it was and paused as it was; the menu marks the new turn.
    @Test func rotateTurnsThePlayingFileWhereItIs() throws {
        let rig = try CommandTests.Rig([try VideoMedia.rotated(0)])
        let tile = try #require(rig.tiles.tiles.first)
        try rig.apply("seek 1 absolute")
        _ = tile.player.update(at: HostTime.now())
        #expect(try rig.controller.value(of: "video-rotate") == .string("0"))
        try rig.apply("set video-rotate 90", from: .mouse)
        #expect(tile.player.currentItem?.waitUntilLoaded() == .readyToPlay)
        _ = tile.player.update(at: HostTime.now())
        let params = try rig.controller.value(of: "video-params")
        #expect(params["dw"] == .number(180) && params["dh"] == .number(320), "\(params.text)")
        #expect(try rig.controller.value(of: "video-rotate") == .string("90"))
        #expect(abs(tile.player.currentTime.seconds - 1) < 0.05 && tile.player.isPaused, "where it was, still paused")
        #expect(rig.screen.messages.last?.text == "Rotate: 90°")
        try rig.apply("context-menu \"Video > Rotate\"", from: .mouse)
        let rotate = try #require(rig.screen.menuItems)
        #expect(rotate.filter { $0.mark == .radio(true) }.map(\.title) == ["90°"])
        #expect(throws: CommandError.invalidParameter) { try rig.apply("set video-rotate 45") }
    }
}
