// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Media

/// The camera and its recording's properties: `camera`, `recording` (setting it starts or
/// stops one, as `record` does), `recording-time` and `recording-path`.
extension PropertyTable {
    static let recordingProperties: [Property] = [
        // The focused tile's live device as FORMAT:URL (unavailable for a file): what R records.
        Property("camera", get: { t throws(CommandError) in
            guard let item = try t.item().info, item.isDevice, let device = LiveDevice(location: try t.item().name) else {
                throw .propertyUnavailable
            }
            return .string(device.format + ":" + device.url)
        }),
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
