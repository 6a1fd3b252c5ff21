// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Output
import Playback

/// Where an audio item's face goes in a tile: the cover fitted (content
/// mode fit) above two lines of text, the group centred, clear of the
/// control bar when the tile is tall enough to spare it.
struct AudioFaceLayout: Equatable {
    static let margin = 12
    static let gap = 10

    /// Where the cover is drawn (its picture is made at this size); nil: no
    /// cover, or no room for one.
    let cover: Rect?
    /// The first text line's top; each line is centred on `centerX`.
    let textTop: Int
    let centerX: Int
    /// How wide a line may be.
    let textWidth: Int

    init(area: Rect, coverSize: (width: Int, height: Int)?, lineHeight: Int, lines: Int) {
        let m = AudioFaceLayout.margin
        let textHeight = lines * lineHeight
        let reserve = area.height >= 4 * ControlBar.height ? ControlBar.height : 0
        let available = area.height - 2 * m - reserve
        centerX = area.x + area.width / 2
        textWidth = max(area.width - 2 * m, 1)
        let box = Rect(x: area.x + m, y: area.y + m, width: area.width - 2 * m,
                       height: available - AudioFaceLayout.gap - textHeight)
        guard let size = coverSize, box.width >= 32, box.height >= 32 else {
            cover = nil
            textTop = area.y + (area.height - textHeight) / 2
            return
        }
        let placed = VideoPlacement(mode: .fit, videoWidth: size.width, videoHeight: size.height, area: box).destination
        let top = area.y + m + (available - (placed.height + AudioFaceLayout.gap + textHeight)) / 2
        cover = Rect(x: placed.x, y: top, width: placed.width, height: placed.height)
        textTop = top + placed.height + AudioFaceLayout.gap
    }
}

/// An audio item's face in a tile: its cover picture fitted above "Title —
/// Artist — Album" and the time; without a cover (none, not decoded yet,
/// or one that would not decode) the two lines alone under a ♪. The cover
/// comes scaled to the size shown from its own thread; this only uploads
/// it. Owns the cover's texture on one renderer. Main thread only.
final class AudioFaceView {
    private var texture: VideoTexture?
    /// The picture on the texture.
    private var uploaded: PictureBuffer?
    /// What was drawn last: a redraw is needed when it changes.
    private var drawn: (lines: [String], cover: Rect?)?
    /// The font's line height, known from the first draw.
    private var lineHeight = 22

    /// The face shows for an opened item without video (a composition draws its timeline instead).
    static func shows(_ item: PlayerItem) -> Bool {
        item.status == .readyToPlay && item.info?.hasVideo == false && item.composition == nil
    }

    /// Uploads a newly scaled cover; true when the face must be drawn again
    /// (the picture, the layout or the text changed).
    func refresh(_ item: PlayerItem, player: Player, area: Rect, renderer: OpaquePointer) -> Bool {
        let lines = AudioFaceView.lines(item, player: player, withCover: item.cover != nil)
        let layout = self.layout(item, area: area, lines: lines.count)
        var changed = drawn.map { $0.lines != lines || $0.cover != layout.cover } ?? true
        if let cover = item.cover, let place = layout.cover {
            let picture = cover.picture(width: place.width, height: place.height)
            if picture !== uploaded {
                if texture?.width != picture.width || texture?.height != picture.height {
                    texture = try? VideoTexture(renderer: renderer, width: picture.width, height: picture.height)
                }
                texture?.upload(picture)
                uploaded = picture
                changed = true
            }
        }
        return changed
    }

    /// Frees the texture (the item has no face, or another takes its place).
    func reset() {
        texture = nil
        uploaded = nil
        drawn = nil
    }

    func draw(_ item: PlayerItem, player: Player, in area: Rect, renderer: OpaquePointer, text: TextRenderer) {
        lineHeight = text.lineHeight
        var bounds = area.sdl
        SDL_SetRenderDrawColor(renderer, CoverPicture.background.0, CoverPicture.background.1, CoverPicture.background.2, 255)
        SDL_RenderFillRect(renderer, &bounds)
        let lines = AudioFaceView.lines(item, player: player, withCover: item.cover != nil)
        let layout = self.layout(item, area: area, lines: lines.count)
        var shownCover: Rect?
        if let place = layout.cover, let texture, uploaded != nil {
            var dst = place.sdl
            SDL_RenderCopy(renderer, texture.texture, nil, &dst)
            shownCover = place
        }
        let colors = [SDL_Color(r: 235, g: 235, b: 235, a: 255), SDL_Color(r: 170, g: 170, b: 175, a: 255)]
        for (i, line) in lines.enumerated() {
            text.drawCentered(AudioFaceView.shortened(line, to: layout.textWidth, text: text), renderer: renderer,
                              cx: layout.centerX, cy: layout.textTop + i * lineHeight + lineHeight / 2,
                              maxWidth: layout.textWidth, color: colors[min(i, colors.count - 1)])
        }
        drawn = (lines, shownCover)
    }

    private func layout(_ item: PlayerItem, area: Rect, lines: Int) -> AudioFaceLayout {
        AudioFaceLayout(area: area, coverSize: item.cover.map { ($0.width, $0.height) }, lineHeight: lineHeight, lines: lines)
    }

    /// "Title — Artist — Album" (a ♪ before it without a cover), then "time / duration".
    static func lines(_ item: PlayerItem, player: Player, withCover: Bool) -> [String] {
        let track = DisplayText.trackLine(tags: item.info?.tags ?? [:], name: item.name)
        let time = DisplayText.clock(player.currentTime.seconds) + (item.duration.map { " / " + DisplayText.clock($0.seconds) } ?? "")
        return [withCover ? track : "♪  " + track, time]
    }

    /// `line` cut to fit `width` with an ellipsis (a face's lines never wrap).
    static func shortened(_ line: String, to width: Int, text: TextRenderer) -> String {
        guard text.width(of: line) > width else { return line }
        let characters = Array(line)
        // The longest start that fits with the ellipsis, by bisection.
        var low = 0, high = characters.count
        while low < high {
            let mid = (low + high + 1) / 2
            if text.width(of: String(characters.prefix(mid)) + "…") <= width { low = mid } else { high = mid - 1 }
        }
        return String(characters.prefix(low)) + "…"
    }
}
