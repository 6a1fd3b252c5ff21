// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI

/// The main window's desktop parts as properties: the playlist panel
/// (`playlist-panel`, which its button, F8 and the socket all set), and the
/// UI scale it draws at (`ui-scale`, read only: `--ui-scale`, Xft.dpi or the
/// display's DPI).
enum DesktopProperties {
    static let all: [Property] = [
        Property("playlist-panel", .flag, scope: .app, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .bool(screen.showsPlaylistPanel)
        }, set: { t, v throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            screen.showsPlaylistPanel = try PropertyValue.flag(v)
        }),
        Property("ui-scale", .number(UIScale.range), scope: .app, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .number(screen.uiScale)
        }),
    ]
}
