// SPDX-License-Identifier: GPL-3.0-or-later

/// The camera's recordings between commands: what the recorder finished,
/// said to the socket's clients.
final class RecordingFeature: AppFeature {
    init(_ core: AppCore) {}

    /// `record`, the recording's path, size and length.
    static var properties: [Property] { PropertyTable.recordingProperties }

    func update(_ core: AppCore, at now: UInt64) {
        let recording = core.controller.recording
        recording.update(core.controller)
        for event in recording.takeEvents() { core.broadcast(event.name, event.fields) }
        // The recorded tile's bar shows stop on its record button.
        let recorded = recording.recordingPlayer.map(ObjectIdentifier.init)
        if let window = core.window, window.recordingPlayer != recorded { window.recordingPlayer = recorded }
    }

    /// Looked at often while it records: the recorder does not wake the loop.
    func nextDeadline(_ core: AppCore, at now: UInt64) -> Double? { isAtRest(core) ? nil : lookInterval }

    func isAtRest(_ core: AppCore) -> Bool { !core.controller.recording.isRecording }

    func finish(_ core: AppCore) { core.controller.recording.stop() }
}
