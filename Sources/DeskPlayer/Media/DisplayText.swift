// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Times and media names as a person reads them: one spelling for the
/// tiles, the control bar, the window title, messages and errors, whichever
/// layer writes them.
package enum DisplayText {
    /// "mm:ss", or "h:mm:ss" from an hour on; negative times read as zero.
    package static func clock(_ seconds: Double) -> String {
        let s = Int(saturating: max(0, seconds))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
            : String(format: "%02d:%02d", s / 60, s % 60)
    }

    /// Text that came from outside (a path, a device name, a request) cut to
    /// `limit` characters, its middle replaced by "…": an error about a 70 kB
    /// name stays one line a person can read, and the OSD does not lay out
    /// a 70 kB line.
    package static func bounded(_ text: String, limit: Int = 400) -> String {
        guard text.count > limit else { return text }
        let keep = max(limit / 2 - 1, 1)
        return String(text.prefix(keep)) + "…" + String(text.suffix(keep))
    }

    /// The last component of a path or URL (the file's name).
    package static func shortName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// What a person calls a piece of music, from its tags: "Title — Artist
    /// — Album", the file's name standing in for a missing title, and a
    /// part without its tag left out.
    package static func trackLine(tags: [String: String], name: String) -> String {
        func tag(_ key: String) -> String? {
            tags[key].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        return ([tag("title") ?? shortName(name)] + [tag("artist"), tag("album")].compactMap { $0 }).joined(separator: " — ")
    }
}
