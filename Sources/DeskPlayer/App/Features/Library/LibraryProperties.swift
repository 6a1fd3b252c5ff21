// SPDX-License-Identifier: GPL-3.0-or-later
import Control

/// The camera roll as properties: `library` (shown or not: `--library`,
/// Ctrl+L, the menu's "Videos…" and the socket all set it), and what it
/// holds: `library-count` (videos listed; unavailable until the first
/// listing is done) and `library-pictures` (how each picture came: from the
/// desktop's cache, made now, or not to be made; and how many it holds now),
/// `library-source` (the source shown: "all", "Videos", a phone's name).
enum LibraryProperties {
    static let all: [Property] = [
        Property("library", .flag, scope: .app, get: { t throws(CommandError) in
            guard let library = t.controller.library else { throw .propertyUnavailable }
            return .bool(library.isOpen)
        }, set: { t, v throws(CommandError) in
            guard let library = t.controller.library else { throw .propertyUnavailable }
            try PropertyValue.flag(v) ? library.open() : library.close()
        }),
        Property("library-count", format: .integer, scope: .app, get: { t throws(CommandError) in
            guard let count = t.controller.library?.count else { throw .propertyUnavailable }
            return .number(Double(count))
        }),
        Property("library-source", scope: .app, get: { t throws(CommandError) in
            guard let source = t.controller.library?.source else { throw .propertyUnavailable }
            return .string(source)
        }, set: { t, v throws(CommandError) in
            guard let library = t.controller.library else { throw .propertyUnavailable }
            try library.showSource(try PropertyValue.word(v))
        }),
        Property("library-pictures", scope: .app, get: { t throws(CommandError) in
            guard let counts = t.controller.library?.pictureCounts, let held = t.controller.library?.picturesHeld
            else { throw .propertyUnavailable }
            return .object([("cached", .number(Double(counts.cached))), ("made", .number(Double(counts.made))),
                            ("failed", .number(Double(counts.failed))), ("held", .number(Double(held)))])
        }),
    ]
}
