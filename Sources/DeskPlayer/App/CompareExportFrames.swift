// SPDX-License-Identifier: GPL-3.0-or-later
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
/// reference's frame number). Written before it returns; the reply lists
/// the paths.
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
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            return try failed("cannot make \(directory.path): \(error.localizedDescription)", controller)
        }
        let paths = group.map { $0.player.currentItem?.location.url }
        let size = controller.screen?.compareSize ?? CompareExportPlan.size(of: info, mode: state.mode)
        var settings = item.preferences.video
        settings.deinterlace = .no
        let fps = info.frameRate ?? 25
        var written: [String] = []
        do throws(MediaError) {
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
                    try writePNG(picture.pixels, pitch: picture.pitch, width: picture.width, height: picture.height, to: url)
                    written.append(url.path)
                }
                let renderer = try CompareExportRenderer(
                    state: CompareExportPlan.copy(state),
                    sides: zip(paths, inputs).map { (name: $0 ?? "", info: $1?.info ?? MediaInfo()) },
                    width: size.width, height: size.height)
                guard let view = renderer.render(due, at: t) else { throw MediaError("cannot draw the view") }
                let url = directory.appendingPathComponent("\(base)-view.png")
                try writePNG(view.pixels, pitch: view.pitch, width: renderer.width, height: renderer.height, to: url)
                written.append(url.path)
            }
        } catch {
            return try failed("compare-export-frames: \(error)", controller)
        }
        for path in written { print("Saved: \(path)") }
        controller.osd("Saved \(written.count) pictures of \(times.count) frames to \(directory.path)", seconds: 3)
        return .array(written.map { .string($0) })
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
