// SPDX-License-Identifier: GPL-3.0-or-later
import Analysis
import CFFmpeg
import Control
import Foundation
import Media
import Playback
import UI

/// `compare-export-frames DIR [N]`: for each frame marked (`compare-mark`),
/// or the N worst by the metrics measured (lowest SSIM, else PSNR), or else
/// the frame on screen: A's and B's frames at their own full size (decoded
/// again, filtered as they play) and the view as the window draws it, as
/// PNG: `frame-NNNNN-A.png`, `…-B.png`, `…-view.png` (NNNNN: the
/// reference's frame number). Decoded, drawn and written by the file worker
/// (`FileWorker`), off the main thread; the reply, once written, lists the paths.
enum CompareExportFrames {
    static func write(to directory: URL, worst: Int?, controller: CommandController) throws(CommandError) -> JSONValue {
        guard let state = controller.compare else { throw .propertyUnavailable }
        let group = controller.tiles.syncGroup
        guard let reference = group.first?.player, let item = reference.currentItem, let info = item.info, info.hasVideo,
              group.count >= 2 else { throw .propertyUnavailable }
        let times: [Double]
        if let worst {
            let measured = controller.compareMetrics?.measured ?? []
            guard !measured.isEmpty else {
                return try failed("compare-export-frames: no frame measured yet (--compare-metrics psnr,ssim)", controller)
            }
            let score = { (f: MeasuredFrame) in f.metrics.ssimAll ?? f.metrics.psnrAverage.map { $0 / 100 } ?? 1 }
            times = measured.sorted { score($0) < score($1) }.prefix(worst).map(\.time).sorted()
        } else if !controller.compareMarks.isEmpty {
            times = controller.compareMarks
        } else {
            times = [reference.currentTime.seconds]
        }
        let job = Job(directory: directory, times: times, paths: group.map { $0.player.currentItem?.location.url },
                      state: CompareExportPlan.copy(state),
                      size: controller.screen?.compareSize ?? CompareExportPlan.size(of: info, mode: state.mode),
                      settings: { var settings = item.preferences.video; settings.deinterlace = .no; return settings }(),
                      fps: info.frameRate ?? 25)
        try controller.startFileJob("compare-export-frames") { () throws(MediaError) in try job.run() }
        return .null
    }

    /// What the pictures are made from, copied on the main thread and handed
    /// to the file worker: the comparison's state is a copy of its own.
    private struct Job: @unchecked Sendable {  // `state` is a copy no other thread holds
        let directory: URL
        let times: [Double]
        let paths: [String?]
        let state: CompareState
        let size: (width: Int, height: Int)
        let settings: VideoFilterSettings
        let fps: Double

        /// Decodes, draws and writes every picture (on the file worker).
        func run() throws(MediaError) -> FileWorker.Outcome {
            do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
                throw MediaError("cannot make \(directory.path): \(error.localizedDescription)")
            }
            var written: [String] = []
            for t in times {
                let base = String(format: "frame-%05d", Int(saturating: (t * fps).rounded()))
                let shown = [0, state.other]
                var inputs: [CompareExportInput?] = Array(repeating: nil, count: paths.count)
                for index in shown {
                    guard let path = paths[index] else { continue }
                    inputs[index] = try CompareExportInput(path: path, settings: settings, from: t + state.shift(of: index))
                }
                let due = inputs.enumerated().map { index, input in
                    input.flatMap { side in
                        side.frame(at: t + state.shift(of: index)).map {
                            (frame: $0.frame, time: $0.time, notes: side.toneMapped ? ["HDR tone mapped"] : [])
                        }
                    }
                }
                for index in shown {
                    guard let frame = due[index]?.frame else { continue }
                    let picture = PictureBuffer(width: Int(frame.pointee.width), height: Int(frame.pointee.height))
                    try Scaler().scale(frame, into: picture)
                    let url = directory.appendingPathComponent("\(base)-\(CompareView.letter(index)).png")
                    try CompareExportFrames.writePNG(picture.pixels, pitch: picture.pitch, width: picture.width, height: picture.height, to: url)
                    written.append(url.path)
                }
                let renderer = try CompareExportRenderer(
                    state: CompareExportPlan.copy(state),
                    sides: zip(paths, inputs).map { (name: $0 ?? "", info: $1?.info ?? MediaInfo()) },
                    width: size.width, height: size.height)
                guard let view = renderer.render(due, at: t) else { throw MediaError("cannot draw the view") }
                let url = directory.appendingPathComponent("\(base)-view.png")
                try CompareExportFrames.writePNG(view.pixels, pitch: view.pitch, width: renderer.width, height: renderer.height, to: url)
                written.append(url.path)
            }
            return FileWorker.Outcome(reply: .array(written.map { .string($0) }), saved: written,
                                      osd: "Saved \(written.count) pictures of \(times.count) frames to \(directory.path)")
        }
    }

    private static func writePNG(_ pixels: UnsafePointer<UInt8>, pitch: Int, width: Int, height: Int,
                                 to url: URL) throws(MediaError) {
        let data = try PNGEncoder(width: width, height: height).encode(bgra: pixels, pitch: pitch)
        do { try AtomicFile.write(data, to: url) } catch { throw MediaError("cannot write \(url.path): \(error.localizedDescription)") }
    }

    private static func failed(_ line: String, _ controller: CommandController) throws(CommandError) -> JSONValue {
        PlayerApp.printError(line)
        controller.osd(line, seconds: 4)
        throw .commandFailed
    }
}
