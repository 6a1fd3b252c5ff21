// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Playback
import TestSupport

/// `--camera` and `record` with a stand-in camera (a lavfi graph paced at
/// real time, as a webcam delivers), the recordings decoded by ffprobe.
@Suite(.serialized) struct CameraTests {
    static let camera = "lavfi:testsrc2=size=640x360:rate=30,realtime"

    /// A player showing `camera`, recording into its folder's `takes`.
    final class Session {
        let dir = Fixtures.temporaryDirectory()
        let takes: URL
        let stderr: URL
        let player: Process
        let client: ControlSocketTests.Client

        /// `limitBytes`: the player runs under that file size limit (prlimit --fsize).
        init(camera: String = CameraTests.camera, microphone: [String] = ["--no-microphone"], limitBytes: Int? = nil) throws {
            takes = dir.appendingPathComponent("takes")
            stderr = dir.appendingPathComponent("stderr.txt")
            let socket = dir.appendingPathComponent("ipc.sock").path
            let arguments = ["--camera", camera] + microphone + ["--record-to", takes.path]
            if let limitBytes {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
                process.arguments = ["--fsize=\(limitBytes)", Fixtures.binary] + arguments + ["--input-ipc-server", socket]
                process.environment = Fixtures.appEnvironment.merging(ControlSocketTests.headless) { $1 }
                process.standardOutput = FileHandle.nullDevice
                _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
                process.standardError = try FileHandle(forWritingTo: stderr)
                try process.run()
                player = process
            } else {
                player = try ControlSocketTests().startPlayer(arguments, socket: socket, stderr: stderr)
            }
            client = try ControlSocketTests.Client(path: socket)
        }

        deinit {
            if player.isRunning { player.terminate(); player.waitUntilExit() }
            try? FileManager.default.removeItem(at: dir)
        }

        var errors: String { (try? String(contentsOf: stderr, encoding: .utf8)) ?? "" }

        /// The files in the takes folder (the temporary one while recording).
        var files: [URL] {
            ((try? FileManager.default.contentsOfDirectory(atPath: takes.path)) ?? []).map { takes.appendingPathComponent($0) }
        }

        /// The camera is open and plays (its file-loaded may come before the client connects).
        func opened() -> Bool { eventually { client.get("seekable") == .bool(false) } }

        func recordingTime() -> Double { client.get("recording-time")?.number ?? 0 }

        /// The recording-stopped event's fields.
        func stopped(seconds: Double = 15) -> JSONValue? {
            guard client.waitForEvent("recording-stopped", seconds: seconds) else { return nil }
            return client.events.last { $0["event"]?.string == "recording-stopped" }
        }
    }

