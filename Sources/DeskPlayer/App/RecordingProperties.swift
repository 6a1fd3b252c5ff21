// SPDX-License-Identifier: GPL-3.0-or-later
import Control

/// The camera recording's properties: `recording` (setting it starts or
/// stops one, as `record` does), `recording-time` and `recording-path`.
extension PropertyTable {
    static let recordingProperties: [Property] = [
        // Whether a recording runs, and its file (else the last one's).
        Property("recording", .flag, scope: .app, get: { t throws(CommandError) in
            .bool(t.controller.recording.isRecording)
        }, set: { t, v throws(CommandError) in
            guard try PropertyValue.flag(v) != t.controller.recording.isRecording else { return }
            try t.controller.recording.toggle(t.tile, controller: t.controller)
        }),
        Property("recording-time", format: .time, scope: .app, get: { t throws(CommandError) in
            guard let seconds = t.controller.recording.seconds else { throw .propertyUnavailable }
            return .number(seconds)
        }),
        Property("recording-path", scope: .app, get: { t throws(CommandError) in
            guard let path = t.controller.recording.path else { throw .propertyUnavailable }
            return .string(path)
        }),
    ]
}
