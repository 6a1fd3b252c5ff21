// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Testing
@testable import Media
import TestSupport

/// The loupe's code values come from the decoded picture itself
/// (`DecodedPicture`, through libavutil's reader): every layout decoders
/// and files give (planar, semi-planar, packed, 10-bit, grey) reads as the
/// values the picture was made of, each pixel's chroma the sample it shares.
@Suite struct DecodedPictureTests {
    /// A 64x32 picture whose every code value is known (geq on the planar
    /// `made` format, then losslessly to `stored`: FFmpeg's own conversion
    /// between layouts of the same samples), as raw video in NUT.
    static func clip(made: String, stored: String, in dir: URL) throws -> String {
        let out = dir.appendingPathComponent("\(stored).nut").path
        let ten = made.contains("10")
        let (low, luma, chroma) = ten ? (64, 876, 896) : (16, 219, 224)
        let geq = made.hasPrefix("gray") ? "geq=lum='\(low)+mod(X*7+Y*13,\(luma))'"
            : "geq=lum='\(low)+mod(X*7+Y*13,\(luma))':cb='\(low)+mod(X*5+Y*3,\(chroma))':cr='\(low)+mod(X*11+Y*2,\(chroma))'"
        let r = try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=black:size=64x32:rate=1", "-frames:v", "1",
                                       "-vf", "format=\(made),\(geq),format=\(stored)", "-c:v", "rawvideo", "-f", "nut", out])
        guard r.status == 0 else { throw MediaError("ffmpeg \(stored): \(r.stderr)") }
        return out
    }

    /// The first picture of `path`, decoded: whether one came, and its
    /// `DecodedPicture` (nil when it has no Y′CbCr planes).
    static func decode(_ path: String) throws -> (decoded: Bool, picture: DecodedPicture?) {
        let input = try MediaInput(location: MediaLocation(path), interrupt: InterruptFlag())
        let index = try #require(input.bestStream(AVMEDIA_TYPE_VIDEO))
        let decoder = try Decoder(stream: try #require(input.stream(index)), threads: 1)
        let packet = try Packet()
        let frame = try Frame()
        var picture: DecodedPicture?
        var decoded = false
        func keep(_ frame: Frame) {
            decoded = true
            picture = DecodedPicture(referencing: frame.pointer)
        }
        while !decoded, try input.read(into: packet) {
            if Int(packet.streamIndex) == index { decoder.decode(packet, into: frame, until: { decoded }, each: keep) }
            packet.unref()
        }
        if !decoded { decoder.decode(nil, into: frame, until: { decoded }, each: keep) }
        return (decoded, picture)
    }

    @Test(arguments: [
        ("yuv420p", "nv12", 8, 1, 1),
        ("yuv420p", "nv21", 8, 1, 1),
        ("yuv420p10le", "yuv420p10le", 10, 1, 1),
        ("yuv422p10le", "yuv422p10le", 10, 1, 0),
        ("yuv422p", "yuyv422", 8, 1, 0),
        ("yuv444p", "yuv444p", 8, 0, 0),
        ("gray10le", "gray10le", 10, 0, 0),
    ])
    func codeValuesAreThePicturesOwn(_ made: String, _ stored: String, _ bits: Int, _ shiftX: Int, _ shiftY: Int) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let picture = try #require(try Self.decode(try Self.clip(made: made, stored: stored, in: dir)).picture)
        #expect(picture.width == 64 && picture.height == 32)
        let (low, luma, chroma) = bits == 10 ? (64, 876, 896) : (16, 219, 224)
        var wrong: [String] = []
        for y in 0..<32 {
            for x in 0..<64 {
                let (cx, cy) = (x >> shiftX, y >> shiftY)
                let grey = made.hasPrefix("gray")
                let expected = DecodedPicture.CodeValues(
                    y: low + (x * 7 + y * 13) % luma, cb: grey ? nil : low + (cx * 5 + cy * 3) % chroma,
                    cr: grey ? nil : low + (cx * 11 + cy * 2) % chroma, bits: bits, fullRange: false)
                var got = picture.codeValues(x: x, y: y)
                got?.fullRange = false  // raw video in NUT says no range
                if got != expected { wrong.append("(\(x), \(y)): \(String(describing: got)) not \(expected)") }
            }
        }
        #expect(wrong.isEmpty, "\(stored): \(wrong.count) of 2048 pixels, first \(wrong.prefix(3))")
        #expect(picture.codeValues(x: 64, y: 0) == nil && picture.codeValues(x: 0, y: -1) == nil, "outside: none")
    }

    /// RGB pictures have no Y′CbCr code values to show: none is kept.
    @Test func anRGBPictureHasNone() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("rgb.nut").path
        let r = try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x32:rate=1", "-frames:v", "1",
                                       "-pix_fmt", "rgb24", "-c:v", "rawvideo", "-f", "nut", out])
        #expect(r.status == 0)
        let result = try Self.decode(out)
        #expect(result.decoded && result.picture == nil)
    }
}
