// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// `--camera [DEVICE]` and `--camera-list`: which camera, in which mode,
/// as the `av://` location a tile plays; the list of cameras and microphones.
enum CameraOption {
    /// A bare `--camera`: the first camera found.
    static let automatic = "auto"
    /// The desktop's default microphone (PulseAudio's `default` source).
    static let defaultMicrophone = "default"

    /// The microphone for `--microphone VALUE`: FORMAT:URL as given, any
    /// other name a PulseAudio source (libavdevice's `pulse`).
    static func microphone(_ value: String) -> LiveDevice {
        if namesDevice(value), !value.hasPrefix("/dev/"), let device = LiveDevice(userName: value) { return device }
        return LiveDevice(format: "pulse", url: value)
    }

    /// Whether the word after a bare `--camera` names its device (a
    /// /dev node or FORMAT:URL) rather than being a file or option.
    static func namesDevice(_ word: String?) -> Bool {
        guard let word, !word.hasPrefix("-") else { return false }
        if word.hasPrefix("/dev/") || word == automatic { return true }
        guard let colon = word.firstIndex(of: ":") else { return false }
        return word[..<colon].allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && colon > word.startIndex
    }

    /// The location to play for `--camera VALUE` (`request`: --camera-format),
    /// or the one line that says why there is none.
    static func location(for value: String, format request: CameraModeRequest?) -> Result<String, MediaError> {
        if value == automatic || value.hasPrefix("/dev/") {
            let camera: CameraList.Camera
            if value == automatic {
                guard let first = CameraList.cameras().first else {
                    return .failure(MediaError("No camera found", shown: tr("No camera found: open a file instead (Ctrl+O)")))
                }
                camera = first
            } else {
                if let problem = LiveDevice(format: "v4l2", url: value).problem() { return .failure(MediaError(problem)) }
                guard let found = CameraList.camera(at: value) else {
                    return .failure(MediaError("\(value) is not a camera (a metadata or output node, or busy)"))
                }
                camera = found
            }
            let mode: CameraMode?
            if let request {
                guard let matched = request.match(in: camera.modes) else {
                    return .failure(MediaError("\(camera.path) (\(camera.name)) has no mode \(request.mode); --camera-list shows its modes"))
                }
                mode = matched
            } else {
                mode = CameraMode.automatic(from: camera.modes)
            }
            return .success(LiveDevice(format: "v4l2", url: camera.path, options: mode?.deviceOptions ?? []).location)
        }
        guard let device = LiveDevice(userName: value, options: request.map { r in
            [("video_size", "\(r.width)x\(r.height)"), ("framerate", String(r.fps))]
        } ?? []) else {
            return .failure(MediaError("--camera \(value): not a device (/dev/videoN, or FORMAT:URL such as lavfi:testsrc2)"))
        }
        do { _ = try device.inputFormat() } catch { return .failure(error) }
        return .success(device.location)
    }

    /// `--camera-list`: each camera with its modes (the automatic choice
    /// marked *), then the microphones. Exit status 1 with no camera.
    static func printList() -> Int32 {
        let cameras = CameraList.cameras()
        if cameras.isEmpty { PlayerApp.printError("No camera found") }
        for camera in cameras {
            print("\(camera.path): \(camera.name)")
            let chosen = CameraMode.automatic(from: camera.modes)
            for mode in camera.modes { print("  \(mode == chosen ? "*" : " ") \(mode)") }
        }
        let microphones = CameraList.microphones()
        print(microphones.isEmpty ? "Microphones: none found (no audio server)" : "Microphones:")
        for mic in microphones { print("  \(mic.isDefault ? "*" : " ") \(mic.name)\(mic.description.isEmpty ? "" : " (\(mic.description))")") }
        return cameras.isEmpty ? 1 : 0
    }
}
