// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import UI
import TestSupport

extension ScreenTests {
    /// `--vo gpu` on Xvfb's software OpenGL (llvmpipe): the same screenshots
    /// as the software path. Each video's YUV goes up at its own size and the
    /// renderer converts and scales it: flat colours within 3 levels of
    /// ffmpeg's decode where its picture is flat, and the whole picture
    /// within 30 dB: the GPU interpolates chroma at its own siting and
    /// samples bilinearly with no prefilter, so sharp colour edges differ
    /// from swscale's (measured 31.4–34.6 dB in these four cases, 32.2 at
    /// 1:1, where the software path gives 52–99).
    @Test(arguments: [
        ("fit", 1280, 720, "null"),
        ("fit", 960, 720, "scale=960:540:flags=bilinear,pad=960:720:0:90:black"),
        ("fill", 960, 720, "crop=960:720:160:0"),
        ("stretch", 960, 720, "scale=960:720:flags=bilinear"),
    ])
    func theGPUPathShowsWhatTheSoftwarePathShows(_ mode: String, _ width: Int, _ height: Int, _ filter: String) throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stats = dir.appendingPathComponent("stats.json")
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--start", "2", "--pause", "--content-mode", mode,
                                  "--geometry", "\(width)x\(height)+0+0", "--vo", "gpu", "--no-config",
                                  "--stats-json", stats.path])
        let shot = try grabSettled(app, width, height, to: dir.appendingPathComponent("shot.ppm").path)
        app.stop()
        let ref = try reference(filter, to: dir.appendingPathComponent("ref.ppm").path)
        let psnr = ref.psnr(shot)
        print("GPU path \(mode) \(width)x\(height): PSNR \(String(format: "%.1f", psnr)) dB")
        #expect(psnr > 30, "\(mode) \(width)x\(height): PSNR \(psnr) dB")
        // Where ffmpeg's picture is flat (the same 6 px around), the colour is the decode's.
        func flat(_ x: Int, _ y: Int) -> Bool {
            let c = ref.pixel(x, y)
            return [(-6, 0), (6, 0), (0, -6), (0, 6)].allSatisfy { ref.pixel(x + $0.0, y + $0.1) == c }
        }
        var checked = 0
        for y in stride(from: 20, to: height - 20, by: 40) {
            for x in stride(from: 20, to: width - 20, by: 40) where flat(x, y) {
                let (a, b) = (shot.pixel(x, y), ref.pixel(x, y))
                #expect(abs(a.r - b.r) <= 3 && abs(a.g - b.g) <= 3 && abs(a.b - b.b) <= 3,
                        "(\(x), \(y)): \(a) on screen, \(b) decoded")
                checked += 1
            }
        }
        #expect(checked > 50, "only \(checked) flat places to compare")
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect(report.renderer != "software", "renderer \(report.renderer): not the GPU path")
    }

    /// `--vo auto` on Xvfb finds llvmpipe, a software rasterizer, and draws
    /// with the software renderer (a GL renderer there costs three times the CPU).
    @Test func autoTakesTheSoftwarePathOnASoftwareRasterizer() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stats = dir.appendingPathComponent("stats.json")
        let app = try RunningApp([Fixtures.asset("demo.mp4"), "--quit-after", "1", "--geometry", "320x180+0+0",
                                  "--no-config", "--stats-json", stats.path, "-v"])
        let deadline = Date().addingTimeInterval(15)
        while app.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let report = try JSONDecoder().decode(StatsReport.self, from: Data(contentsOf: stats))
        #expect(report.renderer == "software")
        #expect(app.errors.contains("renderer: no GPU, software"), "stderr: \(app.errors)")
    }
}
