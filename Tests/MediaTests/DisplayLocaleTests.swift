// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Media

/// Numbers in the window follow the user's locale (issue 55); the C
/// library's stay C's.
@Suite struct DisplayLocaleTests {
    @Test func theLocaleComesFromLCAllThenLCNumericThenLang() {
        #expect(Locale.numericLocaleName(["LANG": "de_DE.UTF-8"]) == "de_DE")
        #expect(Locale.numericLocaleName(["LANG": "de_DE.UTF-8", "LC_NUMERIC": "fr_FR.UTF-8"]) == "fr_FR")
        #expect(Locale.numericLocaleName(["LANG": "de_DE.UTF-8", "LC_NUMERIC": "fr_FR", "LC_ALL": "ru_RU.UTF-8"]) == "ru_RU")
        #expect(Locale.numericLocaleName(["LANG": "sr_RS@latin"]) == "sr_RS")
        #expect(Locale.numericLocaleName(["LANG": "C.UTF-8"]) == "en_US_POSIX")
        #expect(Locale.numericLocaleName(["LC_ALL": "", "LANG": "POSIX"]) == "en_US_POSIX")
        #expect(Locale.numericLocaleName([:]) == "en_US_POSIX")
    }

    /// A window's line as `String(format:locale:)` writes it in each; the C library's printf is unchanged.
    @Test func aWindowsNumberIsWrittenAsTheLocaleWritesIt() {
        func speed(_ lang: String) -> String {
            String(format: "Speed %.2f×", locale: Locale(identifier: Locale.numericLocaleName(["LANG": lang])), 1.5)
        }
        #expect(speed("de_DE.UTF-8") == "Speed 1,50×")
        #expect(speed("fr_FR.UTF-8") == "Speed 1,50×")
        #expect(speed("ja_JP.UTF-8") == "Speed 1.50×")
        #expect(speed("C") == "Speed 1.50×")
        #expect(String(format: "%.1f", 0.5) == "0.5", "the C library's numbers stay C's")
    }
}
