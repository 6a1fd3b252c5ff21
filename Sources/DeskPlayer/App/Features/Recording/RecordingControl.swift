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
    /// The files this player recorded, oldest first (the last 100): "previous take".
    private var takes: [URL] = []
    /// Events for the control socket's clients, taken each turn.
    private var events: [(name: String, fields: [(String, JSONValue)])] = []

    var isRecording: Bool { recorder != nil }
    /// The player whose camera is recorded (nil: none).
    var recordingPlayer: Player? { recorder == nil ? nil : tile?.player }
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
            controller.osd(tr("Stopping the recording…"), seconds: 2, topic: "record")
            return
        }
        guard let tile, let item = tile.player.currentItem else {
            say("record: no camera to record (open one with --camera)", shown: tr("No camera to record (open one with --camera)"), controller)
            throw .propertyUnavailable
        }
        guard item.info?.isDevice == true else {
            say("record: only a camera can be recorded, not \(item.name)",
                shown: String(format: tr("Only a camera can be recorded, not %@"), item.name), controller)
            throw .commandFailed
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            say("record: cannot make \(folder.path): \(error.localizedDescription)", controller)
            throw .commandFailed
        }
        recoverInterrupted(controller)
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
        controller.osd("● " + String(format: tr("Recording %@"), url.lastPathComponent), seconds: 2, topic: "record")
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
            let dropped = progress.dropped > 0
                ? " — " + String(format: trn("%d frame dropped", "%d frames dropped", progress.dropped), locale: .display, progress.dropped) : ""
            controller.osd("● REC \(DisplayText.clock(progress.seconds))  \(RecordingControl.size(progress.bytes))\(dropped)",
                           seconds: 1, topic: "record")
            return
        }
        self.recorder = nil
        capture?.stop()
        capture = nil
        let written: URL?
        let line: String, shown: String
        switch outcome {
        case .finished(let url):
            written = url
            // The file's own size: the trailer and the last fragment came after the last count.
            let bytes = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value
            let size = RecordingControl.size(bytes ?? progress.bytes)
            line = "Recorded \(url.lastPathComponent): \(DisplayText.clock(progress.seconds)), " + size
                + (progress.dropped > 0 ? ", \(progress.dropped) frames dropped" : "")
            shown = String(format: tr("Recorded %@: %@, %@"), url.lastPathComponent, DisplayText.clock(progress.seconds), size)
                + (progress.dropped > 0
                   ? " — " + String(format: trn("%d frame dropped", "%d frames dropped", progress.dropped), locale: .display, progress.dropped)
                   : "")
        case .inputEnded(let url, let reason):
            written = url
            line = "The camera stopped\(reason.map { " (\($0))" } ?? ""): the recording is kept as \(url.lastPathComponent)"
            shown = String(format: tr("The camera stopped: the recording is kept as %@"), url.lastPathComponent)
        case .failed(let url, let reason):
            written = url
            line = "Recording stopped: \(reason)" + (url.map { "; what was written is kept as \($0.lastPathComponent)" } ?? "")
            shown = String(format: tr("Recording stopped: %@"), reason)
                + (url.map { "; " + String(format: tr("what was written is kept as %@"), $0.lastPathComponent) } ?? "")
        }
        say(line, shown: shown, controller)
        if let written {
            path = written.path
            takes.append(written)
            if takes.count > 100 { takes.removeFirst() }
        }
        var fields: [(String, JSONValue)] = [("path", written.map { .string($0.path) } ?? .null),
                                             ("seconds", .number((progress.seconds * 1000).rounded() / 1000)),
                                             ("frames", .number(Double(progress.frames))),
                                             ("dropped", .number(Double(progress.dropped)))]
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

    /// "Compare with previous take": the latest recording beside the one
    /// before it, in a comparison (the phone's flow: take it again, then
    /// see which is better). The one before is this player's previous take,
    /// else the newest older recording in the folder.
    func compareTakes(controller: CommandController) throws(CommandError) {
        guard !isRecording, let latest = takes.last else {
            say("compare-takes: no recording finished yet", shown: tr("No recording finished yet"), controller)
            throw .propertyUnavailable
        }
        guard let previous = previousTake(before: latest) else {
            say("compare-takes: no recording before \(latest.lastPathComponent) in \(folder.path)",
                shown: String(format: tr("No recording before %@"), latest.lastPathComponent), controller)
            throw .commandFailed
        }
        guard controller.compare == nil else {
            say("compare-takes: a comparison is on already", shown: tr("A comparison is on already"), controller)
            throw .commandFailed
        }
        guard let (window, factory) = controller.compareWindow?() else { throw .propertyUnavailable }
        try CompareSession.start(comparing: [previous.path, latest.path], window: window, controller: controller, factory: factory)
    }

    private func previousTake(before latest: URL) -> URL? {
        if let i = takes.lastIndex(of: latest), i > 0, FileManager.default.fileExists(atPath: takes[i - 1].path) { return takes[i - 1] }
        func modified(_ url: URL) -> Date {
            (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
        }
        let newest = modified(latest)
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey],
                                                                   options: .skipsHiddenFiles)) ?? []
        return files.prefix(10_000)
            .filter { $0.lastPathComponent.hasPrefix("Video ") && $0.pathExtension == "mp4" && $0.lastPathComponent != latest.lastPathComponent }
            .filter { modified($0) <= newest }
            .max { modified($0) < modified($1) }
    }

    /// Recordings a killed player left under hidden temporary names, put
    /// under the names they were to have (each said once: it happens once).
    func recoverInterrupted(_ controller: CommandController) {
        for result in InterruptedRecordings.recover(in: folder) {
            switch result {
            case .success(let url):
                say("record: an interrupted recording is kept as \(url.path)",
                    shown: String(format: tr("An interrupted recording is kept as %@"), url.lastPathComponent), controller)
            case .failure(let error):
                say("record: \(error)", controller)
            }
        }
    }

    /// `line` on stderr (English, as every log line), `shown` (in the user's language) in the window.
    private func say(_ line: String, shown: String? = nil, _ controller: CommandController) {
        PlayerApp.printError(line)
        controller.osd(shown ?? line, seconds: 4, topic: "record")
    }
}
