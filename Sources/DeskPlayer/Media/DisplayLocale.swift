// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

extension Locale {
    /// The locale numbers a person reads in the window are written in:
    /// "Speed 1,50×" under de_DE, "Volume 80 %" either way. Taken from
    /// LC_ALL, else LC_NUMERIC, else LANG, as the C library reads them; the
    /// C library's own LC_NUMERIC stays "C" (`Localization.start`), so
    /// options, files and the socket's values keep their "0.5". Only
    /// `String(format:locale:)` of a window's line uses it.
    package static let display = Locale(identifier: numericLocaleName(ProcessInfo.processInfo.environment))

    /// "de_DE" for LANG=de_DE.UTF-8 (LC_ALL over LC_NUMERIC over LANG, the
    /// first set); "en_US_POSIX" (a point, no grouping) for C, POSIX or none.
    package static func numericLocaleName(_ environment: [String: String]) -> String {
        let set = ["LC_ALL", "LC_NUMERIC", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        let name = String(set.prefix { $0 != "." && $0 != "@" })
        return name.isEmpty || name == "C" || name == "POSIX" ? "en_US_POSIX" : name
    }
}
