// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
import TestSupport

/// The translations as files: every po/LL.po compiles (msgfmt --check) with
/// nothing untranslated or fuzzy, keeps its msgid's placeholders in order
/// (String(format:) reads them), the template holds what the sources mark,
/// every tr( key is a literal, and the desktop entry and the metainfo carry
/// each language. What the window shows is checked in ScreenTests+Translations.swift.
@Suite(.enabled(if: toolExists("msgfmt"), "needs gettext's msgfmt (make deps)"))
struct TranslationCatalogTests {
    static let languages = ["de", "es", "fr", "ja", "pt_BR", "ru", "zh_CN"]
    let po = Fixtures.root.appendingPathComponent("po")

    @Test func theCatalogsAreTheSevenLanguages() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: po.path).filter { $0.hasSuffix(".po") }.sorted()
        #expect(files == Self.languages.map { "\($0).po" })
    }

    @Test(arguments: languages)
    func eachCatalogCompilesWithEveryStringTranslated(_ language: String) throws {
        let result = try runTool("msgfmt", ["--check", "--statistics", "-o", "/dev/null", po.appendingPathComponent("\(language).po").path])
        #expect(result.status == 0, "\(result.stderr)")
        // "208 translated messages." alone: no "untranslated", no "fuzzy".
        let statistics = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(statistics.hasSuffix("translated messages.") && !statistics.contains(","), "\(language): \(statistics)")
    }

    @Test func theTemplateHoldsWhatTheSourcesMarkAndEachCatalogTranslatesIt() throws {
        let result = try runTool("sh", [po.appendingPathComponent("update-pot.sh").path, "--check"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// `%@`, `%d`, `%.2f`, `%%` in order: a translation that drops, adds or
    /// swaps one would print the wrong value or crash String(format:).
    @Test(arguments: languages)
    func eachTranslationKeepsItsPlaceholders(_ language: String) throws {
        let text = try String(contentsOf: po.appendingPathComponent("\(language).po"), encoding: .utf8)
        let entries = Self.entries(text)
        #expect(entries.count > 200)
        for entry in entries where !entry.id.isEmpty {
            for (i, translation) in entry.translations.enumerated() {
                let source = i == 0 ? entry.id : (entry.plural ?? entry.id)
                #expect(Self.placeholders(translation) == Self.placeholders(source),
                        "\(language): \"\(entry.id)\" → \"\(translation)\"")
            }
        }
    }

    /// gettext finds keys in the source text, so a key built at run time
    /// ("Volume \(n)") would never be translated: placeholders and
    /// String(format:) instead. A key that is not a literal is allowed only
    /// where it comes from a table marked with trNoop or the menu table.
    @Test func everyTranslationKeyIsALiteral() throws {
        let dynamicKeys: Set<String> = ["ContextMenuBuilder.swift", "MainWindowOverlays.swift"]
        let sources = Fixtures.root.appendingPathComponent("Sources/DeskPlayer")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var calls = 0
        let call = /\b(tr|trn|trNoop)\(/
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: call) {
                let rest = text[match.range.upperBound...]
                // The declarations in Localization.swift.
                if rest.hasPrefix("_ ") { continue }
                calls += 1
                if rest.hasPrefix("\"") {
                    let literal = rest.dropFirst().prefix { $0 != "\"" && $0 != "\n" }
                    #expect(!literal.contains("\\("), "\(file): tr(\"\(literal)…\") interpolates")
                } else {
                    #expect(dynamicKeys.contains((file as NSString).lastPathComponent),
                            "\(file): tr(\(rest.prefix(30))…) is not a literal")
                }
            }
        }
        #expect(calls > 100)
    }

    /// Each language's desktop entry lines and AppStream summary.
    @Test func theDesktopEntryAndTheMetainfoCarryEachLanguage() throws {
        let desktop = try String(contentsOf: Fixtures.root.appendingPathComponent("assets/deskplayer.desktop"), encoding: .utf8)
        let metainfo = try String(contentsOf: Fixtures.root.appendingPathComponent("assets/org.deskplayer.DeskPlayer.metainfo.xml"),
                                  encoding: .utf8)
        for language in Self.languages {
            for key in ["GenericName", "Comment", "Keywords"] {
                #expect(desktop.contains("\n\(key)[\(language)]="), "\(key)[\(language)]")
            }
            #expect(metainfo.contains("<summary xml:lang=\"\(language)\">"), "summary in \(language)")
        }
        if toolExists("desktop-file-validate") {
            let result = try runTool("desktop-file-validate", [Fixtures.root.appendingPathComponent("assets/deskplayer.desktop").path])
            #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stdout)\(result.stderr)")
        }
    }

    /// A .po file's entries: msgid, msgid_plural, msgstr or msgstr[N], each
    /// a run of quoted lines.
    static func entries(_ text: String) -> [(id: String, plural: String?, translations: [String])] {
        var out: [(id: String, plural: String?, translations: [String])] = []
        for block in text.components(separatedBy: "\n\n") {
            var fields: [(key: String, value: String)] = []
            for line in block.split(separator: "\n") where !line.hasPrefix("#") {
                if line.hasPrefix("\""), !fields.isEmpty {
                    fields[fields.count - 1].value += unquote(line)
                } else if let space = line.firstIndex(of: " ") {
                    fields.append((String(line[..<space]), unquote(line[line.index(after: space)...])))
                }
            }
            guard let id = fields.first(where: { $0.key == "msgid" })?.value else { continue }
            out.append((id, fields.first { $0.key == "msgid_plural" }?.value,
                        fields.filter { $0.key.hasPrefix("msgstr") }.map(\.value)))
        }
        return out
    }

    static func unquote(_ s: Substring) -> String {
        var body = s.trimmingCharacters(in: .whitespaces)
        guard body.count >= 2 else { return "" }
        body = String(body.dropFirst().dropLast())
        return body.replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
    }

    static func placeholders(_ s: String) -> [String] {
        s.matches(of: /%(\d+\$)?[-+ #0]*\d*(\.\d+)?(ld|lu|d|u|f|s|@|%)/).map { String(s[$0.range]) }
    }
}
