// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// A live input read through one of libavdevice's input formats (`v4l2`
/// for a camera, `x11grab` for the screen, `pulse` for a microphone) or
/// lavfi (a filter graph standing in for a camera): mpv's
/// `av://FORMAT:URL`, the device's options after `#` as
/// `KEY=VALUE,KEY=VALUE`. It has no duration and cannot seek.
package struct LiveDevice: Sendable, Equatable {
    /// The input format's name (`v4l2`, `lavfi`, `x11grab`).
    package let format: String
    /// What the format opens: a device node, a display, a filter graph.
    package let url: String
    /// Options for the input format (`video_size`, `framerate`, `input_format`).
    package let options: [(String, String)]

    package static let scheme = "av://"

    package init(format: String, url: String, options: [(String, String)] = []) {
        self.format = format
        self.url = url
        self.options = options
    }

    /// Reads `av://FORMAT:URL[#K=V,K=V]`; nil for anything else.
    package init?(location: String) {
        guard location.hasPrefix(LiveDevice.scheme) else { return nil }
        let body = location.dropFirst(LiveDevice.scheme.count)
        guard let colon = body.firstIndex(of: ":"), colon > body.startIndex else { return nil }
        format = String(body[..<colon])
        var rest = body[body.index(after: colon)...]
        var options: [(String, String)] = []
        if let hash = rest.lastIndex(of: "#") {
            for pair in rest[rest.index(after: hash)...].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { options.append((String(parts[0]), String(parts[1]))) }
            }
            rest = rest[..<hash]
        }
        url = String(rest)
        self.options = options
    }

    /// The device as a user names it on the command line: `/dev/videoN`
    /// (a V4L2 camera) or `FORMAT:URL`.
    package init?(userName name: String, options: [(String, String)] = []) {
        if name.hasPrefix("/dev/") {
            self.init(format: "v4l2", url: name, options: options)
            return
        }
        guard let colon = name.firstIndex(of: ":"), colon > name.startIndex else { return nil }
        self.init(format: String(name[..<colon]), url: String(name[name.index(after: colon)...]), options: options)
    }

    /// The location a player item opens (`av://FORMAT:URL#options`).
    package var location: String {
        LiveDevice.scheme + format + ":" + url + (options.isEmpty ? "" : "#" + options.map { "\($0)=\($1)" }.joined(separator: ","))
    }

    package static func == (a: LiveDevice, b: LiveDevice) -> Bool {
        a.format == b.format && a.url == b.url && a.options.map { "\($0)=\($1)" } == b.options.map { "\($0)=\($1)" }
    }

    /// Whether a camera's node is there and may be opened, said clearly
    /// (FFmpeg's "No such file or directory" names no camera).
    package func problem() -> String? {
        guard format == "v4l2" else { return nil }
        guard FileManager.default.fileExists(atPath: url) else { return "No camera found at \(url)" }
        guard access(url, R_OK | W_OK) == 0 else {
            return "Permission denied for \(url): add yourself to the video group (sudo usermod -aG video $USER), then log in again"
        }
        return nil
    }

    /// libavdevice's (or libavformat's lavfi) input format of this name.
    package func inputFormat() throws(MediaError) -> UnsafePointer<AVInputFormat> {
        LiveDevice.registerDevices
        guard let found = av_find_input_format(format) else {
            throw MediaError("no input device \"\(format)\" in this FFmpeg (v4l2, lavfi, x11grab, pulse…)")
        }
        return found
    }

    /// Devices register once per process (`avdevice_register_all`).
    private static let registerDevices: Void = { avdevice_register_all() }()

    /// A camera busy in another program says so; anything else as FFmpeg says it.
    func describeOpenFailure(_ code: Int32) -> MediaError {
        if code == dp_averror(EBUSY) {
            return MediaError("\(url) is busy: another program is using the camera", code: code)
        }
        if code == dp_averror(EACCES) || code == dp_averror(EPERM) {
            return MediaError("Permission denied for \(url): add yourself to the video group", code: code)
        }
        if format == "pulse" {
            // libavdevice's pulse says only why the connection failed ("No such process").
            return MediaError("no PulseAudio or PipeWire server answers for source \(url) (\(MediaError.ffmpegText(code)))", code: code)
        }
        return MediaError("cannot open \(format) input \(url): \(MediaError.ffmpegText(code))", code: code)
    }
}
