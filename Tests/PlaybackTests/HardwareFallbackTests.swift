// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Testing
@testable import Media
@testable import Playback
import PlaybackTestSupport
import TestSupport

/// Hardware decoding's fall back mid-stream, through real FFmpeg decoding:
/// a simulated device whose copy-back fails after N frames
/// (`HardwareFault`) hands over to the software decoder, which decodes the
/// packets since the last keyframe again; every frame of the clip still
/// comes, each byte for byte what `ffmpeg` decodes, and it is said once.
@Suite(.serialized) struct HardwareFallbackTests {
    static let frameCount = 50

    /// 2 s of H.264 at 25 fps with B-frames and a keyframe every 10 frames.
    static func clip() throws -> String {
        try VideoMedia.clip("hwdec-fallback-g10.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2",
                                                   "-vf", "noise=alls=6:allf=t", "-c:v", "libx264", "-preset", "veryfast",
                                                   "-bf", "2", "-g", "10", "-pix_fmt", "yuv420p"])
    }

    /// ffmpeg's software decode of `path`: each frame's planes, YUV 4:2:0.
    static func reference(_ path: String, width: Int, height: Int) throws -> [[UInt8]] {
        let out = Fixtures.temporaryDirectory().appendingPathComponent("reference.yuv")
        let r = try runTool("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = [UInt8](try Data(contentsOf: out))
        let size = width * height * 3 / 2
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    /// A decoded YUV 4:2:0 frame's planes, without their padding; NV12
    /// (a copy back from the device) with its chroma taken apart.
    static func planes(_ frame: Frame) -> [UInt8] {
        let f = frame.pointer.pointee
        let width = Int(f.width), height = Int(f.height)
        var bytes: [UInt8] = []
        if f.format == AV_PIX_FMT_NV12.rawValue, let y = f.data.0, let uv = f.data.1 {
            for row in 0..<height { bytes += UnsafeBufferPointer(start: y + row * Int(f.linesize.0), count: width) }
            for offset in 0..<2 {
                for row in 0..<height / 2 {
                    let line = uv + row * Int(f.linesize.1)
                    bytes += (0..<width / 2).map { line[2 * $0 + offset] }
                }
            }
            return bytes
        }
        for (plane, w, h) in [(0, width, height), (1, width / 2, height / 2), (2, width / 2, height / 2)] {
            guard let data = plane == 0 ? f.data.0 : plane == 1 ? f.data.1 : f.data.2 else { return [] }
            let stride = Int(plane == 0 ? f.linesize.0 : plane == 1 ? f.linesize.1 : f.linesize.2)
            for y in 0..<h { bytes += UnsafeBufferPointer(start: data + y * stride, count: w) }
        }
        return bytes
    }

    /// PSNR of `a` against `b` (99: identical).
    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 0 }
        var sum = 0.0
        for i in a.indices { let d = Double(a[i]) - Double(b[i]); sum += d * d }
        return sum == 0 ? 99 : 10 * log10(255 * 255 / (sum / Double(a.count)))
    }

    /// Every frame the pipeline gives for `path`, by frame number; the
    /// warnings said; and what decoded at the start and at the end.
    static func play(_ path: String, fault: HardwareFault?, hwdec: String = "vaapi", switchTo: (frame: Int, hwdec: String)? = nil)
        throws -> (frames: [Int: [UInt8]], order: [Int], nv12: Int, warnings: [String], first: String, last: String) {
        var preferences = ItemPreferences()
        preferences.hardwareDecoding = HardwareDecoding(hwdec) ?? .no
        preferences.hardwareFault = fault
        let (item, pipeline) = try openItem(path, preferences: preferences, size: nil)
        defer { item.cancel() }
        let first = pipeline.hardwareDecodingInUse
        var frames: [Int: [UInt8]] = [:]
        var order: [Int] = []
        var nv12 = 0
        let deadline = Date().addingTimeInterval(30)
        while !pipeline.frames.isDrained && Date() < deadline {
            guard let f = pipeline.frames.pop() else {
                Thread.sleep(forTimeInterval: 0.002)  // the decode thread has not queued the next frame yet: poll the queue
                continue
            }
            let number = Int((f.pts.seconds * 25).rounded())
            if let switchTo, order.count == switchTo.frame, let choice = HardwareDecoding(switchTo.hwdec) {
                pipeline.setHardwareDecoding(choice)  // as the hwdec property does while playing
            }
            frames[number] = planes(f.source)
            if f.source.pointer.pointee.format == AV_PIX_FMT_NV12.rawValue { nv12 += 1 }
            order.append(number)
        }
        return (frames, order, nv12, item.takeWarnings(), first, pipeline.hardwareDecodingInUse)
    }

    @Test(arguments: [0, 17, 40])
    func aCopyThatFailsMidStreamFallsBackWithExactFrames(after transfers: Int) throws {
        let path = try Self.clip()
        let reference = try Self.reference(path, width: 320, height: 180)
        #expect(reference.count == Self.frameCount)
        let played = try Self.play(path, fault: HardwareFault(transfersBeforeFailure: transfers))
        #expect(played.first == "simulated")
        #expect(played.nv12 > 0 || transfers == 0, "frames copied back come as NV12, as from a GPU")
        #expect(played.last == "no", "after the fault the software decoder decodes")
        // Each frame once, in order: none lost at the hand-over, none given twice.
        #expect(played.order == Array(0..<Self.frameCount), "frames given: \(played.order)")
        let psnrs = reference.indices.map { i in played.frames[i].map { Self.psnr($0, reference[i]) } ?? 0 }
        let inexact = psnrs.indices.filter { psnrs[$0] < 99 }
        #expect(inexact.isEmpty, "frames not ffmpeg's after a fault at \(transfers): \(inexact.map { ($0, psnrs[$0]) })")
        let said = played.warnings.filter { $0.contains("hardware decoding") }
        #expect(said.count == 1, "\(played.warnings)")
        #expect(said.first?.contains("injected fault") == true && said.first?.contains("software") == true)
    }

    /// `hwdec` changed while playing: from software the decoder takes over
    /// at the next keyframe (nothing is kept to decode again), here onto the
    /// simulated device, which fails 4 frames later, back to software:
    /// every frame still comes once, exactly.
    @Test(arguments: [3, 9, 30])
    func aSwitchWhilePlayingLosesAndRepeatsNoFrame(atFrame switchFrame: Int) throws {
        let path = try Self.clip()
        let reference = try Self.reference(path, width: 320, height: 180)
        let played = try Self.play(path, fault: HardwareFault(transfersBeforeFailure: 4), hwdec: "no",
                                   switchTo: (frame: switchFrame, hwdec: "vaapi"))
        #expect(played.first == "no" && played.last == "no")
        #expect(played.order == Array(0..<Self.frameCount), "frames given: \(played.order)")
        let inexact = reference.indices.filter { i in played.frames[i].map { Self.psnr($0, reference[i]) < 99 } ?? true }
        #expect(inexact.isEmpty, "frames not ffmpeg's: \(inexact)")
        #expect(played.warnings.filter { $0.contains("injected fault") }.count == 1, "\(played.warnings)")
    }

    /// This machine has no GPU (the test says nothing where one is).
    static let noDevice = HardwareMethod.allCases.allSatisfy { $0.missingDevice() != nil }

    @Test(.enabled(if: noDevice)) func autoSafeWithoutADeviceDecodesInSoftwareSilently() throws {
        let path = try Self.clip()
        let played = try Self.play(path, fault: nil, hwdec: "auto-safe")
        #expect(played.first == "no" && played.last == "no")
        #expect(played.frames.count == Self.frameCount)
        #expect(played.warnings.isEmpty, "\(played.warnings)")
    }
}
