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

    /// The metainfo that is installed gets its <releases> from the changelog
    /// (packaging/metainfo.sh, run by `make install` and `make deb`): one per
    /// entry, the newest the version `--version` names, with its date; and it
    /// passes appstreamcli's pedantic check, whose one note is the capitals in
    /// the id (org.deskplayer.DeskPlayer, which is kept).
    @Test func installedMetainfoHasTheChangelogReleasesAndValidatesPedantically() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let changelog = Fixtures.root.appendingPathComponent("packaging/debian/changelog").path
        let out = dir.appendingPathComponent("org.deskplayer.DeskPlayer.metainfo.xml").path
        let made = try runTool("sh", [Fixtures.root.appendingPathComponent("packaging/metainfo.sh").path, changelog,
                                      Fixtures.asset("org.deskplayer.DeskPlayer.metainfo.xml"), out], timeout: 10)
        #expect(made.status == 0, "\(made.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        let entries = try String(contentsOfFile: changelog, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("deskplayer (") }.count
        #expect(entries > 0 && text.components(separatedBy: "<release ").count - 1 == entries)
        let version = try Self.changelogVersion()
        let first = try #require(text.range(of: "<release ")).lowerBound
        #expect(text[first...].hasPrefix("<release version=\"\(version)\" date=\"20"), "\(text[first...].prefix(60))")
        let check = try runTool("appstreamcli", ["validate", "--pedantic", "--no-net", out], timeout: 30)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let notes = (check.stdout + check.stderr).split(separator: "\n").filter { $0.range(of: "^[EWIP]: ", options: .regularExpression) != nil }
        #expect(notes.count == 1 && notes.first?.contains("cid-contains-uppercase-letter") == true, "\(notes)")
        #expect(text.contains("<project_license>GPL-3.0-or-later</project_license>"))
        // The screenshots it names are the ones in the repository.
        for name in ["playing", "comparing", "tiles", "pip"] {
            #expect(text.contains("/screenshots/\(name).jpg</image>"), "\(name)")
            #expect(FileManager.default.fileExists(atPath: Fixtures.root.appendingPathComponent("docs/screenshots/\(name).jpg").path))
        }
    }

    /// Every source file says its licence in an SPDX line at its top (after
    /// the swift-tools-version line or a shebang, which must stay first).
    @Test func everySourceFileHasTheSPDXLine() throws {
        var files: [URL] = [Fixtures.root.appendingPathComponent("Package.swift"), Fixtures.root.appendingPathComponent("Makefile"),
                            Fixtures.root.appendingPathComponent(".ci/run")]
        for folder in ["Sources", "Tests", "Plugins", "packaging", "bench", "assets"] {
            let base = Fixtures.root.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walk where ["swift", "sh", "py", "h", "c"].contains(url.pathExtension) {
                files.append(url)
            }
        }
        #expect(files.count > 250)
        var missing: [String] = []
        for file in files {
            let head = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
            let spdx = head.prefix(2).contains { $0.contains("SPDX-License-Identifier: GPL-3.0-or-later") }
            if !spdx { missing.append(file.path) }
        }
        #expect(missing.isEmpty, "\(missing)")
        let manifest = try String(contentsOfFile: Fixtures.root.appendingPathComponent("Package.swift").path, encoding: .utf8)
        #expect(manifest.hasPrefix("// swift-tools-version:"))
        let licence = try String(contentsOfFile: Fixtures.root.appendingPathComponent("LICENSE").path, encoding: .utf8)
        #expect(licence.contains("GNU GENERAL PUBLIC LICENSE") && licence.contains("Version 3, 29 June 2007"))
    }

    /// The README stays short and keeps its two commands; every link in it
    /// and in docs/ reaches a file of the repository, and an anchor a
    /// heading of that file (GitHub's rule for heading ids).
    @Test func readmeIsShortAndDocsLinksResolve() throws {
        let readme = try String(contentsOfFile: Fixtures.root.appendingPathComponent("README.md").path, encoding: .utf8)
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 150)
        #expect(readme.contains("make run ") && readme.contains("make test "))
        let docs = Fixtures.root.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
            .map { docs.appendingPathComponent($0) }
        #expect(pages.count >= 10)
        func withoutCode(_ text: String) -> String {
            text.replacingOccurrences(of: "```[\\s\\S]*?```", with: "", options: .regularExpression)
        }
        func slug(_ heading: String) -> String {
            heading.trimmingCharacters(in: .whitespaces).lowercased()
                .replacingOccurrences(of: "[^\\w\\- ]", with: "", options: .regularExpression)
                .replacingOccurrences(of: " ", with: "-")
        }
        var broken: [String] = []
        var links = 0
        for page in [Fixtures.root.appendingPathComponent("README.md")] + pages {
            let text = withoutCode(try String(contentsOf: page, encoding: .utf8))
            let regex = try NSRegularExpression(pattern: "\\]\\(([^)\\s]+)\\)")
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                let target = String(text[range])
                if target.range(of: "^[a-z]+:", options: .regularExpression) != nil { continue }
                links += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(parts[0]).standardized
                guard FileManager.default.fileExists(atPath: file.path) else { broken.append("\(page.lastPathComponent): \(target)"); continue }
                if parts.count == 2 {
                    let headings = withoutCode(try String(contentsOf: file, encoding: .utf8)).split(separator: "\n")
                        .filter { $0.hasPrefix("#") }.map { slug(String($0.drop { $0 == "#" })) }
                    if !headings.contains(parts[1]) { broken.append("\(page.lastPathComponent): \(target)") }
                }
            }
        }
        #expect(links > 20)
        #expect(broken.isEmpty, "\(broken)")
    }
}
