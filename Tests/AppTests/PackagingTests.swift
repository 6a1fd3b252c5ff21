// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Output
@testable import Playback
@testable import UI
import TestSupport

/// What `make install` and `make deb` install beside the binary, checked the
/// quick way (each test runs in about a second): the version and commit
/// `--version` names, the completion scripts the binary writes (through the
/// shells that load them), and the desktop entry and AppStream metainfo
/// through their validators. `make deb` checks the package itself (lintian).
@Suite struct PackagingTests {
    /// The version in the first entry of packaging/debian/changelog, read here
    /// on its own rather than through the build plugin that embeds it.
    static func changelogVersion() throws -> String {
        let changelog = try String(contentsOfFile: Fixtures.root.appendingPathComponent("packaging/debian/changelog").path,
                                   encoding: .utf8)
        let first = try #require(changelog.split(separator: "\n").first)
        let open = try #require(first.firstIndex(of: "(")), close = try #require(first.firstIndex(of: ")"))
        return String(first[first.index(after: open)..<close])
    }

    @Test func versionNamesTheChangelogVersionAndTheCommit() throws {
        let version = try Self.changelogVersion()
        #expect(DeskPlayerCommand.version == version)
        let r = try runProcess(Fixtures.binary, ["--version"], timeout: 10)
        #expect(r.status == 0, "\(r.stderr)")
        let line = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let git = try runTool("git", ["-C", Fixtures.root.path, "rev-parse", "--short=12", "HEAD"], timeout: 10)
        if git.status == 0 {
            // The binary was built from HEAD, or from HEAD with uncommitted changes.
            let commit = git.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(line == "\(version) (commit \(commit))" || line == "\(version) (commit \(commit)-dirty)", "\(line)")
        } else {
            #expect(line == "\(version) (commit unknown)", "\(line)")
        }
    }

    /// The binary's completion script for `shell`, written to `dir`.
    func completionScript(_ shell: String, in dir: URL) throws -> String {
        let r = try runProcess(Fixtures.binary, ["--no-config", "--generate-completion-script", shell], timeout: 10)
        #expect(r.status == 0, "\(r.stderr)")
        let path = dir.appendingPathComponent("completion.\(shell)").path
        try Data(r.stdout.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Bash and fish are asked what they would offer after `deskplayer --content-m`
    /// and after `deskplayer --content-mode `: the option, then its values.
    @Test func bashCompletesOptionsAndTheirValues() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try completionScript("bash", in: dir)
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try runTool("bash", ["-c", """
                source '\(script)'
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
                COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
                _deskplayer deskplayer "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """], timeout: 10)
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["deskplayer", "--content-m"]) == ["--content-mode"])
        #expect(try complete(["deskplayer", "--content-mode", ""]) == ["fit", "fill", "stretch"])
    }

    @Test func fishCompletesOptionsAndTheirValues() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try completionScript("fish", in: dir)
        func complete(_ line: String) throws -> [String] {
            let r = try runTool("fish", ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"], timeout: 10)
            #expect(r.status == 0, "\(r.stderr)")
            // Each line is the candidate, a tab, its description.
            return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("deskplayer --content-m") == ["--content-mode"])
        #expect(try complete("deskplayer --content-mode ") == ["fit", "fill", "stretch"])
    }

    /// zsh's completion system needs an interactive shell to be driven; the
    /// script is checked by zsh's parser and for the options it offers.
    @Test func zshCompletionParsesAndNamesTheOptions() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = try completionScript("zsh", in: dir)
        let r = try runTool("zsh", ["-n", script], timeout: 10)
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOfFile: script, encoding: .utf8)
        #expect(text.hasPrefix("#compdef deskplayer"))
        for option in ["--content-mode", "--volume", "--pip-auto", "--input-ipc-server"] {
            #expect(text.contains(option), "\(option)")
        }
        #expect(text.contains("('fit' 'fill' 'stretch')"), "the content modes are offered")
    }

    @Test func desktopEntryAndMetainfoValidate() throws {
        let desktop = Fixtures.asset("deskplayer.desktop")
        let entry = try runTool("desktop-file-validate", [desktop], timeout: 10)
        #expect(entry.status == 0 && entry.stdout.isEmpty && entry.stderr.isEmpty, "\(entry.stdout)\(entry.stderr)")
        let metainfo = Fixtures.asset("org.deskplayer.DeskPlayer.metainfo.xml")
        let info = try runTool("appstreamcli", ["validate", "--no-net", metainfo], timeout: 30)
        #expect(info.status == 0, "\(info.stdout)\(info.stderr)")
        // The metainfo names the desktop entry that is installed, whose icon is the one installed.
        let text = try String(contentsOfFile: metainfo, encoding: .utf8)
        #expect(text.contains("<launchable type=\"desktop-id\">deskplayer.desktop</launchable>"))
        #expect(try String(contentsOfFile: desktop, encoding: .utf8).contains("\nIcon=deskplayer\n"))
        #expect(FileManager.default.fileExists(atPath: Fixtures.asset("deskplayer.svg")))
    }
}
