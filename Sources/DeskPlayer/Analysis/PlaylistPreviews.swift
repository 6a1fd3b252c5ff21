// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media
import Synchronization
import Playback

/// What the playlist panel shows of each entry, also of those never
/// opened: its duration, its title tag and a small picture from a tenth of
/// the way in. Made one file at a time on a thread of its own at the
/// lowest priority, so the playing video never waits; kept per name (a
/// bounded number). Network entries get none (they would be fetched again).
/// Thread-safe (Mutex).
package final class PlaylistPreviews: Sendable {
    package struct Preview: Sendable {
        package let duration: Double?
        package let title: String?
        package let picture: PictureBuffer?
    }

    /// The largest picture: a row's thumbnail at up to 2x UI scale.
    package static let maxWidth = 192, maxHeight = 108
    /// Names kept; past them the oldest are forgotten (made again if shown again).
    static let limit = 512
    /// Names waiting to be made; past them the oldest not yet started are
    /// dropped: the panel asks again for what it still shows, so only rows
    /// scrolled past are lost, and a list of thousands queues no more.
    static let queueLimit = 64

    private struct State {
        var made: [String: Preview] = [:]
        var order: [String] = []
        var wanted: [String] = []
        var running = false
        var closed = false
        var version = 0
    }

    /// What the worker shares with the owner (the worker holds this, not
    /// the owner, so dropping the owner ends the worker).
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()

    package init() {}

    deinit { shared.state.withLock { $0.closed = true } }

    /// Previews are asked for or being made.
    package var isMaking: Bool { shared.state.withLock { $0.running || !$0.wanted.isEmpty } }

    /// The names waiting to be made, oldest first.
    var waiting: [String] { shared.state.withLock { $0.wanted } }

    /// Bumps whenever a preview is made (the panel redraws).
    package var version: Int { shared.state.withLock { $0.version } }

    /// The preview of `name` if made; otherwise it is asked for (made after
    /// those asked before) and nil comes back meanwhile.
    package func preview(of name: String) -> Preview? {
        let (preview, start) = shared.state.withLock { s -> (Preview?, Bool) in
            if let made = s.made[name] { return (made, false) }
            guard !s.closed else { return (nil, false) }
            if !s.wanted.contains(name) { s.wanted.append(name) }
            if s.wanted.count > Self.queueLimit { s.wanted.removeFirst(s.wanted.count - Self.queueLimit) }
            if s.running { return (nil, false) }
            s.running = true
            return (nil, true)
        }
        if start {
            let thread = Thread { [shared] in PlaylistPreviews.work(shared) }
            thread.name = "deskplayer.playlist-previews"
            thread.stackSize = 1 << 20
            thread.start()
        }
        return preview
    }

    private static func work(_ shared: Shared) {
        LowPriority.apply()
        while let name = shared.state.withLock({ s -> String? in
            guard !s.closed, !s.wanted.isEmpty else {
                s.running = false
                return nil
            }
            return s.wanted.removeFirst()
        }) {
            let preview = make(name)
            shared.state.withLock { s in
                s.made[name] = preview
                s.order.append(name)
                if s.order.count > limit { s.made[s.order.removeFirst()] = nil }
                s.version &+= 1
            }
        }
    }

    /// Opens `name` and reads what the panel shows; nothing for what cannot be opened.
    static func make(_ name: String) -> Preview {
        let location = MediaLocation(name)
        guard !location.isNetwork, let asset = try? MediaAsset(opening: location) else {
            return Preview(duration: nil, title: nil, picture: nil)
        }
        let input = asset.input
        let duration = input.durationMicroseconds.map { Double($0) / 1e6 }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let title = input.tags["title"].flatMap { $0.isEmpty ? nil : DisplayText.bounded($0) }
        var picture: PictureBuffer?
        if input.bestStream(AVMEDIA_TYPE_VIDEO) != nil {
            picture = (try? FrameGrabber.picture(of: name, at: FileThumbnail.pictureTime(duration: duration))).map(shrink)
        }
        return Preview(duration: duration, title: title, picture: picture)
    }

    /// A BGRA picture scaled down to fit `maxWidth` x `maxHeight`, each
    /// pixel the mean of the block it covers.
    static func shrink(_ picture: PictureBuffer) -> PictureBuffer {
        let w = picture.width, h = picture.height
        let scale = min(Double(maxWidth) / Double(max(w, 1)), Double(maxHeight) / Double(max(h, 1)), 1)
        let ow = max(Int(saturating: (Double(w) * scale).rounded()), 1), oh = max(Int(saturating: (Double(h) * scale).rounded()), 1)
        let out = PictureBuffer(width: ow, height: oh)
        for oy in 0..<oh {
            let y0 = oy * h / oh, y1 = max((oy + 1) * h / oh, y0 + 1)
            for ox in 0..<ow {
                let x0 = ox * w / ow, x1 = max((ox + 1) * w / ow, x0 + 1)
                var sum = (0, 0, 0, 0)
                for y in y0..<y1 {
                    let row = picture.pixels + y * picture.pitch
                    for x in x0..<x1 {
                        let p = row + x * 4
                        sum = (sum.0 + Int(p[0]), sum.1 + Int(p[1]), sum.2 + Int(p[2]), sum.3 + Int(p[3]))
                    }
                }
                let n = (y1 - y0) * (x1 - x0)
                let q = out.pixels + oy * out.pitch + ox * 4
                q[0] = UInt8(sum.0 / n)
                q[1] = UInt8(sum.1 / n)
                q[2] = UInt8(sum.2 / n)
                q[3] = UInt8(sum.3 / n)
            }
        }
        return out
    }
}
