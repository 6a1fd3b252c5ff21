// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Testing
@testable import Media
import TestSupport

/// Container numbers go through `ContainerMath`, which never traps (issue
/// 50: a phone's 30000090/1001003 frame rate times another overflowed
/// `Int32` on the decode thread), and nothing outside it does arithmetic on
/// a rational's parts.
@Suite struct ContainerMathTests {
    static let phoneRate = AVRational(num: 30_000_090, den: 1_001_003)

    @Test func theRatesThatTrappedGiveTheirQuotient() throws {
        let q = try #require(ContainerMath.quotient(Self.phoneRate, Self.phoneRate))
        #expect(q.num == 1 && q.den == 1)
        let half = try #require(ContainerMath.quotient(Self.phoneRate, AVRational(num: 60_000_180, den: 1_001_003)))
        #expect(half.num == 1 && half.den == 2)
        // Not exact in Int32: the nearest FFmpeg can write, within a part in a million.
        let odd = try #require(ContainerMath.quotient(Self.phoneRate, AVRational(num: 2_147_483_647, den: 1_000_003)))
        let expected = (30_000_090.0 / 1_001_003) / (2_147_483_647.0 / 1_000_003)
        #expect(abs(Double(odd.num) / Double(odd.den) / expected - 1) < 1e-6)
        #expect(ContainerMath.quotient(AVRational(num: 0, den: 1), Self.phoneRate) == nil)
        #expect(ContainerMath.quotient(Self.phoneRate, AVRational(num: 1, den: -5)) == nil)
    }

    @Test func sumsAndProductsSayWhatTheyDoOnOverflow() {
        #expect(ContainerMath.sum(.max, 1) == nil)
        #expect(ContainerMath.sum(.min, -1) == nil)
        #expect(ContainerMath.sum(5, -7) == -2)
        #expect(ContainerMath.clampedProduct(.max / 2, 3) == .max)
        #expect(ContainerMath.clampedProduct(.max / 2, -3) == .min)
        #expect(ContainerMath.clampedProduct(-4, 5) == -20)
        #expect(ContainerMath.exactTime(.max, in: AVRational(num: 2, den: 1)) == nil)
        #expect(ContainerMath.exactTime(DP_AV_NOPTS_VALUE, in: AVRational(num: 1, den: 90_000)) == nil)
        #expect(ContainerMath.ticksPerFrame(frameRate: Self.phoneRate, timeBase: AVRational(num: 1, den: 30_000_090)) == 1_001_003)
        #expect(ContainerMath.ticksPerFrame(frameRate: AVRational(num: 0, den: 0), timeBase: AVRational(num: 1, den: 90_000)) == nil)
        #expect(ContainerMath.ticks(seconds: .nan, in: AVRational(num: 1, den: 1000)) == 0)
        #expect(ContainerMath.ticks(seconds: 1e300, in: AVRational(num: 1, den: 1000)) == .max)
        // A timestamp past Int64 once in seconds' ticks is the farthest time, not a wrapped negative one.
        #expect(MediaTime(.max, AVRational(num: 1001, den: 30_000)) > .zero)
        #expect(MediaTime(value: 7, timescale: 3).scaled(by: AVRational(num: 1, den: 2)) == MediaTime(value: 7, timescale: 6))
        #expect(MediaTime(value: .max, timescale: .max - 1).scaled(by: AVRational(num: .max, den: 3)).seconds > 1e8)
        var hasher = Hasher()
        MediaTime(value: .min, timescale: 1).hash(into: &hasher)
        _ = hasher.finalize()
    }

    /// The lint: `.num` / `.den` with an arithmetic operator beside it, in
    /// any source outside the files whose arithmetic is checked (the 128-bit
    /// `MediaTime` and `ContainerMath` itself). Comments and string literals
    /// (a filter's `time_base=\(tb.num)/\(tb.den)`) are left out.
    @Test func noRationalArithmeticOutsideContainerMath() throws {
        let allowed: Set<String> = ["ContainerMath.swift", "MediaTime.swift"]
        let sources = Fixtures.root.appendingPathComponent("Sources")
        let arithmetic = try NSRegularExpression(
            pattern: #"\.(num|den)\b\)?\s*&?[-+*/%](?!>)|&?[-+*/%]\s*(\w+\()*[\w.]*\.(num|den)\b"#)
        let literal = try NSRegularExpression(pattern: #""(?:[^"\\]|\\.)*""#)
        var found: [String] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift", !allowed.contains(url.lastPathComponent) else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                var code = String(line)
                if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
                code = literal.stringByReplacingMatches(in: code, range: NSRange(code.startIndex..., in: code), withTemplate: "\"\"")
                if arithmetic.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil {
                    found.append("\(url.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "arithmetic on AVRational parts outside ContainerMath:\n\(found.joined(separator: "\n"))")
    }
}
