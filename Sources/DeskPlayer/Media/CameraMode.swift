// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// One way a camera can deliver pictures: a size, a rate and how they are
/// coded on the wire (raw YUYV, MJPEG or H.264).
package struct CameraMode: Sendable, Equatable, CustomStringConvertible {
    package enum Coding: String, Sendable, CaseIterable {
        case yuyv, mjpeg, h264
        /// Anything else a camera offers (NV12, GREY…): listed, not chosen.
        case other

        /// FFmpeg's v4l2 `input_format` name.
        package var inputFormat: String? {
            switch self {
            case .yuyv: return "yuyv422"
            case .mjpeg: return "mjpeg"
            case .h264: return "h264"
            case .other: return nil
            }
        }
    }

    package var width: Int
    package var height: Int
    package var fps: Double
    package var coding: Coding

    package init(width: Int, height: Int, fps: Double, coding: Coding) {
        self.width = width
        self.height = height
        self.fps = fps
        self.coding = coding
    }

    package var description: String {
        let rate = fps == fps.rounded() ? String(Int(fps)) : String(format: "%.2f", fps)
        return "\(width)x\(height)@\(rate) \(coding.rawValue)"
    }

    /// The v4l2 input's options that ask for this mode.
    package var deviceOptions: [(String, String)] {
        var options = [("video_size", "\(width)x\(height)"), ("framerate", fps == fps.rounded() ? String(Int(fps)) : String(fps))]
        if let format = coding.inputFormat { options.append(("input_format", format)) }
        return options
    }

    /// The mode to open without asking: the largest picture up to
    /// 1920x1080 that reaches 30 fps, raw YUYV where it can (no decoding),
    /// else MJPEG, else H.264. With none reaching 30 fps, the fastest
    /// (then the largest) up to 1920x1080; with nothing that small, the
    /// smallest there is. mpv and VLC take the driver's default instead,
    /// often YUYV at 5 fps in 1080p.
    package static func automatic(from modes: [CameraMode]) -> CameraMode? {
        let usable = modes.filter {
            $0.coding != .other && (1...16384).contains($0.width) && (1...16384).contains($0.height) && $0.fps > 0
        }
        let fitting = usable.filter { $0.width <= 1920 && $0.height <= 1080 }
        let smooth = fitting.filter { $0.fps >= 29.5 }
        func preference(_ c: Coding) -> Int { c == .yuyv ? 0 : c == .mjpeg ? 1 : 2 }
        if let best = smooth.min(by: { a, b in
            a.area != b.area ? a.area > b.area : preference(a.coding) != preference(b.coding)
                ? preference(a.coding) < preference(b.coding) : a.fps < b.fps
        }) {
            // The smoothest rate the chosen size and coding offer at or under 60.
            return smooth.filter { $0.area == best.area && $0.coding == best.coding && $0.fps <= 60 }
                .max { $0.fps < $1.fps } ?? best
        }
        if let fastest = fitting.max(by: { a, b in a.fps != b.fps ? a.fps < b.fps : a.area < b.area }) { return fastest }
        return usable.min { $0.area < $1.area }
    }

    private var area: Int { width * height }
}

/// `--camera-format WxH@FPS[:mjpeg|yuyv|h264]`: a mode asked for by hand.
package struct CameraModeRequest: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var fps: Double
    package var coding: CameraMode.Coding?

    package init(width: Int, height: Int, fps: Double, coding: CameraMode.Coding?) {
        self.width = width
        self.height = height
        self.fps = fps
        self.coding = coding
    }

    /// Reads `WxH@FPS[:CODING]`; nil when it is not that (sizes 1 to 8192, rates above 0 to 240).
    package init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let first = parts.first else { return nil }
        let sizeAndRate = first.split(separator: "@")
        guard sizeAndRate.count == 2 else { return nil }
        let size = sizeAndRate[0].lowercased().split(separator: "x")
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), let fps = Double(sizeAndRate[1]),
              (1...8192).contains(w), (1...8192).contains(h), fps > 0, fps <= 240 else { return nil }
        var coding: CameraMode.Coding?
        if parts.count == 2 {
            guard let c = CameraMode.Coding(rawValue: parts[1].lowercased()), c != .other else { return nil }
            coding = c
        }
        self.init(width: w, height: h, fps: fps, coding: coding)
    }

    /// The camera's mode that is this one (a coding not given: YUYV, then MJPEG, then H.264).
    package func match(in modes: [CameraMode]) -> CameraMode? {
        let same = modes.filter {
            $0.width == width && $0.height == height && abs($0.fps - fps) < 0.5 && $0.coding != .other
                && (coding == nil || $0.coding == coding)
        }
        return same.min { a, b in CameraMode.Coding.allCases.firstIndex(of: a.coding) ?? 0
            < CameraMode.Coding.allCases.firstIndex(of: b.coding) ?? 0 }
    }

    /// The mode as asked, for a device whose modes cannot be listed (a lavfi stand-in).
    package var mode: CameraMode { CameraMode(width: width, height: height, fps: fps, coding: coding ?? .other) }
}
