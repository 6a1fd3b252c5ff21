// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// A made-up home for the camera roll's tests: `XDG_*` pointing into a
/// scratch folder, a user-dirs.dirs naming the Videos folder "Movies" (as
/// a translated desktop would), clips of several containers and days made
/// by ffmpeg, a phone's DCIM folder where gvfs mounts MTP phones
/// (`$XDG_RUNTIME_DIR/gvfs/mtp:host=…`), holding a clip recorded upright,
/// and a file named .mp4 that is not one. Modification times are set to
/// noon of days before today (local time), so days group the same way
/// whenever the test runs.
package struct LibraryHome {
    package let root: URL
    package var home: URL { root.appendingPathComponent("home") }
    package var videos: URL { home.appendingPathComponent("Movies") }
    package var cache: URL { home.appendingPathComponent(".cache") }
    package var thumbnails: URL { cache.appendingPathComponent("thumbnails") }
    package var runtime: URL { root.appendingPathComponent("run") }
    package var dcim: URL { runtime.appendingPathComponent("gvfs/mtp:host=Google_Pixel_7/Internal shared storage/DCIM") }

    /// The videos, newest first, as the roll lists them.
    package let phone: String, screen: String, holiday: String, broken: String, party: String, old: String
    package var newestFirst: [String] { [phone, screen, holiday, broken, party, old] }

    package var environment: [String: String] {
        ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path, "XDG_CACHE_HOME": cache.path,
         "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
         "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path, "XDG_RUNTIME_DIR": runtime.path]
    }

    /// Makes it all in a fresh scratch folder (the caller removes `root`).
    package init() throws {
        root = Fixtures.temporaryDirectory()
        let home = root.appendingPathComponent("home")
        let videos = home.appendingPathComponent("Movies")
        let dcim = root.appendingPathComponent("run/gvfs/mtp:host=Google_Pixel_7/Internal shared storage/DCIM")
        let fm = FileManager.default
        for folder in [videos.appendingPathComponent("2025"), videos.appendingPathComponent("clips/deep"),
                       home.appendingPathComponent(".config"), dcim.appendingPathComponent("Camera")] {
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try Data("# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_VIDEOS_DIR=\"$HOME/Movies\"\n".utf8)
            .write(to: home.appendingPathComponent(".config/user-dirs.dirs"))
        let pattern = ["-f", "lavfi", "-i", "testsrc=size=320x180:rate=25:duration=2"]
        func make(_ url: URL, _ codec: [String]) throws -> String {
            let r = try runTool("ffmpeg", ["-nostdin", "-v", "error", "-y"] + pattern + codec + [url.path])
            guard r.status == 0 else { throw MediaError("ffmpeg could not make \(url.lastPathComponent): \(r.stderr)") }
            return url.path
        }
        holiday = try make(videos.appendingPathComponent("holiday.mp4"), ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        screen = try make(videos.appendingPathComponent("screen.mov"), ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        party = try make(videos.appendingPathComponent("2025/party.mkv"), ["-c:v", "mpeg4"])
        old = try make(videos.appendingPathComponent("clips/deep/old.webm"), ["-c:v", "libvpx", "-deadline", "realtime", "-b:v", "200k"])
        phone = dcim.appendingPathComponent("Camera/PXL_20261127_120000.mp4").path
        try fm.copyItem(atPath: try VideoMedia.rotated(90), toPath: phone)
        broken = videos.appendingPathComponent("broken.mp4").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: broken))
        // Not videos: left out.
        try Data("notes".utf8).write(to: videos.appendingPathComponent("notes.txt"))
        try fm.copyItem(atPath: holiday, toPath: videos.appendingPathComponent(".hidden.mp4").path)
        for (path, days, hour) in [(phone, 1, 12), (screen, 3, 14), (holiday, 3, 10), (broken, 5, 12), (party, 10, 12), (old, 400, 12)] {
            try LibraryHome.setModified(path, daysAgo: days, hour: hour)
        }
    }

    /// Sets the file's modification time to `hour`:00 local time, `daysAgo` days before today.
    package static func setModified(_ path: String, daysAgo: Int, hour: Int) throws {
        let calendar = Calendar.current
        let today = calendar.startOfDay(for: Date())
        guard let day = calendar.date(byAdding: .day, value: -daysAgo, to: today),
              let when = calendar.date(byAdding: .hour, value: hour, to: day) else { throw MediaError("no such day") }
        try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: path)
    }
}
