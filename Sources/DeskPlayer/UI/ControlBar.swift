// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Output
import Playback

/// The on-screen controls at the bottom of a tile, shown while the mouse
/// moves over it or after a key: play/pause, time / duration, a seek bar to
/// click or drag (with the time under the mouse above it, and its chapter,
/// and the picture at that time over them), chapter ticks, volume and loop.
struct ControlBar {
    static let height = 40

    /// The tile's area (the thumbnail over the bar stays inside it).
    let area: Rect
    let bar: Rect
    let playButton: Rect
    let seekTrack: Rect
    let volumeTrack: Rect
    let audioButton: Rect
    let subtitleButton: Rect
    /// Where the "time / duration" text starts.
    let timeX: Int

    /// The parts inside a tile's `area`; the seek track takes what the others leave.
    init(in area: Rect) {
        self.area = area
        bar = Rect(x: area.x, y: area.y + area.height - ControlBar.height, width: area.width, height: ControlBar.height)
        let midY = bar.y + ControlBar.height / 2
        playButton = Rect(x: bar.x + 8, y: bar.y + 6, width: 28, height: 28)
        timeX = playButton.x + playButton.width + 10
        let timeWidth = 130, volumeWidth = min(80, max(area.width / 8, 30)), loopWidth = 44
        volumeTrack = Rect(x: bar.x + bar.width - loopWidth - volumeWidth - 10, y: midY - 8, width: volumeWidth, height: 16)
        subtitleButton = Rect(x: volumeTrack.x - 12 - 34, y: bar.y + 6, width: 34, height: 28)
        audioButton = Rect(x: subtitleButton.x - 4 - 34, y: bar.y + 6, width: 34, height: 28)
        let seekX = timeX + timeWidth
        seekTrack = Rect(x: seekX, y: midY - 8, width: max(audioButton.x - 12 - seekX, 20), height: 16)
    }

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
    /// that time above the time.
    func draw(_ player: Player, renderer r: OpaquePointer, text: TextRenderer, pointer: (x: Int, y: Int)?,
              thumbnail: SeekThumbnail? = nil) {
        func fill(_ rect: Rect, _ c: (UInt8, UInt8, UInt8, UInt8)) { UI.fill(rect, c, renderer: r) }
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        fill(bar, (0, 0, 0, 170))
        fill(playButton, (255, 255, 255, 50))
        text.drawCentered(player.isPaused ? "▶" : "❚❚", renderer: r, cx: playButton.x + playButton.width / 2,
                          cy: playButton.y + playButton.height / 2, maxWidth: 60)
        let position = player.currentTime.seconds
        let duration = player.currentItem?.duration?.seconds
        let time = DisplayText.clock(position) + " / " + (duration.map(DisplayText.clock) ?? "--:--")
        text.drawLine(time, renderer: r, x: timeX, y: bar.y + (ControlBar.height - text.lineHeight) / 2)

        // Seek bar: the track, what has played, and a knob.
        let track = Rect(x: seekTrack.x, y: seekTrack.y + 6, width: seekTrack.width, height: 4)
        fill(track, (255, 255, 255, 70))
        if let duration, duration > 0 {
            let played = Int(saturating: Double(track.width) * min(max(position / duration, 0), 1))
            fill(Rect(x: track.x, y: track.y, width: played, height: track.height), (120, 190, 255, 255))
            // A tick where each chapter starts (the first, at zero, is the bar's own start).
            let chapters = player.currentItem?.info?.chapters ?? []
            for chapter in chapters where chapter.start > .zero {
                fill(Rect(x: chapterTickX(chapter.start.seconds, duration: duration) - 1, y: seekTrack.y + 2, width: 2, height: 12),
                     (235, 235, 235, 230))
            }
            fill(Rect(x: track.x + played - 3, y: seekTrack.y + 1, width: 7, height: 14), (255, 255, 255, 255))
            if let pointer, seekTrack.contains(x: pointer.x, y: pointer.y) {
                let time = ControlBar.fraction(x: pointer.x, along: seekTrack) * duration
                // The time under the mouse, and the chapter it falls in.
                let index = ChapterTable.index(at: time, in: chapters)
                let title = chapters.indices.contains(index) ? chapters[index].title : ""
                let label = DisplayText.clock(time) + (title.isEmpty ? "" : "  " + title)
                let w = text.width(of: label) + 12
                let tip = Rect(x: min(max(pointer.x - w / 2, bar.x), bar.x + bar.width - w), y: bar.y - text.lineHeight - 10,
                               width: w, height: text.lineHeight + 6)
                fill(tip, (0, 0, 0, 200))
                text.drawLine(label, renderer: r, x: tip.x + 6, y: tip.y + 3)
                thumbnail?.draw(pointerX: pointer.x, bottom: tip.y - 4, bounds: area, renderer: r)
            }
        }

        // The track buttons, each with its name above it while the pointer is on it.
        for (button, label, tip) in [(audioButton, "♪", "Audio track"), (subtitleButton, "CC", "Subtitles")] {
            fill(button, (255, 255, 255, 50))
            text.drawCentered(label, renderer: r, cx: button.x + button.width / 2, cy: button.y + button.height / 2, maxWidth: 60)
            if let pointer, button.contains(x: pointer.x, y: pointer.y) {
                let w = text.width(of: tip) + 12
                let box = Rect(x: min(max(button.x + button.width / 2 - w / 2, bar.x), bar.x + bar.width - w),
                               y: bar.y - text.lineHeight - 10, width: w, height: text.lineHeight + 6)
                fill(box, (0, 0, 0, 200))
                text.drawLine(tip, renderer: r, x: box.x + 6, y: box.y + 3)
            }
        }

        // Volume: a small bar, dim when muted.
        let level = Int(saturating: Double(volumeTrack.width) * Double(player.volume))
        fill(Rect(x: volumeTrack.x, y: volumeTrack.y + 5, width: volumeTrack.width, height: 6), (255, 255, 255, 60))
        fill(Rect(x: volumeTrack.x, y: volumeTrack.y + 5, width: level, height: 6),
             player.isMuted ? (150, 150, 150, 255) : (255, 220, 120, 255))
        let loop = player.passesPerItem == 1 ? "" : "⟲"
        text.drawLine(player.isMuted ? "✕" + loop : loop, renderer: r, x: volumeTrack.x + volumeTrack.width + 12,
                      y: bar.y + (ControlBar.height - text.lineHeight) / 2)
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
    }
}
