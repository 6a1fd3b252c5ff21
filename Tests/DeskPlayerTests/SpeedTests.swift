import Foundation
import Testing
@testable import DeskPlayer

/// Playback speed as a person hears it: a clip whose tone changes from
/// 1000 Hz to 1500 Hz at 3 s, played by the binary and captured by SDL's
/// disk driver (exactly what the device was fed, 48 kHz stereo float).
@Suite struct SpeedTests {
    static let rate = 48_000.0
    /// The sine source's amplitude (ffmpeg's default, 1/8): a 1500 Hz tone
    /// moves at most 2π·1500/48000·0.125 ≈ 0.0245 from one sample to the next.
    static let amplitude = 0.125

    /// 3 s of 1000 Hz then 1 s of 1500 Hz, 48 kHz stereo WAV.
    static func toneClip(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("tones.wav").path
        try runTool("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=3",
                               "-f", "lavfi", "-i", "sine=frequency=1500:sample_rate=48000:duration=1",
                               "-filter_complex", "[0:a][1:a]concat=n=2:v=0:a=1,pan=stereo|c0=c0|c1=c0",
                               "-c:a", "pcm_s16le", path])
        return path
    }

    /// The frequency of `samples` (FFT peak, interpolated).
    static func frequency(_ samples: ArraySlice<Float>) -> Double {
        let n = samples.count
        var best = (bin: 0, power: 0.0)
        var powers = [Double](repeating: 0, count: n / 2)
        let values = Array(samples)
        // A plain DFT over the bins between 500 and 2000 Hz is enough here.
        let lo = Int(500.0 * Double(n) / rate), hi = Int(2000.0 * Double(n) / rate)
        for k in lo...hi {
            var re = 0.0, im = 0.0
            for (i, v) in values.enumerated() {
                let w = 0.5 - 0.5 * cos(2 * Double.pi * Double(i) / Double(n - 1))
                let phase = 2 * Double.pi * Double(k) * Double(i) / Double(n)
                re += Double(v) * w * cos(phase)
                im -= Double(v) * w * sin(phase)
            }
            powers[k] = re * re + im * im
            if powers[k] > best.power { best = (k, powers[k]) }
        }
        let k = best.bin
        let (a, b, c) = (log(powers[k - 1] + 1e-20), log(powers[k] + 1e-20), log(powers[k + 1] + 1e-20))
        return (Double(k) + 0.5 * (a - c) / (a - 2 * b + c)) * rate / Double(n)
    }

    /// Where the tone turns from 1000 to 1500 Hz (seconds from the first sound),
    /// found by the zero crossings' spacing.
    static func change(in left: [Float]) -> Double? {
        // Upward zero crossings: 48 samples apart at 1000 Hz, 32 at 1500 Hz.
        var last: Int?
        for i in 1..<left.count where left[i - 1] < 0 && left[i] >= 0 {
            if let l = last, i - l < 40, i - l > 24 { return Double(l) / rate }
            last = i
        }
        return nil
    }

    func capture(_ arguments: [String], socketCommands: ((ControlSocketTests.Client) -> Void)? = nil) throws -> [Float] {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try Self.toneClip(in: dir)
        let raw = dir.appendingPathComponent("out.raw")
        let env = ["SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": raw.path]
        if let socketCommands {
            let socket = dir.appendingPathComponent("dp.sock").path
            let process = try ControlSocketTests().startPlayer([clip, "--no-config"] + arguments, socket: socket,
                                                                environment: env)
            let client = try ControlSocketTests.Client(path: socket)
            _ = client.waitFor("duration")
            socketCommands(client)
            _ = client.command([.string("quit")])
            _ = ControlSocketTests().waitForExit(process)
        } else {
            let r = try runProcess(Fixtures.binary, [clip, "--no-config"] + arguments, environment: env, timeout: 40)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let left = try CapturedAudio.leftChannel(raw)
        guard let first = left.firstIndex(where: { $0 != 0 }), let last = left.lastIndex(where: { $0 != 0 }) else {
            throw MediaError("nothing was heard")
        }
        return Array(left[first...last])
    }

    @Test(arguments: [(2.0, 1.5), (0.5, 6.0)])
    func theChangeComesAtTheScaledTimeAndBothTonesKeepTheirPitch(_ speed: Double, _ expected: Double) throws {
        let left = try capture(["--speed", String(speed)])
        let change = try #require(Self.change(in: left))
        // atempo aligns its windows to the sound (up to ~10 ms of media).
        #expect(abs(change - expected) < 0.03, "at \(speed)x the change came at \(change) s, not \(expected) s")
        #expect(abs(Double(left.count) / Self.rate - 4 / speed) < 0.03, "\(Double(left.count) / Self.rate) s played")
        try #require(left.count >= Int((expected + 0.3) * Self.rate))
        let before = Self.frequency(left[Int((expected - 0.6) * Self.rate)..<Int((expected - 0.5) * Self.rate)])
        let after = Self.frequency(left[Int((expected + 0.2) * Self.rate)..<Int((expected + 0.3) * Self.rate)])
        #expect(abs(before / 1000 - 1) < 0.01, "the first tone sounds at \(before) Hz")
        #expect(abs(after / 1500 - 1) < 0.01, "the second tone sounds at \(after) Hz")
        let step = zip(left, left.dropFirst()).map { abs($1 - $0) }.max() ?? 1
        #expect(Double(step) <= Self.amplitude * 2 * Double.pi * 1500 / Self.rate * 1.02, "a click of \(step)")
    }

    /// Speed changed from the socket while the tone plays: no click (no
    /// sample-to-sample step larger than the tone's own), no gap, the pitch kept.
    @Test func changingSpeedWhilePlayingHasNoClick() throws {
        let left = try capture([], socketCommands: { client in
            for speed in [1.5, 0.75, 1.0, 1.9] {
                Thread.sleep(forTimeInterval: 0.35)
                #expect(client.command([.string("set_property"), .string("speed"), .number(speed)])?["error"]?.string == "success")
            }
            // 2.6 s of the 3 s of 1000 Hz in all, heard in about 2 s.
            Thread.sleep(forTimeInterval: 0.6)
        })
        try #require(left.count > Int(1.9 * Self.rate), "\(left.count) samples")
        let tone = left.prefix(Int(1.9 * Self.rate))
        let ownStep = Self.amplitude * 2 * Double.pi * 1000 / Self.rate
        let step = zip(tone, tone.dropFirst()).map { abs($1 - $0) }.max() ?? 1
        #expect(Double(step) <= ownStep * 1.05, "a click of \(step) (the tone's own step is \(ownStep))")
        #expect(CapturedAudio.longestSilence(tone) < 3, "a gap in the sound")
        for start in stride(from: 0.1, to: 1.8, by: 0.25) {
            let f = Self.frequency(tone[Int(start * Self.rate)..<Int((start + 0.05) * Self.rate)])
            #expect(abs(f / 1000 - 1) < 0.01, "at \(start) s the tone sounds at \(f) Hz")
        }
    }

    @Test func pitchCorrectionOffResamples() throws {
        let left = try capture(["--speed", "2", "--audio-pitch-correction", "no"])
        #expect(abs(Double(left.count) / Self.rate - 2) < 0.03)
        try #require(left.count > Int(0.6 * Self.rate))
        let f = Self.frequency(left[Int(0.5 * Self.rate)..<Int(0.6 * Self.rate)])
        #expect(abs(f / 2000 - 1) < 0.01, "resampled 1000 Hz at 2x sounds at \(f) Hz")
    }

    @Test(arguments: ["0", "-1", "nan", "4.5", "fast"])
    func aBadSpeedIsOneLineAndExitCode2(_ value: String) throws {
        let r = try runProcess(Fixtures.binary, ["--speed", value, Fixtures.asset("tone.wav")],
                               environment: AppTests.headless, timeout: 10)
        #expect(r.status == 2)
        let lines = r.stderr.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("deskplayer: ") }
        #expect(lines.count == 1, "\(r.stderr)")
        if value != "fast" { #expect(lines.first?.contains("0.25 and 4") == true, "\(lines)") }
    }
}
