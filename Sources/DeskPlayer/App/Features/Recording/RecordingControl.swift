// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Playback

/// `record` (R): records the focused tile's camera into
/// `--record-to` or `$XDG_VIDEOS_DIR/DeskPlayer` as
/// `Video YYYY-MM-DD HH-MM-SS.mp4`, by a `CameraRecorder` on its own
/// thread; each turn of the main loop shows the elapsed time and size on
/// the OSD and, when the recording ends (stopped, or the camera ended),
/// says so and plays the new file in the same tile. `recording` and
/// `recording-path` read it; clients get `recording-started` and
/// `recording-stopped`. Main thread.
final class RecordingControl {
    /// Where recordings are written.
    var folder = UserDirectories.videos().appendingPathComponent("DeskPlayer")
    /// The microphone recorded with the camera (nil: picture only).
    var microphone: LiveDevice?
    private var recorder: CameraRecorder?
    private var capture: MicrophoneCapture?
    /// The microphone's failure was said (once per recording).
    private var saidMicrophoneProblem = false
    /// The tile whose camera is recorded: the take plays there afterwards.
    private weak var tile: Tile?
    private var lastShown: UInt64 = 0
    /// The latest recording's file (the one being written, else the last written).
    private(set) var path: String?
    /// Events for the control socket's clients, taken each turn.
    private var events: [(name: String, fields: [(String, JSONValue)])] = []

    var isRecording: Bool { recorder != nil }
    /// Seconds recorded so far (nil: not recording).
    var seconds: Double? { recorder?.progress.seconds }

    deinit {
        capture?.stop()
        recorder?.stop()
    }

    /// Starts a recording of `tile`'s camera, or stops the one running.
    func toggle(_ tile: Tile?, controller: CommandController) throws(CommandError) {
        if let recorder {
            capture?.stop()
            recorder.stop()
            controller.osd("Stopping the recording…", seconds: 2, topic: "record")
            return
        }
        guard let tile, let item = tile.player.currentItem else {
            say("record: no camera to record (open one with --camera)", controller)
            throw .propertyUnavailable
        }
        guard item.info?.isDevice == true else {
            say("record: only a camera can be recorded, not \(item.name)", controller)
            throw .commandFailed
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            say("record: cannot make \(folder.path): \(error.localizedDescription)", controller)
            throw .commandFailed
        }
        let url = RecordingName.free(in: folder, at: Date())
        do {
            let started = try item.record(to: url, audio: microphone != nil)
            recorder = started
            capture = microphone.map { MicrophoneCapture(device: $0, recorder: started) }
            capture?.start()
            saidMicrophoneProblem = false
        } catch {
            say("record: \(error)", controller)
            throw .commandFailed
        }
        self.tile = tile
        path = url.path
        lastShown = 0
        events.append(("recording-started", [("path", .string(url.path))]))
        controller.osd("● Recording \(url.lastPathComponent)", seconds: 2, topic: "record")
    }

    /// Each turn of the main loop: the time and size on the OSD, the end said and played.
    func update(_ controller: CommandController) {
        guard let recorder else { return }
        let progress = recorder.progress
        if let problem = capture?.problem, !saidMicrophoneProblem {
            // The picture records on; the sound from here on is silence.
            saidMicrophoneProblem = true
            say("microphone \(microphone?.url ?? ""): \(problem); recording the picture only", controller)
        }
        guard let outcome = progress.outcome else {
            let now = HostTime.now()
            guard now &- lastShown >= 250_000_000 else { return }
            lastShown = now
            let dropped = progress.dropped > 0 ? " — \(progress.dropped) frames dropped" : ""
            controller.osd("● REC \(DisplayText.clock(progress.seconds))  \(RecordingControl.size(progress.bytes))\(dropped)",
                           seconds: 1, topic: "record")
            return
        }
        self.recorder = nil
        capture?.stop()
        capture = nil
        let written: URL?
        let line: String
        switch outcome {
        case .finished(let url):
            written = url
            // The file's own size: the trailer and the last fragment came after the last count.
            let bytes = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value
            line = "Recorded \(url.lastPathComponent): \(DisplayText.clock(progress.seconds)), "
                + RecordingControl.size(bytes ?? progress.bytes)
        case .inputEnded(let url, let reason):
            written = url
            line = "The camera stopped\(reason.map { " (\($0))" } ?? ""): the recording is kept as \(url.lastPathComponent)"
        case .failed(let url, let reason):
            written = url
            line = "Recording stopped: \(reason)" + (url.map { "; what was written is kept as \($0.lastPathComponent)" } ?? "")
        }
        say(line, controller)
        if let written { path = written.path }
        var fields: [(String, JSONValue)] = [("path", written.map { .string($0.path) } ?? .null),
                                             ("seconds", .number((progress.seconds * 1000).rounded() / 1000)),
                                             ("frames", .number(Double(progress.frames)))]
        if case .failed(_, let reason) = outcome { fields.append(("error", .string(reason))) }
        events.append(("recording-stopped", fields))
        // The take plays at once where the camera was (the phone's flow),
        // unless something else was opened there meanwhile.
        if let written, let tile, controller.tiles.tiles.contains(where: { $0 === tile }),
           tile.player.currentItem.map({ $0.info?.isDevice ?? (LiveDevice(location: $0.name) != nil) }) ?? true {
            do {
                try controller.apply(.loadfile(written.path, .replace), to: .tile(tile), from: .commandLine)
            } catch {
                say("cannot play \(written.lastPathComponent): \(error.rawValue)", controller)
            }
        }
    }

    /// The events of this turn, for the control socket.
    func takeEvents() -> [(name: String, fields: [(String, JSONValue)])] {
        defer { events = [] }
        return events
    }

    /// At exit: a running recording is finished and renamed (waiting for it a moment).
    func stop() {
        guard let recorder else { return }
        capture?.stop()
        recorder.stop()
        let deadline = HostTime.now() + 5_000_000_000
        while recorder.progress.outcome == nil, HostTime.now() < deadline { usleep(10_000) }
        self.recorder = nil
    }

    static func size(_ bytes: Int64) -> String {
        bytes >= 1 << 30 ? String(format: "%.2f GB", Double(bytes) / Double(1 << 30))
            : String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }

    private func say(_ line: String, _ controller: CommandController) {
        PlayerApp.printError(line)
        controller.osd(line, seconds: 4, topic: "record")
    }
}
