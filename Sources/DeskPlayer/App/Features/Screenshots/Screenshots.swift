// SPDX-License-Identifier: GPL-3.0-or-later
import Analysis
import Control
import Foundation
import Media
import Output
import Playback
import Synchronization
import UI

/// `s` saves the focused tile's video frame at the file's own size, `S` the
/// whole window, as PNG, to `--screenshot-dir` or the XDG pictures folder.
/// Keys work in the background and report when done; the control socket's
/// `screenshot-to-file` is done by the `FileWorker` and replied to once the
/// file is written.
final class Screenshots: Sendable {
    let directory: URL
    private let finished = Mutex<[Result<URL, MediaError>]>([])
    private let queue = DispatchQueue(label: "screenshots")
    /// Video screenshots waiting or being written: a held `s` key (auto-repeat)
    /// decodes a frame per press, so past `limit` a press is refused, not queued.
    private let pending = Mutex(0)
    static let limit = 4

    init(directory: String?) {
        if let directory {
            self.directory = URL(fileURLWithPath: directory)
        } else {
            let env = ProcessInfo.processInfo.environment
            let pictures = env["XDG_PICTURES_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
                ?? (env["HOME"] ?? NSHomeDirectory()) + "/Pictures"
            self.directory = URL(fileURLWithPath: pictures)
        }
    }

    /// A new file name: deskplayer-NAME-YYYYmmdd-HHMMSS(-N).png.
    func nextURL(for name: String) -> URL {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let base = "deskplayer-" + (name as NSString).deletingPathExtension + "-" + formatter.string(from: Date())
        var url = directory.appendingPathComponent(base + ".png")
        var n = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = directory.appendingPathComponent("\(base)-\(n).png")
            n += 1
        }
        return url
    }

    /// The frame of `item` at `time`, decoded again at its own size and
    /// filtered as it plays (`settings`: its rotation, deinterlacing, tone mapping).
    static func writeVideo(_ item: String, at time: MediaTime, settings: VideoFilterSettings,
                           to url: URL) throws(MediaError) {
        let picture = try FrameGrabber.picture(of: item, at: time, settings: settings)
        let png = try PNGEncoder(width: picture.width, height: picture.height).encode(bgra: picture.pixels, pitch: picture.pitch)
        try write(png, to: url)
    }

    /// What the window shows now.
    static func writeWindow(_ screen: any PlayerScreen, to url: URL) throws(MediaError) {
        try writePicture(try screen.capture(), to: url)
    }

    /// A picture taken (of the window, on the main thread), encoded and
    /// written on any thread.
    static func writePicture(_ picture: PictureBuffer, to url: URL) throws(MediaError) {
        let png = try PNGEncoder(width: picture.width, height: picture.height).encode(bgra: picture.pixels, pitch: picture.pitch)
        try write(png, to: url)
    }

    private static func write(_ data: Data, to url: URL) throws(MediaError) {
        do { try AtomicFile.write(data, to: url) } catch let error as MediaError { throw error } catch {
            throw MediaError("cannot write \(url.path): \(error)")
        }
    }

    /// Takes the video screenshot on a background queue.
    func takeVideo(_ item: String, at time: MediaTime, settings: VideoFilterSettings) {
        let accepted = pending.withLock { n in
            guard n < Self.limit else { return false }
            n += 1
            return true
        }
        guard accepted else {
            finished.withLock { $0.append(.failure(MediaError("\(Self.limit) screenshots are being written already; refused"))) }
            return
        }
        let url = nextURL(for: (item as NSString).lastPathComponent)
        queue.async { [self] in
            defer { pending.withLock { $0 -= 1 } }
            let result: Result<URL, MediaError>
            do throws(MediaError) {
                try Screenshots.writeVideo(item, at: time, settings: settings, to: url)
                result = .success(url)
            } catch { result = .failure(error) }
            finished.withLock { $0.append(result) }
            MainThreadWake.post()
        }
    }

    func takeWindow(_ screen: any PlayerScreen) {
        let url = nextURL(for: "window")
        let result: Result<URL, MediaError>
        do { try Screenshots.writeWindow(screen, to: url); result = .success(url) } catch { result = .failure(error) }
        finished.withLock { $0.append(result) }
    }

    /// Screenshots finished since the last call.
    func takeFinished() -> [Result<URL, MediaError>] {
        finished.withLock { list in
            defer { list.removeAll() }
            return list
        }
    }
}
