import CFFmpeg
import Foundation
import Testing
@testable import DeskPlayer

/// Loops exact on the streams packagers make (#28): every loop pass plays
/// the same samples as the first, bit for bit, whatever the audio codec
/// (AAC, AC-3, E-AC-3, Opus), the segments (MPEG-TS, fMP4), the renditions
/// and the timestamps (a discontinuity, the 33-bit wrap). The media is made
/// with FFmpeg's HLS muxer as packagers make it: 2 s of 30 fps video and 2 s
/// of stereo noise at 48 kHz (no resampling to the device's 48 kHz, so the
/// comparison is of the decoder's own samples).
@Suite(.serialized) struct PassIdentityTests {
    let pipelines = PipelineTests()
    static let passLength = StreamSeamTests.passLength

    /// The media, made once.
    static let media: URL? = {
        let dir = Fixtures.temporaryDirectory().appendingPathComponent("pass-identity")
        func folder(_ name: String) -> String {
            let url = dir.appendingPathComponent(name)
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url.path
        }
        let video = ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=2"]
        let noise = ["-f", "lavfi", "-i", "anoisesrc=color=white:amplitude=0.3:sample_rate=48000:duration=2:seed=7"]
        let h264 = ["-c:v", "libx264", "-preset", "ultrafast", "-g", "30"]
        let hls = ["-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod"]
        func audio(_ codec: String) -> [String] { ["-c:a", codec, "-ac", "2"] }
        let runs: [[String]] = [
            video + noise + h264 + audio("ac3") + [dir.appendingPathComponent("ac3.ts").path],
            video + noise + h264 + audio("eac3") + [dir.appendingPathComponent("eac3.ts").path],
            video + noise + h264 + audio("ac3") + hls + [folder("ac3") + "/index.m3u8"],
            video + noise + h264 + audio("eac3") + hls + [folder("eac3") + "/index.m3u8"],
            video + noise + h264 + audio("aac") + hls + ["-hls_segment_type", "fmp4", folder("fmp4") + "/index.m3u8"],
        ]
        for arguments in runs {
            guard (try? runTool("ffmpeg", ["-v", "error", "-y"] + arguments))?.status == 0 else { return nil }
        }
        return dir
    }()

    /// Every sample the decoder gives for the audio of `path`, left channel,
    /// decoded twice by the one decoder, flushed between (as a loop seam or
    /// a seek back does).
    static func decodeTwice(_ path: String) throws -> (first: [Float], second: [Float]) {
        let input = try MediaInput(location: MediaLocation(path), interrupt: InterruptFlag())
        let index = try #require(input.bestStream(AVMEDIA_TYPE_AUDIO))
        let decoder = try Decoder(stream: try #require(input.stream(index)), threads: 1)
        var packets: [Packet] = []
        let packet = try Packet()
        while try input.read(into: packet) {
            if Int(packet.streamIndex) == index { packets.append(try packet.take()) } else { packet.unref() }
        }
        let frame = try Frame()
        func decodeAll() -> [Float] {
            var samples: [Float] = []
            func receive() {
                while (try? decoder.receive(into: frame)) == .frame {
                    if let plane = frame.pointer.pointee.extended_data?[0] {
                        plane.withMemoryRebound(to: Float.self, capacity: frame.sampleCount) {
                            samples.append(contentsOf: UnsafeBufferPointer(start: $0, count: frame.sampleCount))
                        }
                    }
                    frame.unref()
                }
            }
            for p in packets + [nil] { decoder.decode(p, until: { false }, receive: receive) }
            decoder.flush()
            return samples
        }
        return (decodeAll(), decodeAll())
    }

    /// AC-3's decoder dithers what the bit stream leaves out from a random
    /// generator that ran on across a flush: the same packets decoded again
    /// differed throughout. Now its noise comes from each frame's own data.
    @Test(arguments: ["ac3.ts", "eac3.ts"])
    func ac3DecodesTheSameSamplesEveryTime(_ name: String) throws {
        let dir = try #require(PassIdentityTests.media, "ffmpeg could not make the media")
        let (first, second) = try PassIdentityTests.decodeTwice(dir.appendingPathComponent(name).path)
        #expect(first.count >= 96_000 && first.count == second.count, "\(first.count) and \(second.count) samples")
        // Past the first frame (1536 samples): what a flushed decoder keeps
        // of the frame before (its overlap) is the seam's business, not the dither's.
        let differing = zip(first, second).dropFirst(1536).filter { $0 != $1 }.count
        #expect(differing == 0, "\(differing) of \(first.count) samples of \(name) differ the second time")
    }
}
