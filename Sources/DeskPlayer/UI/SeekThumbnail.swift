// SPDX-License-Identifier: GPL-3.0-or-later
import Output
import Analysis
import Playback
import Media
import CSDL2

/// The picture of the time under the mouse, drawn over a tile's seek bar
/// while the mouse is on it. Asks the item's `ThumbnailSource` for that
/// time every refresh and shows its picture once made; until then that of
/// the half second before or after if made, else the one before stays (so
/// moving along the bar updates it smoothly). A time with no picture (a
/// damaged region) shows none. Owns the
/// texture on its view's renderer. Main thread only.
final class SeekThumbnail {
    /// What a hover changed, for the window: whether to redraw, and how long
    /// the picture for a new time took to come (nil: it was ready at once, or is not yet).
    struct Outcome {
        var changed = false
        var waitedSeconds: Double?
        /// The picture of a new time was there already (made on the way to others).
        var wasReady = false
    }

    private var source: ThumbnailSource?
    private weak var item: PlayerItem?
    /// The picture drawn (nil: none for this time), and what is on the texture.
    private var shown: PictureBuffer?
    private var texture: VideoTexture?
    private var uploaded: PictureBuffer?
    /// The bucket asked for and not ready yet, since when.
    private var pending: (bucket: Int, since: UInt64)?
    private var hovering = false

    /// The mouse is at `seconds` on the seek bar of `item`.
    func hover(_ item: PlayerItem, seconds: Double, now: UInt64) -> Outcome {
        hovering = true
        var outcome = Outcome()
        guard SeekThumbnail.hasPictures(item) else {
            outcome.changed = show(nil)
            return outcome
        }
        if source == nil || self.item !== item {
            source = ThumbnailSource(for: item)
            self.item = item
            pending = nil
            outcome.changed = show(nil)
        }
        guard let source, !source.isUnavailable else {
            outcome.changed = show(nil) || outcome.changed
            return outcome
        }
        let bucket = ThumbnailCache.bucket(seconds)
        if let entry = source.entry(at: seconds) {
            if let pending, pending.bucket == bucket { outcome.waitedSeconds = Double(now &- pending.since) / 1e9 }
            pending = nil
            let changed = show(entry.picture)
            outcome.wasReady = changed && outcome.waitedSeconds == nil
            outcome.changed = changed || outcome.changed
        } else {
            source.request(seconds)
            if pending?.bucket != bucket { pending = (bucket, now) }
            // Meanwhile a picture of the half second before or after, if
            // made (within a second of the time), rather than one further off.
            if let near = source.neighbour(of: seconds) { outcome.changed = show(near) || outcome.changed }
        }
        return outcome
    }

    /// The mouse left the seek bar: the decoding stops; the cache stays.
    func leave() {
        guard hovering else { return }
        hovering = false
        pending = nil
        source?.cancel()
    }

    /// Items that can have thumbnails: a local file or an HLS stream that
    /// ends (read a segment at a time), with video; not a composition, an
    /// audio file, a live stream, or another network stream (which would be
    /// fetched again).
    static func hasPictures(_ item: PlayerItem) -> Bool {
        guard item.composition == nil, item.status == .readyToPlay, let info = item.info, info.hasVideo, !info.isLive
        else { return false }
        return !item.location.isNetwork || info.formatName == "hls"
    }

    private func show(_ picture: PictureBuffer?) -> Bool {
        guard picture !== shown else { return false }
        shown = picture
        return true
    }

    /// Where the picture goes for the mouse at `pointerX`: centred on it,
    /// its bottom at `bottom`, inside `bounds` (scaled down to fit there).
    static func frame(width: Int, height: Int, pointerX: Int, bottom: Int, bounds: Rect) -> Rect {
        let room = max(bottom - bounds.y - 4, 1)
        let scale = min(Double(room) / Double(max(height, 1)), Double(bounds.width) / Double(max(width, 1)), 1)
        let w = max(Int(saturating: Double(width) * scale), 1), h = max(Int(saturating: Double(height) * scale), 1)
        let x = min(max(pointerX - w / 2, bounds.x), bounds.x + bounds.width - w)
        return Rect(x: x, y: bottom - h, width: w, height: h)
    }

    /// Draws the picture (with a thin frame) for the mouse at `pointerX`,
    /// above `bottom`; returns where, or nil when there is none to draw.
    @discardableResult
    func draw(pointerX: Int, bottom: Int, bounds: Rect, renderer: OpaquePointer) -> Rect? {
        guard let picture = shown else { return nil }
        if uploaded !== picture {
            if texture.map({ !$0.fits(picture) }) ?? true {
                texture = try? VideoTexture(renderer: renderer, width: picture.width, height: picture.height, opaque: true)
            }
            texture?.upload(picture)
            uploaded = picture
        }
        guard let texture else { return nil }
        let place = SeekThumbnail.frame(width: picture.width, height: picture.height, pointerX: pointerX, bottom: bottom,
                                        bounds: bounds)
        fill(Rect(x: place.x - 2, y: place.y - 2, width: place.width + 4, height: place.height + 4), (0, 0, 0, 200),
             renderer: renderer)
        var target = place.sdl
        SDL_RenderCopy(renderer, texture.texture, nil, &target)
        return place
    }
}
