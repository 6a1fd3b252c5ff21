// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import CV4L2
import Foundation

/// The cameras (V4L2 capture nodes under /dev) and microphones (FFmpeg's
/// `pulse` device list) this machine has, with each camera's modes.
package enum CameraList {
    package struct Camera: Sendable {
        package var path: String
        package var name: String
        package var modes: [CameraMode]
    }

    package struct Microphone: Sendable {
        package var name: String
        package var description: String
        package var isDefault: Bool
    }

    /// Every /dev/videoN that captures video, in number order. A node
    /// whose `device_caps` do not say video capture (a camera's metadata
    /// node, an output, a codec) is not a camera.
    package static func cameras(in folder: String = "/dev") -> [Camera] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let nodes = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let n = Int(name.dropFirst(5)) else { return nil }
            return (n, folder + "/" + name)
        }.sorted { $0.0 < $1.0 }
        return nodes.compactMap { camera(at: $0.1) }
    }

    /// The camera at `path`, or nil when it is not one (or cannot be opened).
    package static func camera(at path: String) -> Camera? {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var caps = v4l2_capability()
        guard dp_v4l2_querycap(fd, &caps) == 0 else { return nil }
        let capabilities = caps.capabilities & DP_V4L2_CAP_DEVICE_CAPS != 0 ? caps.device_caps : caps.capabilities
        guard capabilities & DP_V4L2_CAP_VIDEO_CAPTURE != 0 else { return nil }
        let name = withUnsafeBytes(of: caps.card) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Camera(path: path, name: name, modes: modes(of: fd))
    }

    /// Each format × size × rate the camera offers (stepwise sizes: the largest).
    private static func modes(of fd: Int32) -> [CameraMode] {
        var modes: [CameraMode] = []
        // Bounded: a driver that never says EINVAL stops here.
        for formatIndex in 0..<64 {
            var format = v4l2_fmtdesc()
            format.index = UInt32(formatIndex)
            format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            guard dp_v4l2_enum_fmt(fd, &format) == 0 else { break }
            let coding: CameraMode.Coding
            switch format.pixelformat {
            case DP_V4L2_PIX_FMT_YUYV: coding = .yuyv
            case DP_V4L2_PIX_FMT_MJPEG, DP_V4L2_PIX_FMT_JPEG: coding = .mjpeg
            case DP_V4L2_PIX_FMT_H264: coding = .h264
            default: coding = .other
            }
            for sizeIndex in 0..<256 {
                var size = v4l2_frmsizeenum()
                size.index = UInt32(sizeIndex)
                size.pixel_format = format.pixelformat
                guard dp_v4l2_enum_framesizes(fd, &size) == 0 else { break }
                let (w, h) = size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
                    ? (size.discrete.width, size.discrete.height) : (size.stepwise.max_width, size.stepwise.max_height)
                // A driver's sizes are outside numbers: none larger than any picture decodes.
                guard (1...16384).contains(w), (1...16384).contains(h) else { continue }
                for rate in rates(of: fd, format: format.pixelformat, width: w, height: h) {
                    modes.append(CameraMode(width: Int(w), height: Int(h), fps: rate, coding: coding))
                }
                if size.type != V4L2_FRMSIZE_TYPE_DISCRETE.rawValue { break }
            }
        }
        return modes
    }

    private static func rates(of fd: Int32, format: UInt32, width: UInt32, height: UInt32) -> [Double] {
        var rates: [Double] = []
        for index in 0..<64 {
            var interval = v4l2_frmivalenum()
            interval.index = UInt32(index)
            interval.pixel_format = format
            interval.width = width
            interval.height = height
            guard dp_v4l2_enum_frameintervals(fd, &interval) == 0 else { break }
            // A frame interval is seconds per frame; a stepwise one: its shortest.
            let fraction = interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue ? interval.discrete : interval.stepwise.min
            if fraction.numerator > 0, fraction.denominator > 0, fraction.denominator / fraction.numerator <= 1000 { rates.append((Double(fraction.denominator) / Double(fraction.numerator) * 100).rounded() / 100) }
            if interval.type != V4L2_FRMIVAL_TYPE_DISCRETE.rawValue { break }
        }
        return rates
    }

    /// The audio server's sources (microphones, monitors), as FFmpeg's
    /// `pulse` input lists them; empty when there is no audio server.
    package static func microphones() -> [Microphone] {
        guard let pulse = try? LiveDevice(format: "pulse", url: "default").inputFormat() else { return [] }
        var list: UnsafeMutablePointer<AVDeviceInfoList>?
        guard avdevice_list_input_sources(pulse, nil, nil, &list) >= 0, let list else { return [] }
        defer { var owned: UnsafeMutablePointer<AVDeviceInfoList>? = list; avdevice_free_list_devices(&owned) }
        let count = Int(list.pointee.nb_devices)
        return (0..<count).compactMap { i -> Microphone? in
            guard let device = list.pointee.devices[i]?.pointee, let name = device.device_name else { return nil }
            return Microphone(name: String(cString: name),
                              description: device.device_description.map { String(cString: $0) } ?? "",
                              isDefault: Int32(i) == list.pointee.default_device)
        }
    }
}