    /// Frames and seconds of `file`'s video, as FFmpeg decodes it.
    static func decodedVideo(_ file: String) throws -> (frames: Int, seconds: Double) {
        let r = try runTool("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                        "stream=nb_read_frames:format=duration", "-of", "default=nw=1", file])
        var frames = 0, seconds = 0.0
        for line in r.stdout.split(separator: "\n") {
            if line.hasPrefix("nb_read_frames=") { frames = Int(line.dropFirst(15)) ?? 0 }
            if line.hasPrefix("duration=") { seconds = Double(line.dropFirst(9)) ?? 0 }
        }
        return (frames, seconds)
    }

    @Test func aCameraPlaysLiveAndCannotSeek() throws {
        let s = try Session()
        #expect(s.opened(), "\(s.errors)")
        #expect(s.client.get("seekable") == .bool(false))
        #expect(s.client.get("duration") == nil, "a live source has no duration")
        #expect(s.client.error([.string("seek"), .number(5)]) == "error running command")
        #expect(eventually { s.errors.contains("a live source cannot seek") })
        #expect(eventually { (s.client.get("time-pos")?.number ?? 0) > 0.5 }, "the preview plays")
        #expect(s.client.get("recording") == .bool(false))
        #expect(s.client.get("camera") == .string(CameraTests.camera))
    }

    @Test func aRecordingKeepsEveryFrameAndThenPlays() throws {
        let s = try Session()
        #expect(s.opened(), "\(s.errors)")
        #expect(s.client.error([.string("record")]) == "success", "\(s.errors)")
        #expect(s.client.waitForEvent("recording-started"))
        #expect(s.client.get("recording") == .bool(true))
        // Written as it goes, under a temporary name.
        #expect(eventually { s.files.contains { (try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) ?? 0 > 10_000 } })
        #expect(eventually(seconds: 15) { s.recordingTime() >= 3 }, "\(s.errors)")
        #expect(s.client.error([.string("record")]) == "success")
        let stopped = try #require(s.stopped(), "\(s.errors)")
        let path = try #require(stopped["path"]?.string)
        #expect(URL(fileURLWithPath: path).lastPathComponent.hasPrefix("Video "))
        #expect(path.hasSuffix(".mp4"))
        #expect(s.files.map(\.path) == [path], "the temporary file was renamed into place")
        let frames = try #require(stopped["frames"]?.number).rounded()
        let seconds = try #require(stopped["seconds"]?.number)
        let decoded = try CameraTests.decodedVideo(path)
        #expect(Double(decoded.frames) == frames, "every frame encoded is decoded")
        // At 30 fps from the first frame's time to the last's: none dropped.
        #expect(abs(Double(decoded.frames) - (seconds * 30 + 1)) <= 1, "\(decoded.frames) frames for \(seconds) s")
        #expect(decoded.seconds >= 3)
        // The take plays at once in the same tile.
        #expect(eventually { s.client.get("path") == .string(path) })
        #expect(s.client.get("recording") == .bool(false))
        #expect(s.client.get("recording-path") == .string(path))
        #expect(s.client.get("camera") == nil, "the take is a file, not a camera")
        #expect(s.client.waitFor("duration")?.number ?? 0 >= 3)
    }

    /// A microphone stand-in (lavfi's sine, paced at real time): the
    /// recording has its sound, as long as its picture.
    @Test func aMicrophoneIsRecordedWithThePicture() throws {
        let s = try Session(microphone: ["--microphone", "lavfi:sine=frequency=1000:sample_rate=48000,arealtime"])
        #expect(s.opened(), "\(s.errors)")
        #expect(s.client.error([.string("record")]) == "success")
        #expect(eventually(seconds: 15) { s.recordingTime() >= 2 })
        #expect(s.client.error([.string("record")]) == "success")
        let stopped = try #require(s.stopped(), "\(s.errors)")
        let path = try #require(stopped["path"]?.string)
        let r = try runTool("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=codec_name,sample_rate:format=duration",
                                        "-of", "default=nw=1", path])
        #expect(r.stdout.contains("codec_name=aac") && r.stdout.contains("sample_rate=48000"), "\(r.stdout)")
        // Sound and picture start together and end together (within a fifth of a second).
        let audio = try runTool("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "packet=pts_time",
                                            "-of", "csv=p=0", path]).stdout.split(separator: "\n").compactMap { Double($0) }
        let video = try CameraTests.decodedVideo(path)
        let audioEnd = try #require(audio.last)
        #expect(abs(audioEnd - video.seconds) < 0.2, "audio ends at \(audioEnd), the file at \(video.seconds)")
        #expect(!s.errors.contains("microphone"), "\(s.errors)")
    }

    /// Pausing the preview pauses only the preview: the camera is read on
    /// and the recording keeps every frame.
    @Test func aPausedPreviewRecordsOn() throws {
        let s = try Session()
        #expect(s.opened(), "\(s.errors)")
        #expect(s.client.error([.string("record")]) == "success")
        #expect(eventually(seconds: 15) { s.recordingTime() >= 0.5 })
        #expect(s.client.error([.string("set_property"), .string("pause"), .bool(true)]) == "success")
        let paused = s.recordingTime()
        // Past the preview's one-second buffer: the demuxer would have stopped.
        #expect(eventually(seconds: 15) { s.recordingTime() >= paused + 2.5 }, "\(s.recordingTime()) s recorded")
        #expect(s.client.error([.string("record")]) == "success")
        let stopped = try #require(s.stopped(), "\(s.errors)")
        let path = try #require(stopped["path"]?.string)
        let seconds = try #require(stopped["seconds"]?.number)
        let decoded = try CameraTests.decodedVideo(path)
        #expect(abs(Double(decoded.frames) - (seconds * 30 + 1)) <= 1, "\(decoded.frames) frames for \(seconds) s")
    }

    /// A microphone that cannot be opened is one line; the picture records on.
    @Test func aMissingMicrophoneRecordsThePictureOnly() throws {
        let s = try Session(microphone: ["--microphone", "lavfi:nosuchsource"])
        #expect(s.opened(), "\(s.errors)")
        #expect(s.client.error([.string("record")]) == "success")
        #expect(eventually { s.errors.contains("microphone nosuchsource: ") && s.errors.contains("; recording the picture only") },
                "\(s.errors)")
        #expect(eventually(seconds: 15) { s.recordingTime() >= 1 })
        #expect(s.client.error([.string("record")]) == "success")
        let stopped = try #require(s.stopped(), "\(s.errors)")
        #expect(try CameraTests.decodedVideo(try #require(stopped["path"]?.string)).frames >= 30)
    }

    @Test func aKilledRecordingStillPlays() throws {
        let s = try Session()
        #expect(s.opened(), "\(s.errors)")
        // The property starts it as the command does.
        #expect(s.client.error([.string("set_property"), .string("recording"), .bool(true)]) == "success")
        #expect(eventually(seconds: 15) { s.recordingTime() >= 3 })
        kill(s.player.processIdentifier, SIGKILL)
        s.player.waitUntilExit()
        let partial = try #require(s.files.first, "the recording's temporary file is there")
        let decoded = try CameraTests.decodedVideo(partial.path)
        #expect(decoded.frames >= 60, "\(decoded.frames) frames decode from a killed recording")
        #expect(decoded.seconds >= 2)
        #expect(partial.lastPathComponent.hasPrefix("."), "a killed recording is left under its hidden temporary name")

        // The next player to record there names it as it was to be named, beside its own recording.
        let socket = s.dir.appendingPathComponent("ipc2.sock").path
        let stderr = s.dir.appendingPathComponent("stderr2.txt")
        let next = try ControlSocketTests().startPlayer(["--camera", CameraTests.camera, "--no-microphone", "--record-to", s.takes.path],
                                                        socket: socket, stderr: stderr)
        defer { if next.isRunning { next.terminate(); next.waitUntilExit() } }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(eventually { client.get("seekable") == .bool(false) })
        #expect(client.error([.string("set_property"), .string("recording"), .bool(true)]) == "success")
        let intended = String(partial.lastPathComponent.dropFirst().prefix { $0 != "." }) + ".mp4"
        let recovered = s.takes.appendingPathComponent(intended)
        #expect(eventually { FileManager.default.fileExists(atPath: recovered.path) },
                "\(intended) in \(s.files.map(\.lastPathComponent))")
        #expect(!FileManager.default.fileExists(atPath: partial.path))
        #expect(try CameraTests.decodedVideo(recovered.path).frames == decoded.frames)
        let said = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(said.contains("an interrupted recording is kept as \(recovered.path)"), "\(said)")
        // The recording running now is not taken for a left one: its file stays hidden until it stops.
        #expect(eventually { client.get("recording-time")?.number ?? 0 > 1 })
        #expect(s.files.filter { $0.lastPathComponent.hasPrefix(".") }.count == 1, "\(s.files.map(\.lastPathComponent))")
        #expect(InterruptedRecordings.recover(in: s.takes).isEmpty, "a recording still being written is left alone")
    }

    /// The phone's flow twice over: a take, "Take video…" (the `camera`
    /// command) brings the camera back in its place, a second take, and
    /// "Compare with previous take" puts the two side by side, the older
    /// as the reference. A second comparison is refused with its line.
    @Test func takeVideoAgainThenCompareWithThePreviousTake() throws {
        let s = try Session()
        #expect(s.opened(), "\(s.errors)")
        #expect(s.client.error([.string("compare-takes")]) != "success", "no take yet")
        var takes: [String] = []
        for n in 0..<2 {
            if n > 0 {
                #expect(s.client.error([.string("camera"), .string(CameraTests.camera)]) == "success", "\(s.errors)")
                #expect(eventually { s.client.get("camera") != nil && s.client.get("seekable") == .bool(false) }, "\(s.errors)")
            }
            #expect(s.client.error([.string("record")]) == "success", "\(s.errors)")
            #expect(eventually(seconds: 15) { s.recordingTime() >= 1 }, "\(s.errors)")
            #expect(s.client.error([.string("record")]) == "success")
            // This take's recording-stopped: the client reads its events while waiting for one that never comes.
            func stops() -> [JSONValue] { s.client.events.filter { $0["event"]?.string == "recording-stopped" } }
            #expect(eventually(seconds: 15) { _ = s.client.waitForEvent("(none)", seconds: 0.2); return stops().count == n + 1 },
                    "\(s.errors)")
            let path = try #require(stops().last?["path"]?.string, "\(s.errors)")
            takes.append(path)
            #expect(eventually { s.client.get("path") == .string(path) }, "take \(n + 1) plays in the tile")
        }
        #expect(takes[0] != takes[1])
        #expect(s.client.error([.string("compare-takes")]) == "success", "\(s.errors)")
        #expect(eventually { s.client.get("compare") != nil }, "\(s.errors)")
        #expect(eventually {
            guard case .array(let tiles)? = s.client.get("tiles") else { return false }
            return tiles.compactMap { $0["filename"]?.string } == takes
        }, "\(String(describing: s.client.get("tiles"))) \(s.errors)")
        #expect(s.client.error([.string("compare-takes")]) != "success")
        #expect(s.errors.contains("compare-takes: a comparison is on already"), "\(s.errors)")
        #expect(s.player.isRunning)
    }

    /// "Take video…" on a machine with no camera: one line, and the file that played plays on.
    @Test(.enabled(if: CameraList.cameras().isEmpty, "a camera is plugged in: the command would open it"))
    func takeVideoWithNoCameraSaysSoAndPlaysOn() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ipc.sock").path
        let stderr = dir.appendingPathComponent("stderr.txt")
        let player = try ControlSocketTests().startPlayer([Fixtures.asset("demo.mp4"), "--loop", "inf"], socket: socket, stderr: stderr)
        defer { if player.isRunning { player.terminate(); player.waitUntilExit() } }
        let client = try ControlSocketTests.Client(path: socket)
        #expect(client.waitFor("duration") == .number(10))
        #expect(client.error([.string("camera")]) == "error running command")
        let said = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        #expect(said.contains("camera: No camera found"), "\(said)")
        #expect(client.get("filename") == .string("demo.mp4"))
        #expect(player.isRunning)
    }

    /// Cameras that cannot be had, from a FUSE folder (Tests/TestSupport/busy_camera.py)
    /// through the same v4l2 input a /dev/video node takes: `video0` says
    /// EBUSY when opened (another program holds it), `video1` EACCES (no
    /// permission). `body` gets the folder.
    static func withUnavailableCameras(_ body: (URL) throws -> Void) throws {
        let dir = Fixtures.temporaryDirectory()
        let mount = dir.appendingPathComponent("dev")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        let fuse = Process()
        fuse.executableURL = URL(fileURLWithPath: "/usr/bin/python3")  // Debian's fusepy is the system Python's
        fuse.arguments = [Fixtures.root.appendingPathComponent("Tests/TestSupport/busy_camera.py").path, mount.path]
        let ready = Pipe()
        fuse.standardOutput = ready
        try fuse.run()
        defer {
            _ = try? runTool("fusermount3", ["-uz", mount.path])
            kill(fuse.processIdentifier, SIGKILL)  // Process starts children with SIGTERM blocked
            fuse.waitUntilExit()
            try? FileManager.default.removeItem(at: dir)
        }
        let said = String(decoding: ready.fileHandleForReading.availableData, as: UTF8.self)
        try #require(said.hasPrefix("ready"), "busy_camera.py: \(said)")
        try body(mount)
    }

    /// A camera that cannot be opened says why in one line, and the file
    /// opened beside it plays on.
    static func unavailableCameraSays(_ node: String, _ words: String...) throws {
        try withUnavailableCameras { mount in
            let dir = mount.deletingLastPathComponent()
            let socket = dir.appendingPathComponent("ipc.sock").path
            let stderr = dir.appendingPathComponent("stderr.txt")
            let player = try ControlSocketTests().startPlayer(
                [Fixtures.asset("demo.mp4"), "--camera", "v4l2:" + mount.appendingPathComponent(node).path, "--loop", "inf"],
                socket: socket, stderr: stderr)
            defer { if player.isRunning { player.terminate(); player.waitUntilExit() } }
            let client = try ControlSocketTests.Client(path: socket)
            let errors = { (try? String(contentsOf: stderr, encoding: .utf8)) ?? "" }
            #expect(eventually(seconds: 20) { words.allSatisfy { errors().contains($0) } }, "\(errors())")
            #expect(errors().split(separator: "\n").filter { $0.contains(node) }.count == 1, "one line: \(errors())")
            // The file plays on: its time moves.
            #expect(eventually(seconds: 20) { client.get("filename") == .string("demo.mp4") })
            let before = client.get("time-pos")?.number ?? 0
            #expect(eventually(seconds: 20) { (client.get("time-pos")?.number ?? 0) > before + 0.5 })
            #expect(player.isRunning)
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/fuse"),
                   "the busy camera is a FUSE folder: without /dev/fuse (a container without it) it cannot be mounted"))
    func aBusyCameraSaysSoAndTheFileBesideItPlaysOn() throws {
        try CameraTests.unavailableCameraSays("video0", "video0 is busy: another program is using the camera")
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/fuse"),
                   "the camera without permission is a FUSE folder: without /dev/fuse it cannot be mounted"))
    func aCameraWithoutPermissionNamesTheVideoGroup() throws {
        try CameraTests.unavailableCameraSays("video1", "Permission denied for", "add yourself to the video group")
    }

    @Test func aCameraThatEndsMidRecordingLeavesItsRecording() throws {
        let s = try Session(camera: "lavfi:testsrc2=size=320x240:rate=30:duration=3,realtime")
        #expect(s.opened(), "\(s.errors)")
        #expect(s.client.error([.string("record")]) == "success")
        let stopped = try #require(s.stopped(), "\(s.errors)")
        let path = try #require(stopped["path"]?.string)
        #expect(s.errors.contains("The camera stopped"), "\(s.errors)")
        #expect(try CameraTests.decodedVideo(path).frames >= 30)
        #expect(eventually { s.client.get("path") == .string(path) })
    }

    /// Loading another file in the camera's tile closes the camera: its
    /// recording ends with it and is kept.
    @Test func closingTheCameraEndsItsRecording() throws {
        let s = try Session()
        #expect(s.opened(), "\(s.errors)")
        #expect(s.client.error([.string("record")]) == "success")
        #expect(eventually(seconds: 15) { s.recordingTime() >= 1 })
        #expect(s.client.error([.string("loadfile"), .string(Fixtures.asset("demo.mp4"))]) == "success")
        let stopped = try #require(s.stopped(), "\(s.errors)")
        let path = try #require(stopped["path"]?.string)
        #expect(s.errors.contains("The camera stopped (the camera was closed)"), "\(s.errors)")
        #expect(try CameraTests.decodedVideo(path).frames >= 30)
        #expect(s.client.get("recording") == .bool(false))
        #expect(s.client.get("path") == .string(Fixtures.asset("demo.mp4")), "what was opened stays")
    }

    /// A disk that fills up, as a file size limit (prlimit --fsize) makes
    /// it: the recording stops, what was written is kept and plays.
    @Test func aFullDiskStopsTheRecordingAndKeepsWhatWasWritten() throws {
        let s = try Session(limitBytes: 600_000)
        #expect(s.opened(), "\(s.errors)")
        #expect(s.client.error([.string("record")]) == "success")
        let stopped = try #require(s.stopped(seconds: 30), "\(s.errors)")
        #expect(stopped["error"]?.string?.contains("File too large") == true, "\(stopped)")
        let path = try #require(stopped["path"]?.string)
        #expect(s.errors.contains("Recording stopped: "), "\(s.errors)")
        #expect(try CameraTests.decodedVideo(path).frames >= 15)
        #expect(eventually { s.client.get("path") == .string(path) })
        #expect(s.player.isRunning)
    }

    @Test func noCameraIsOneLineAndExitStatus1() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try runProcess(Fixtures.binary, ["--camera", "/dev/video99"], environment: [:], timeout: 20)
        #expect(missing.status == 1)
        #expect(missing.stderr == "deskplayer: No camera found at /dev/video99\n")
        let notADevice = try runProcess(Fixtures.binary, ["--camera", "nosuchformat:x"], environment: [:], timeout: 20)
        #expect(notADevice.status == 1)
        #expect(notADevice.stderr.contains("no input device \"nosuchformat\""))
        let badFormat = try runProcess(Fixtures.binary, ["--camera", CameraTests.camera, "--camera-format", "big"],
                                       environment: [:], timeout: 20)
        #expect(badFormat.status == 2)
        if (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains(where: { $0.hasPrefix("video") }) == false {
            let list = try runProcess(Fixtures.binary, ["--camera-list"], environment: [:], timeout: 20)
            #expect(list.status == 1)
            #expect(list.stderr == "deskplayer: No camera found\n")
            let first = try runProcess(Fixtures.binary, ["--camera"], environment: [:], timeout: 20)
            #expect(first.status == 1)
            #expect(first.stderr == "deskplayer: No camera found\n")
        }
    }
}
