// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Testing
@testable import Media
import TestSupport

/// What a decoder keeps for another context to take over mid-stream, fed
/// the packets FFmpeg demuxes from a real file (H.264, a keyframe every 25
/// frames): a software context keeps none (a 1080p GOP is easily 15 MB,
/// held for a `hwdec` switch that may never come); a hardware one keeps
/// the run since the last keyframe, so a failing device hands over exactly.
struct ContextHandOverTests {
    /// The video packets of a 2 s clip, in order.
    static func packets() throws -> [Packet] {
        let path = try VideoMedia.clip("handover-g25.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2",
                                                            "-c:v", "libx264", "-preset", "veryfast", "-bf", "2", "-g", "25",
                                                            "-sc_threshold", "0", "-pix_fmt", "yuv420p"])
        let input = try MediaInput(location: MediaLocation(path), interrupt: InterruptFlag())
        let index = try #require(input.bestStream(AVMEDIA_TYPE_VIDEO))
        var packets: [Packet] = []
        let packet = try Packet()
        while try input.read(into: packet) {
            if Int(packet.streamIndex) == index { packets.append(try packet.take()) }
            packet.unref()
        }
        return packets
    }

    @Test func softwareKeepsNothingAndHardwareKeepsTheRunSinceTheKeyframe() throws {
        let packets = try Self.packets()
        #expect(packets.count == 50 && packets.filter(\.isKeyframe).count == 2, "\(packets.count) packets")
        var software = ContextHandOver(), hardware = ContextHandOver()
        for (i, packet) in packets.prefix(40).enumerated() {
            let admitted = (software.admits(packet, keeping: false), hardware.admits(packet, keeping: true))
            #expect(admitted == (true, true))
            #expect(!software.canReplay, "software kept packets after packet \(i)")
            #expect(hardware.canReplay, "hardware kept nothing to replay after packet \(i)")
        }
        // The hardware's run since the keyframe at 25 (and the one before, as
        // the current run is shorter than a decoder's reordering holds).
        var handOver = hardware
        let replay = handOver.takeOver()
        #expect(replay.first?.isKeyframe == true && replay.count == 40, "\(replay.count) packets to send again")
        // A software context's successor waits for a keyframe: the packets
        // before it are not sent, the keyframe is.
        _ = software.takeOver()
        let beforeKeyframe = software.admits(packets[40], keeping: true)
        let keyframe = software.admits(packets[25], keeping: true)
        #expect(!beforeKeyframe && keyframe && software.canReplay)
        // Back in software (a hardware context failed and handed over):
        // what was kept goes.
        let inSoftware = hardware.admits(packets[40], keeping: false)
        #expect(inSoftware && !hardware.canReplay)
    }
}
