// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Output
import Playback

/// The control bar's buttons, each a command (the App says which).
package enum BarButton: CaseIterable, Sendable {
    case play, previous, next, record, audio, subtitles, camera, playlist, fullscreen

    /// The tooltip: what it does, and its key.
    var tooltip: String {
        switch self {
        case .play: return tr("Play / pause (Space)")
        case .previous: return tr("Previous file (<)")
        case .next: return tr("Next file (>)")
        case .record: return tr("Record the camera / stop (R)")
        case .audio: return tr("Audio track (#)")
        case .subtitles: return tr("Subtitles (j)")
        case .camera: return tr("Take video…")
        case .playlist: return tr("Playlist (F8)")
        case .fullscreen: return tr("Fullscreen (f)")
        }
    }
}

/// The on-screen controls at the bottom of a tile, shown while the mouse
/// moves over it or after a key: play/pause, previous and next file, time /
/// duration, a seek bar to click or drag (with the time under the mouse
/// above it, and its chapter, and the picture at that time over them),
/// chapter ticks, the audio and subtitle tracks (each opens that submenu of
/// the context menu), volume and loop, the playlist panel and fullscreen. A
/// button names what it does in a tooltip once the pointer rests on it.
/// Sizes are those of a 96 DPI screen times the window's UI scale.
struct ControlBar {
    typealias Button = BarButton

    /// The height at 96 DPI.
    static let height = 40
    /// A tile narrower than this (at 96 DPI) shows play/pause alone among the buttons.
    static let compactWidth = 520

    static func height(_ scale: UIScale) -> Int { scale(height) }

    let scale: UIScale
    /// The tile's area (the thumbnail over the bar stays inside it).
    let area: Rect
    let bar: Rect
    /// The buttons, left to right.
    let buttons: [(button: Button, rect: Rect)]
    let seekTrack: Rect
    let volumeTrack: Rect
    /// Where the "time / duration" text starts.
    let timeX: Int

    /// The parts inside a tile's `area`; the seek track takes what the others leave.
    /// `camera`: the tile shows a camera, whose bar has the record button
    /// where a file's has previous and next.
    init(in area: Rect, scale u: UIScale = UIScale(factor: 1, source: "default"), camera: Bool = false) {
        self.area = area
        scale = u
        let height = ControlBar.height(u)
        bar = Rect(x: area.x, y: area.y + area.height - height, width: area.width, height: height)
        let midY = bar.y + height / 2
        let size = u(28), gap = u(4), top = bar.y + u(6)
        let compact = area.width < u(ControlBar.compactWidth)
        var placed: [(Button, Rect)] = []
        var x = bar.x + u(8)
        let left: [Button] = camera ? [.play, .record] : compact ? [.play] : [.play, .previous, .next]
        for button in left {
            placed.append((button, Rect(x: x, y: top, width: size, height: size)))
            x += size + gap
        }
        timeX = x + u(6)
        var right = bar.x + bar.width - u(8)
        var rightButtons: [(Button, Rect)] = []
        // "Take video…" beside the playlist, as the phone's picker has it beside the files; not on a camera's own bar.
        for button in compact ? [] : camera ? [Button.fullscreen, .playlist] : [Button.fullscreen, .playlist, .camera] {
            right -= size
            rightButtons.insert((button, Rect(x: right, y: top, width: size, height: size)), at: 0)
            right -= gap
        }
        let timeWidth = u(130), volumeWidth = min(u(80), max(area.width / 8, u(30))), loopWidth = u(44)
        volumeTrack = Rect(x: right - loopWidth - volumeWidth, y: midY - u(8), width: volumeWidth, height: u(16))
        // The track buttons, left of the volume.
        let subtitles = Rect(x: volumeTrack.x - u(12) - u(34), y: top, width: u(34), height: size)
        let audio = Rect(x: subtitles.x - gap - u(34), y: top, width: u(34), height: size)
        buttons = placed + [(.audio, audio), (.subtitles, subtitles)] + rightButtons
        let seekX = timeX + timeWidth
        seekTrack = Rect(x: seekX, y: midY - u(8), width: max(audio.x - u(12) - seekX, u(20)), height: u(16))
    }

    /// Where `button` is (nil: not on this bar).
    func rect(of button: Button) -> Rect? { buttons.first { $0.button == button }?.rect }

    /// The play/pause and track buttons (always there).
    var playButton: Rect { rect(of: .play) ?? Rect(x: bar.x, y: bar.y, width: 0, height: 0) }
    var audioButton: Rect { rect(of: .audio) ?? Rect(x: bar.x, y: bar.y, width: 0, height: 0) }
    var subtitleButton: Rect { rect(of: .subtitles) ?? Rect(x: bar.x, y: bar.y, width: 0, height: 0) }

    /// The button at (x, y), if any.
    func button(atX x: Int, y: Int) -> Button? { buttons.first { $0.rect.contains(x: x, y: y) }?.button }

    /// Where the tick of a chapter starting at `seconds` is on the seek bar.
    func chapterTickX(_ seconds: Double, duration: Double) -> Int {
        seekTrack.x + Int(saturating: Double(seekTrack.width) * min(max(seconds / max(duration, 1e-9), 0), 1))
    }

