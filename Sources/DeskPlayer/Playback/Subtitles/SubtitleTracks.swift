// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// The subtitle tracks of one item. Events are added as they are read (a
/// file's packets as the demuxer reaches them, a subtitle file all at once)
/// and kept, so seeks and loops find them again; the selected track is drawn
/// onto every video picture at that picture's time. Thread-safe: the demux
/// thread adds, the video thread draws, the UI selects.
package final class SubtitleTracks: Sendable {
    /// Text: one libass track holding every event seen (each once).
    private final class TextTrack {
        let ass: ASSTrack
        var seen = Set<String>()
        var order = 0
        init(_ ass: ASSTrack) { self.ass = ass }
    }

    /// Bitmaps: the decoded pictures in time order, within a memory bound.
    private final class BitmapTrack {
        var events: [DecodedSubtitle] = []
        var bytes = 0
        let canvas: (width: Int, height: Int)
        init(canvas: (width: Int, height: Int)) { self.canvas = canvas }
    }

    private enum Track {
        case text(TextTrack)
        case bitmap(BitmapTrack)
    }

    private struct State {
        let library: ASSLibrary?
        var renderer: ASSRenderer?
        var rendererFailed = false
        var tracks: [Int: Track] = [:]
        var descriptions: [MediaTrack] = []
        var selected: Int?
        var delay = 0.0
        var visible = true
    }

    /// Decoded bitmap subtitles kept per track (a film's PGS track is far larger).
    static let bitmapBytesLimit = 32 << 20

    private let state: Mutex<State>
    /// The video's own size: the script's frame for text, the default canvas for bitmaps.
    let videoWidth: Int
    let videoHeight: Int

    /// `fonts`: fonts the file carries (Matroska attachments), used before the system's.
    init(videoWidth: Int, videoHeight: Int, fonts: [(name: String, data: [UInt8])] = []) {
        self.videoWidth = videoWidth
        self.videoHeight = videoHeight
        state = Mutex(State(library: ASSLibrary(fonts: fonts)))
    }

    /// Registers `track`: text (with its ASS header) or bitmap (with its
    /// canvas). False when libass could not make the track.
    @discardableResult
    func addTrack(_ track: MediaTrack, header: String?, canvas: (width: Int, height: Int)) -> Bool {
        state.withLock { s in
            if track.isBitmap {
                let w = canvas.width > 0 ? canvas.width : videoWidth, h = canvas.height > 0 ? canvas.height : videoHeight
                s.tracks[track.id] = .bitmap(BitmapTrack(canvas: (w, h)))
            } else {
                guard let library = s.library, let ass = ASSTrack(library: library, header: header) else { return false }
                s.tracks[track.id] = .text(TextTrack(ass))
            }
            s.descriptions.removeAll { $0.id == track.id }
            s.descriptions.append(track)
            return true
        }
    }

    func removeTrack(_ id: Int) {
        state.withLock { s in
            s.tracks[id] = nil
            s.descriptions.removeAll { $0.id == id }
            if s.selected == id { s.selected = nil }
        }
    }

    /// The subtitle tracks held, in the order they were added.
    var trackList: [MediaTrack] { state.withLock { $0.descriptions } }

    func hasTrack(_ id: Int) -> Bool { state.withLock { $0.tracks[id] != nil } }

    /// Adds a decoded subtitle to track `id`; one already held is not added twice.
    func add(_ subtitle: DecodedSubtitle, to id: Int) {
        state.withLock { s in
            switch s.tracks[id] {
            case .text(let track)?:
                guard case .text(let lines) = subtitle.content else { return }
                // Whole milliseconds (libass's unit), rounded down as frame times are.
                let startMs = subtitle.start.floor(in: 1000)
                // No end: until a later line would replace it (rare for text tracks).
                let endMs = subtitle.end.map { $0.floor(in: 1000) } ?? startMs + 10_000
                for line in lines {
                    // A seek or a loop decodes the same packet again under a new
                    // ReadOrder: the rest of the line and its times identify it.
                    let body = line.drop { $0 != "," }
                    let key = "\(startMs)|\(endMs)|\(body)"
                    guard track.seen.insert(key).inserted else { continue }
                    track.order += 1
                    track.ass.addEvent("\(track.order)\(body)", startMs: startMs, durationMs: max(endMs - startMs, 1))
                }
            case .bitmap(let track)?:
                guard case .bitmaps = subtitle.content else { return }
                if let same = track.events.firstIndex(where: { $0.start == subtitle.start }) {
                    track.bytes -= Self.size(of: track.events[same])
                    track.events[same] = subtitle
                } else {
                    let at = track.events.firstIndex { $0.start > subtitle.start } ?? track.events.count
                    track.events.insert(subtitle, at: at)
                }
                track.bytes += Self.size(of: subtitle)
                // Over the bound: drop what lies furthest before the newest.
                while track.bytes > Self.bitmapBytesLimit, track.events.count > 1 {
                    track.bytes -= Self.size(of: track.events.removeFirst())
                }
            case nil:
                return
            }
        }
    }

    private static func size(of subtitle: DecodedSubtitle) -> Int {
        guard case .bitmaps(let pictures) = subtitle.content else { return 0 }
        return pictures.reduce(0) { $0 + $1.indices.count + $1.palette.count * 4 }
    }

    /// The track drawn (nil: none).
    var selected: Int? {
        get { state.withLock { $0.selected } }
        set { state.withLock { $0.selected = newValue } }
    }

    /// Seconds subtitles are shown later than their timestamps (mpv's sub-delay).
    var delay: Double {
        get { state.withLock { $0.delay } }
        set { state.withLock { $0.delay = newValue } }
    }

    var isVisible: Bool {
        get { state.withLock { $0.visible } }
        set { state.withLock { $0.visible = newValue } }
    }

    /// The text of the selected track's lines showing at `time` (media
    /// time), ASS tags included (mpv's sub-text); empty for bitmaps.
    package func activeText(at time: MediaTime) -> [String] {
        state.withLock { s in
            guard s.visible, let id = s.selected, case .text(let text)? = s.tracks[id] else { return [] }
            let ms = Self.subtitleTime(time, delay: s.delay).floor(in: 1000)
            let events = UnsafeBufferPointer(start: text.ass.pointer.pointee.events,
                                             count: Int(text.ass.pointer.pointee.n_events))
            return events.filter { $0.Start <= ms && ms < $0.Start + $0.Duration }.compactMap { $0.Text.map { String(cString: $0) } }
        }
    }

    /// Whether a bitmap of the selected track shows at `time` (media time).
    func showsBitmap(at time: MediaTime) -> Bool {
        state.withLock { s in
            guard s.visible, let id = s.selected, case .bitmap(let bitmap)? = s.tracks[id] else { return false }
            return Self.activeBitmap(bitmap, at: Self.subtitleTime(time, delay: s.delay)) != nil
        }
    }

    /// Draws the selected track as it is at `time` (the picture's media time).
    /// `warning` hears once if text cannot be rendered at all.
    func draw(on picture: PictureBuffer, at time: MediaTime, warning: (String) -> Void) {
        let failed: Bool = state.withLock { s in
            guard s.visible, let id = s.selected, let track = s.tracks[id] else { return false }
            let t = Self.subtitleTime(time, delay: s.delay)
            switch track {
            case .text(let text):
                if s.renderer == nil && !s.rendererFailed {
                    if let library = s.library { s.renderer = ASSRenderer(library: library) }
                    if s.renderer == nil {
                        s.rendererFailed = true
                        return true
                    }
                }
                s.renderer?.draw(text.ass, atMs: t.floor(in: 1000), on: picture,
                                 videoWidth: videoWidth, videoHeight: videoHeight)
            case .bitmap(let bitmap):
                guard let event = Self.activeBitmap(bitmap, at: t), case .bitmaps(let pictures) = event.content else { return false }
                for p in pictures { p.draw(on: picture, canvasWidth: bitmap.canvas.width, canvasHeight: bitmap.canvas.height) }
            }
            return false
        }
        if failed { warning("subtitles: libass could not start; text subtitles are not shown") }
    }

    /// The subtitle time shown on a picture at media time `time` (exact:
    /// frame and subtitle times are rationals; the delay is whole ms).
    private static func subtitleTime(_ time: MediaTime, delay: Double) -> MediaTime {
        time - MediaTime(value: Int64(saturating: (delay * 1000).rounded()), timescale: 1000)
    }

    /// The bitmap subtitle on screen at `t`: the latest begun, until
    /// its end or the next one.
    private static func activeBitmap(_ track: BitmapTrack, at t: MediaTime) -> DecodedSubtitle? {
        guard let last = track.events.lastIndex(where: { $0.start <= t }) else { return nil }
        let event = track.events[last]
        if let end = event.end, t >= end { return nil }
        if case .bitmaps(let pictures) = event.content, pictures.isEmpty { return nil }
        return event
    }
}
