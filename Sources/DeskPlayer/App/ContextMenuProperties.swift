// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI

/// `context-menu-items`: the context menu's open columns, each a list of
/// its rows (title, place in window pixels, mark, whether chosen, enabled,
/// a submenu): [] while it is closed. Screen tests find a row's place here
/// before they move the pointer to it, as a person finds it by eye.
extension PropertyTable {
    static let menuProperties: [Property] = [
        Property("context-menu-items", scope: .app, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .array((screen.menu?.snapshot ?? []).map { rows in
                .array(rows.map { row in
                    let mark: (String, Bool) = switch row.mark {
                    case .none: ("", false)
                    case .check(let on): ("check", on)
                    case .radio(let on): ("radio", on)
                    }
                    return .object([("title", .string(row.title)), ("x", .number(Double(row.rect.x))),
                                    ("y", .number(Double(row.rect.y))), ("width", .number(Double(row.rect.width))),
                                    ("height", .number(Double(row.rect.height))), ("mark", .string(mark.0)),
                                    ("checked", .bool(mark.1)), ("enabled", .bool(row.enabled)),
                                    ("selected", .bool(row.selected)), ("submenu", .bool(row.submenu))])
                })
            })
        }),
    ]
}