    /// The fraction along the seek (or volume) track at x.
    static func fraction(x: Int, along track: Rect) -> Double {
        min(max(Double(x - track.x) / Double(max(track.width, 1)), 0), 1)
    }

    /// Draws the bar for `player`; `pointerX` puts the time under the mouse
    /// above the seek bar when it is over it, and `thumbnail`'s picture of
    /// that time above the time; `tooltip` names a button the pointer rests on.
    /// `recording`: the record button shows stop.
    func draw(_ player: Player, renderer r: OpaquePointer, text: TextRenderer, pointer: (x: Int, y: Int)?,
              thumbnail: SeekThumbnail? = nil, tooltip: Button? = nil, recording: Bool = false) {
        let u = scale
        func fill(_ rect: Rect, _ c: (UInt8, UInt8, UInt8, UInt8)) { UI.fill(rect, c, renderer: r) }
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        fill(bar, (0, 0, 0, 170))
        for (button, rect) in buttons {
            let hovered = pointer.map { rect.contains(x: $0.x, y: $0.y) } ?? false
            fill(rect, (255, 255, 255, hovered ? 90 : 50))
            BarIcons.draw(button, in: rect, paused: player.isPaused, recording: recording, scale: u, renderer: r, text: text)
        }
        let position = player.currentTime.seconds
        let duration = player.currentItem?.duration?.seconds
        // A camera or a live stream has no end to show: it says so.
        let live = player.currentItem?.info?.isLive ?? false
        let time = DisplayText.clock(position) + " / " + (duration.map(DisplayText.clock) ?? (live ? "live" : "--:--"))
        text.drawLine(time, renderer: r, x: timeX, y: bar.y + (bar.height - text.lineHeight) / 2)

        // Seek bar: the track, what has played, and a knob.
        let track = Rect(x: seekTrack.x, y: seekTrack.y + u(6), width: seekTrack.width, height: u(4))
        fill(track, (255, 255, 255, 70))
        if let duration, duration > 0 {
            let played = Int(saturating: Double(track.width) * min(max(position / duration, 0), 1))
            fill(Rect(x: track.x, y: track.y, width: played, height: track.height), (120, 190, 255, 255))
            // A tick where each chapter starts (the first, at zero, is the bar's own start).
            let chapters = player.currentItem?.info?.chapters ?? []
            for chapter in chapters where chapter.start > .zero {
                fill(Rect(x: chapterTickX(chapter.start.seconds, duration: duration) - u(1), y: seekTrack.y + u(2), width: u(2),
                          height: u(12)), (235, 235, 235, 230))
            }
            fill(Rect(x: track.x + played - u(3), y: seekTrack.y + u(1), width: u(7), height: u(14)), (255, 255, 255, 255))
            if let pointer, seekTrack.contains(x: pointer.x, y: pointer.y) {
                let time = ControlBar.fraction(x: pointer.x, along: seekTrack) * duration
                // The time under the mouse, and the chapter it falls in.
                let index = ChapterTable.index(at: time, in: chapters)
                let title = chapters.indices.contains(index) ? chapters[index].title : ""
                let label = DisplayText.clock(time) + (title.isEmpty ? "" : "  " + title)
                let tip = drawTip(label, centredOn: pointer.x, renderer: r, text: text)
                thumbnail?.draw(pointerX: pointer.x, bottom: tip.y - u(4), bounds: area, renderer: r)
            }
        }

        // Volume: a small bar, dim when muted.
        let level = Int(saturating: Double(volumeTrack.width) * Double(player.volume))
        fill(Rect(x: volumeTrack.x, y: volumeTrack.y + u(5), width: volumeTrack.width, height: u(6)), (255, 255, 255, 60))
        fill(Rect(x: volumeTrack.x, y: volumeTrack.y + u(5), width: level, height: u(6)),
             player.isMuted ? (150, 150, 150, 255) : (255, 220, 120, 255))
        let loop = player.passesPerItem == 1 ? "" : "⟲"
        text.drawLine(player.isMuted ? "✕" + loop : loop, renderer: r, x: volumeTrack.x + volumeTrack.width + u(12),
                      y: bar.y + (bar.height - text.lineHeight) / 2)
        if let tooltip, let rect = rect(of: tooltip) {
            drawTip(tooltip.tooltip, centredOn: rect.x + rect.width / 2, renderer: r, text: text)
        }
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
    }

    /// A label on a dark box just above the bar, centred on `x` as far as
    /// the bar allows; returns the box.
    @discardableResult
    private func drawTip(_ label: String, centredOn x: Int, renderer r: OpaquePointer, text: TextRenderer) -> Rect {
        let pad = scale(6)
        let w = text.width(of: label) + 2 * pad
        let tip = Rect(x: min(max(x - w / 2, bar.x), bar.x + bar.width - w), y: bar.y - text.lineHeight - scale(10),
                       width: w, height: text.lineHeight + scale(6))
        UI.fill(tip, (0, 0, 0, 200), renderer: r)
        text.drawLine(label, renderer: r, x: tip.x + pad, y: tip.y + scale(3))
        return tip
    }
}
