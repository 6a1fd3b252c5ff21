// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// A way FFmpeg decodes on a GPU here (Debian's FFmpeg 5.1 has these
/// hwaccels), by mpv's `--hwdec` name. Every one is used as copy-back: the
/// surfaces come back to system memory, so nothing downstream changes.
package enum HardwareMethod: String, Sendable, CaseIterable {
    case nvdec, cuda, vaapi, vdpau

    var deviceType: AVHWDeviceType {
        switch self {
        case .nvdec, .cuda: AV_HWDEVICE_TYPE_CUDA
        case .vaapi: AV_HWDEVICE_TYPE_VAAPI
        case .vdpau: AV_HWDEVICE_TYPE_VDPAU
        }
    }

    /// What `hwdec-current` says while it decodes (mpv's name for copy-back).
    package var copyName: String { rawValue + "-copy" }

    /// Why there is plainly no device for it on this machine, without asking
    /// the driver: libva and libvdpau print their own failures to stderr,
    /// which `auto-safe` must not do on a machine without a GPU.
    func missingDevice(fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> String? {
        let renderNodes = (128..<136).map { "/dev/dri/renderD\($0)" }
        switch self {
        case .nvdec, .cuda:
            return fileExists("/dev/nvidiactl") ? nil : "no NVIDIA device (/dev/nvidiactl)"
        case .vaapi:
            return renderNodes.contains(where: fileExists) ? nil : "no VA-API device (no /dev/dri render node)"
        case .vdpau:
            return fileExists("/dev/nvidiactl") || renderNodes.contains(where: fileExists)
                ? nil : "no VDPAU device (no GPU)"
        }
    }
}

/// mpv's `--hwdec`: `no`; `auto-safe` (the default), the methods and codecs
/// known to decode exactly, silently in software where they cannot; `auto`
/// (`yes`), any method and codec; or one method, which says once why it
/// fell back. The `-copy` forms are the same here: every method copies back.
package struct HardwareDecoding: Sendable, Equatable, CustomStringConvertible {
    package enum Choice: Sendable, Equatable {
        case no, autoSafe, auto
        case method(HardwareMethod)
    }

    package let choice: Choice
    /// The name as given (mpv's property reads it back so).
    package let name: String

    package static let no = HardwareDecoding(choice: .no, name: "no")
    package static let autoSafe = HardwareDecoding(choice: .autoSafe, name: "auto-safe")

    private init(choice: Choice, name: String) { (self.choice, self.name) = (choice, name) }

    package init?(_ text: String) {
        let name = text.trimmingCharacters(in: .whitespaces).lowercased()
        switch name {
        case "no": choice = .no
        case "auto-safe", "auto-copy-safe": choice = .autoSafe
        case "auto", "yes", "auto-copy": choice = .auto
        default:
            let base = name.hasSuffix("-copy") ? String(name.dropLast(5)) : name
            guard let method = HardwareMethod(rawValue: base) else { return nil }
            choice = .method(method)
        }
        self.name = name
    }

    /// Every name `--hwdec` takes, for help and for `cycle-values`.
    package static let names = ["no", "auto-safe", "auto", "auto-copy", "auto-copy-safe", "yes"]
        + HardwareMethod.allCases.flatMap { [$0.rawValue, $0.copyName] }

    package var description: String { name }

    /// Whether a fall back to software is said (an explicit method): the
    /// automatic modes fall back silently, as mpv's do.
    package var saysWhyItFallsBack: Bool {
        if case .method = choice { return true }
        return false
    }

    /// Codecs `auto-safe` decodes in hardware: those whose hwaccels give
    /// the same picture as FFmpeg's software decoders (mpv's allow list).
    static let safeCodecs = [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC, AV_CODEC_ID_VP8, AV_CODEC_ID_VP9, AV_CODEC_ID_AV1]

    /// The methods to try for `codec`, best first (none: software).
    func methods(for codec: AVCodecID) -> [HardwareMethod] {
        switch choice {
        case .no: return []
        case .autoSafe: return HardwareDecoding.safeCodecs.contains(codec) ? [.nvdec, .vaapi] : []
        case .auto: return [.nvdec, .vaapi, .vdpau]
        case .method(let method): return [method]
        }
    }
}
