// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
import TestSupport

/// The small things of a desktop app, checked without a process: the
/// desktop entry, the command line's idle modes, title expansion, D-Bus values.
@Suite struct DesktopTests {
    static func desktopEntry() throws -> [String: String] {
        let text = try String(contentsOfFile: Fixtures.root.appendingPathComponent("assets/deskplayer.desktop").path, encoding: .utf8)
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return fields
    }

    @Test func theDesktopEntryStartsTheIdleWindowAndListsWhatMPRISSays() throws {
        let entry = try DesktopTests.desktopEntry()
        let exec = try #require(entry["Exec"]).split(separator: " ").map(String.init)
        #expect(exec == ["deskplayer", "--player-operation-mode=pseudo-gui", "--", "%F"])
        let options = try DeskPlayerCommand.parse(Array(exec.dropFirst().dropLast()))
        #expect(options.idleMode == .yes && options.files.isEmpty)
        let types = try #require(entry["MimeType"]).split(separator: ";").map(String.init)
        #expect(types == MPRISProperties.mimeTypes)
    }

    @Test func idleModesFollowMpv() throws {
        func mode(_ arguments: [String]) throws -> IdleMode {
            try DeskPlayerCommand.parse(DeskPlayerCommand.bareIdle(arguments)).idleMode
        }
        #expect(try mode([]) == .yes, "nothing to play: the window waits")
        #expect(try mode(["a.mp4"]) == .no, "a terminal launch with files quits at the end")
        #expect(try mode(["--player-operation-mode=pseudo-gui", "a.mp4"]) == .yes)
        #expect(try mode(["--idle", "a.mp4"]) == .yes, "a bare --idle is yes, as in mpv")
        #expect(try mode(["--idle", "once"]) == .once)
        #expect(try mode(["--idle=no"]) == .no)
        #expect(try DeskPlayerCommand.parse(DeskPlayerCommand.bareIdle(["--", "--idle"])).files == ["--idle"])
        #expect(throws: (any Error).self) { try DeskPlayerCommand.parse(["--idle=sometimes"]) }
    }

    @Test func titlesExpandPropertiesAsMpvDoes() {
        let values = ["media-title": "Song", "pause": "no"]
        let raw = ["speed": "1.500000"], shown = ["speed": "1.50"]
        func expand(_ template: String) -> String {
            WindowTitle.expand(template) { name, isRaw in
                if let v = values[name] ?? (isRaw ? raw : shown)[name] { return .value(v) }
                return name == "chapter" ? .unavailable : .unknown
            }
        }
        #expect(expand(WindowTitle.standard) == "Song - DeskPlayer")
        #expect(WindowTitle.expand(WindowTitle.standard) { _, _ in .unavailable } == "DeskPlayer")
        #expect(expand("${media-title} [${pause}]") == "Song [no]")
        #expect(expand("${speed} ${=speed}") == "1.50 1.500000", "${=NAME} is the raw value, as mpv's")
        #expect(expand("${chapter} ${no-such-thing}") == "(unavailable) (error)")
        #expect(expand("${chapter:none}|${?chapter:ch}|${!chapter:no chapter}|${?pause:${media-title}!}") == "none||no chapter|Song!")
        #expect(expand("$$5 ${media-title") == "$5 ${media-title")
        // The conditions a shell client's status line uses (mpv's whole syntax).
        #expect(expand("${?pause==no:▶}${?pause==yes:⏸}${!pause==yes:playing}${!chapter==1:x}") == "▶playingx")
        #expect(expand("${?speed==1.500000:fast}${?speed==1.50:shown}") == "fast", "compared with the raw value")
        // Nesting is bounded: a hostile template gives up past the limit instead of the stack.
        let deep = String(repeating: "${?pause:", count: 5000) + "x" + String(repeating: "}", count: 5000)
        #expect(expand(deep).isEmpty)
        let shallow = String(repeating: "${?pause:", count: 5) + "x" + String(repeating: "}", count: 5)
        #expect(expand(shallow) == "x")
    }

    @Test func dbusValuesSurviveAMessage() throws {
        let message = try #require(DBusMessage(signalFrom: "/org/mpris/MediaPlayer2", interface: "org.example.Test", member: "Values"))
        let values: [DBusValue] = [
            .string("naïve \u{1F3B5}"), .objectPath("/org/mpris/MediaPlayer2/deskplayer/track/3"), .bool(true),
            .int64(-12_000_000), .double(0.25), .uint32(7),
            .variant(.dictionary([.init("xesam:artist", .array(elementSignature: "s", [.string("A"), .string("B")])),
                                  .init("mpris:length", .int64(30_000_000))])),
            .array(elementSignature: "s", []),
        ]
        #expect(message.append(values))
        #expect(message.signature == "sobxduvas")
        let read = message.arguments
        #expect(read.count == values.count)
        #expect(Array(read.prefix(6)) == Array(values.prefix(6)))
        // Dictionaries and arrays are not read back (no call takes them); their signature is kept.
        #expect(read.last == .unsupported(signature: "as"))
        // A value whose type does not fit its array is refused, not sent half-written.
        let bad = try #require(DBusMessage(signalFrom: "/x", interface: "org.example.Test", member: "Bad"))
        #expect(!bad.append([.array(elementSignature: "s", [.int32(1)])]))
    }
}
