// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Output
import Playback
import Foundation
import Media
/// `scope`: none, histogram, waveform or vectorscope, of the focused tile's
/// picture (`cycle scope`, the `h` key, steps through them).
extension PropertyTable {
    static let scopeProperties: [Property] = [
        Property("scope", .choice(ScopeKind.allCases.map(\.rawValue)), scope: .app, get: { t throws(CommandError) in
            guard let scopes = t.controller.scopes else { throw .propertyUnavailable }
            return .string(scopes.kind.rawValue)
        }, set: { t, v throws(CommandError) in
            guard let scopes = t.controller.scopes else { throw .propertyUnavailable }
            let word: String
            switch v {
            case .bool(false): word = "none"
            default: word = try PropertyValue.word(v)
            }
            guard let kind = ScopeKind(rawValue: word == "no" ? "none" : word) else { throw .invalidParameter }
            scopes.show(kind)
        }, osd: { t in t.controller.scopes.map { String(format: tr("Scope: %@"), $0.kind.rawValue) } }),
        // Read-only, for tests and scripts: the time of the frame whose scope
        // the panel shows (a screen test waits for it after a seek).
        Property("scope-time", scope: .app, get: { t throws(CommandError) in
            guard let time = t.controller.scopes?.drawnTime else { throw .propertyUnavailable }
            return .number(time)
        }),
    ]
}
