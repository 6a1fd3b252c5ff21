// SPDX-License-Identifier: GPL-3.0-or-later
import CGettext
import Glibc

/// The window's words in the user's language, through GNU gettext in glibc
/// (text domain "deskplayer", catalogs from po/). Only what a person reads
/// in the window goes through it: stderr, the command-line reference,
/// property names and socket values stay English, as mpv's do, so scripts
/// that read them work in every language.
package enum Localization {
    package static let domain = "deskplayer"
    /// Where the catalogs are, over the places found next to the binary (tests).
    package static let directoryVariable = "DESKPLAYER_LOCALEDIR"

    /// Once at start, before any text is made. Only LC_MESSAGES follows the
    /// environment: numbers, times and sorting stay C's, so "0.5" in an
    /// option, a config file or FFmpeg's and libass's parsers never reads
    /// as "0,5".
    package static func start() {
        setlocale(LC_MESSAGES, "")
        // glibc ignores LANGUAGE while LC_MESSAGES is "C" (LANG unset, as
        // under a service or a test runner). C.UTF-8 is the same locale
        // but lets LANGUAGE choose the language.
        let current = setlocale(LC_MESSAGES, nil).map { String(cString: $0) } ?? "C"
        if current == "C" || current == "POSIX", let language = getenv("LANGUAGE"), language.pointee != 0 {
            setlocale(LC_MESSAGES, "C.UTF-8")
        }
        if let directory = directory() { bindtextdomain(domain, directory) }
        // The catalogs' UTF-8 as is, whatever LC_CTYPE's character set
        // (in the "C" locale gettext would turn every accent into "?").
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }

    /// The catalogs' folder: $DESKPLAYER_LOCALEDIR; else share/locale beside
    /// the installed binary's bin/ (/usr/bin → /usr/share/locale); else the
    /// build tree's .build/locale that the Makefile fills (the binary is in
    /// .build/<triple>/debug); nil: glibc's own default.
    static func directory() -> String? {
        if let set = getenv(directoryVariable), set.pointee != 0 { return String(cString: set) }
        guard let binary = executablePath(), let slash = binary.lastIndex(of: "/") else { return nil }
        let folder = String(binary[..<slash])
        for candidate in [folder + "/../share/locale", folder + "/../../locale"] where isDirectory(candidate) {
            return candidate
        }
        return nil
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

/// `msgid` in the user's language, or as is where the catalog has no
/// translation (never empty). `msgid` must be a literal: po/update-pot.sh
/// finds them in the source (a format string with placeholders for the
/// parts that change, then `String(format:)`).
package func tr(_ msgid: String) -> String {
    // "" would look up the catalog's header.
    guard !msgid.isEmpty else { return msgid }
    // The result is the argument's own pointer when there is no
    // translation: read it while that pointer lives.
    return msgid.withCString { key in
        guard let found = dgettext(Localization.domain, key) else { return msgid }
        return String(cString: found)
    }
}

/// The form of `singular`/`plural` for `n` in the user's language (its
/// own number of forms: one in Japanese, three in Russian).
package func trn(_ singular: String, _ plural: String, _ n: Int) -> String {
    singular.withCString { one in
        plural.withCString { many in
            guard let found = dngettext(Localization.domain, one, many, UInt(clamping: max(n, 0))) else {
                return n == 1 ? singular : plural
            }
            return String(cString: found)
        }
    }
}

/// Marks a table's text for po/update-pot.sh without translating it here:
/// the table keeps the English key, what draws it calls `tr` (gettext's N_).
package func trNoop(_ msgid: String) -> String { msgid }
