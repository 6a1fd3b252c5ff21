// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Paths and helpers shared by the tests of every layer (each test target
/// depends on this one; see Package.swift).
package enum Fixtures {
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    package static func asset(_ name: String) -> String { root.appendingPathComponent("assets/\(name)").path }

    /// The app binary `swift build` made next to the tests.
    package static var binary: String {
        if let path = ProcessInfo.processInfo.environment["DESKPLAYER_BIN"] { return path }
        return root.appendingPathComponent(".build/debug/deskplayer").path
    }

    /// The environment the app runs in under test: this process's, with a
    /// state folder of its own per run (a path made only when the app
    /// writes there), so what one test's app remembers (volume, mute,
    /// window: `RememberedState`) never reaches another's, nor the user's.
    /// A test that sets XDG_STATE_HOME itself overrides it. The window speaks
    /// English whatever the user's language, as the tests read it
    /// (ScreenTests+Translations.swift sets a language itself).
    package static var appEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["LANGUAGE"] = nil
        env["LC_ALL"] = nil
        env["LC_MESSAGES"] = "C"
        env["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory
            .appendingPathComponent("deskplayer-test-state/\(UUID().uuidString)").path
        return env
    }

    /// A fresh scratch folder, removed by the caller.
    package static func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("deskplayer-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Polls `check` until it holds or `seconds` pass: tests wait for a state
/// the player reaches, never for a fixed time.
package func eventually(seconds: Double = 10, _ check: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try check() { return true }
        Thread.sleep(forTimeInterval: 0.1)  // polling `check`
    }
    return try check()
}

package struct ProcessResult {
    package var status: Int32
    package var stdout: String
    package var stderr: String
    package var timedOut: Bool
}

/// Runs a program to completion (killing it after `timeout` seconds).
/// `meanwhile` runs while the process does (told whether it still runs);
/// what it throws is thrown once the process has ended.
@discardableResult
package func runProcess(_ path: String, _ arguments: [String], environment: [String: String?] = [:],
                timeout: Double = 60, meanwhile: ((_ running: () -> Bool) throws -> Void)? = nil) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var env = Fixtures.appEnvironment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    // Signalled when the process has ended: what the waits below wait on.
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()
    // Read both pipes while waiting, so a chatty child never blocks on a full pipe.
    let outData = ReadBox(), errData = ReadBox()
    let group = DispatchGroup()
    for (pipe, box) in [(out, outData), (err, errData)] {
        group.enter()
        DispatchQueue.global().async {
            box.set(pipe.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
    }
    var failure: (any Error)?
    do { try meanwhile?({ process.isRunning }) } catch { failure = error }
    let timedOut = ended.wait(timeout: .now() + timeout) == .timedOut
    if timedOut {
        process.terminate()
        // Until it has ended, or half a second of grace before SIGKILL.
        if ended.wait(timeout: .now() + 0.5) == .timedOut { kill(process.processIdentifier, SIGKILL) }
    }
    process.waitUntilExit()
    group.wait()
    if let failure { throw failure }
    return ProcessResult(status: process.terminationStatus, stdout: String(decoding: outData.get(), as: UTF8.self),
                         stderr: String(decoding: errData.get(), as: UTF8.self), timedOut: timedOut)
}

package final class ReadBox: @unchecked Sendable {  // guarded by lock
    private let lock = NSLock()
    private var data = Data()
    package init() {}
    package func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    package func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// Runs a tool found on PATH.
@discardableResult
package func runTool(_ name: String, _ arguments: [String], timeout: Double = 60) throws -> ProcessResult {
    try runProcess("/usr/bin/env", [name] + arguments, timeout: timeout)
}

/// A binary PPM (P6) image, as ffmpeg writes it.
package struct PPMImage {
    package var width: Int
    package var height: Int
    package var pixels: [UInt8]  // RGB

    package init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    package init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var fields: [String] = []
        var index = 0
        let bytes = [UInt8](data)
        while fields.count < 4 && index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
            var token = ""
            while index < bytes.count, ![0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) {
                token.append(Character(UnicodeScalar(bytes[index])))
                index += 1
            }
            fields.append(token)
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]),
              bytes.count - index >= w * h * 3 else {
            throw MediaError("not a P6 PPM: \(path)")
        }
        width = w
        height = h
        pixels = Array(bytes[index..<(index + w * h * 3)])
    }

    /// PSNR in dB of `other` against this image (same size).
    package func psnr(_ other: PPMImage) -> Double {
        precondition(width == other.width && height == other.height, "PSNR needs equal sizes")
        var sum = 0.0
        for i in 0..<pixels.count {
            let d = Double(pixels[i]) - Double(other.pixels[i])
            sum += d * d
        }
        let mse = sum / Double(pixels.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// The columns `x0..<x1`, all rows.
    package func columns(_ x0: Int, _ x1: Int) -> PPMImage {
        var out: [UInt8] = []
        for y in 0..<height { out += pixels[(y * width + x0) * 3..<(y * width + x1) * 3] }
        return PPMImage(width: x1 - x0, height: height, pixels: out)
    }

    /// Mean of all channels (to tell a black frame from a picture).
    package var meanLevel: Double { Double(pixels.reduce(0) { $0 + Int($1) }) / Double(max(pixels.count, 1)) }
}

/// What SDL's disk audio driver wrote: interleaved stereo float at 48 kHz.
package enum CapturedAudio {
    package static func leftChannel(_ url: URL) throws -> [Float] {
        let data = try Data(contentsOf: url)
        return data.withUnsafeBytes { buffer in
            let floats = buffer.bindMemory(to: Float.self)
            return stride(from: 0, to: floats.count, by: 2).map { floats[$0] }
        }
    }

    /// The longest run of exactly silent samples.
    package static func longestSilence<S: Sequence<Float>>(_ samples: S) -> Int {
        var run = 0, longest = 0
        for v in samples {
            run = v == 0 ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }
}

/// ffmpeg's filter for a picture the app shows at another size than the
/// video's own: zimg's bicubic to RGB, as the app's `PlanarRGBResizer`
/// (at the video's own size the app converts with swscale: no filter).
package func displayScale(_ width: Int, _ height: Int) -> String {
    "zscale=w=\(width):h=\(height):filter=bicubic,format=gbrp"
}

/// A video file's first video stream's width and height (ffprobe).
package func videoSize(of file: String) throws -> (width: Int, height: Int) {
    let r = try runTool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                                    "-of", "csv=p=0", file])
    let parts = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
    guard parts.count == 2 else { throw MediaError("ffprobe gave no size for \(file): \(r.stderr)") }
    return (parts[0], parts[1])
}

/// Whether `name` is a program on PATH.
package func toolExists(_ name: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
}
