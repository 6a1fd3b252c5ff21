// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Foundation
import Media
import Output
import Playback

/// Draws one player into an area of a window: the video picture placed by
/// the content mode, an audio item's face (its cover and title), or a dark
/// placeholder with the item's state (loading, the error). Owns the
/// player's textures on this renderer.
package final class PlayerView {
    let player: Player
    package var contentMode: ContentMode
    /// The player shows in a Picture in Picture window: this view leaves its
    /// frames alone and says where it is.
    package var isDetached = false {
        // The other view set the player's output size: this one sets it again when it next draws.
        didSet { if isDetached != oldValue { outputLayout = nil } }
    }
    private var texture: VideoTexture?
    /// Makes the pictures of the frames shown, at the size shown: in the
    /// texture's own memory, or in `picture` where it is read too (the
    /// comparison's difference) or goes to the GPU in YUV.
    private let maker = FramePictureMaker()
    private var picture: PictureBuffer?
    /// The frame on screen (or the latest, while unseen): holding its
    /// decoded picture, it is made again at another size while paused, or
    /// when the window shows again, without decoding anything.
    private var shownFrame: VideoFrame?
    /// A frame whose picture is to be made in the locked texture's memory
    /// (or the window's frame buffer: `pictureOnWindow`).
    private var pending: PictureJob?
    /// The window's frame buffer at a rectangle, where SDL's software
    /// renderer draws (nil: no such window: a GPU renderer, a PiP window).
    package var windowFramebuffer: ((Rect) -> PictureBuffer?)?
    /// The picture may be made straight in the window's frame buffer this
    /// turn (the window draws changed tiles alone, nothing over or under
    /// them): SDL's copy of the texture to the window is saved, about a
    /// twentieth of the CPU of a 1080p stream shown at 720p.
    package var drawsOnWindow = false
    /// Where the picture on screen was made in the window's frame buffer;
    /// the texture is older until `adoptWindowPicture` copies it back (before
    /// anything draws the whole window).
    private var pictureOnWindow: Rect?
    /// Display size of the video whose picture is on the texture.
    private var shownVideoSize: (Int, Int)?
    /// The layout the player's output size was last set for.
    private var outputLayout: OutputLayout?
    /// The layout the picture on the texture was made for.
    private var madeLayout: OutputLayout?
    private var drawnPlaceholder: String?
    /// Whether the "waiting for data" line is on screen.
    private var drawnWaiting = false
    /// A composition's timeline, laid out for the area it was last drawn in.
    private var timeline: (layout: CompositionTimeline, area: Rect, composition: Composition)?
    private var drawnPlayHead: Int?
    /// An audio item's cover and title, drawn in place of a picture.
    private let face = AudioFaceView()
    /// The picture over the seek bar at the time under the mouse.
    let seekThumbnail = SeekThumbnail()
    /// A comparison shows this side in the reference's display geometry:
    /// the picture is scaled to that size and aspect (nil: its own).
    var displayGeometry: (width: Int, height: Int)? {
        // The frame on screen is kept and made again in the new geometry: a
        // paused side whose first picture came before the reference's size
        // was known lost it, and stayed without a picture until played.
        didSet { if displayGeometry?.width != oldValue?.width || displayGeometry?.height != oldValue?.height { resetPicture(keepingFrame: true) } }
    }
    /// Its zoom and pan (mpv's video-zoom, a log2 scale of the fitted
    /// picture, and video-pan-x/y, in widths and heights of the zoomed
    /// picture), shared by a comparison's sides and by a sync group's
    /// tiles; nil: the content mode alone. The picture is decoded at the
    /// zoomed size up to the video's own, and magnified beyond that by the
    /// renderer (nearest: pixels as squares, unless `smooth`).
    package var zoom: VideoZoom? {
        didSet {
            guard zoom != oldValue else { return }
            zoomChanged = true
        }
    }
    /// The zoom changed since the last refresh: the tile is drawn again
    /// (paused, or zoomed past the video's size, no new picture comes).
    private var zoomChanged = false
    /// Keeps each BGRA picture shown (the comparison's difference reads it).
    var keepsPicture = false { didSet { if !keepsPicture { keptPicture = nil } } }
    /// The last picture shown, when `keepsPicture` (the view's own, until the
    /// next is made in it); `pictureCount` counts them.
    package private(set) var keptPicture: PictureBuffer?
    package private(set) var pictureCount = 0
    /// Frames went by unconverted while unseen: the texture is older than the time.
    private var missedPictures = false
    /// The decoded picture of the frame on screen, for a reader of its code
    /// values (the comparison's loupe): a new reference to what the view holds.
    var shownDecodedPicture: DecodedPicture? { shownFrame.flatMap { DecodedPicture(referencing: $0.source.pointer) } }
    /// The frame on screen as it was coded: its packet's size and picture type.
    var shownCoded: CodedFrame? { shownFrame.map { CodedFrame($0.source.pointer) } }

    package init(player: Player, contentMode: ContentMode) {
        self.player = player
        self.contentMode = contentMode
    }

    /// What a view found its player needs before the view takes its frame:
    /// whether its pictures are seen, the size they are drawn at, the frame
    /// on screen decoded again. The view decides nothing about its player:
    /// the App gives it these through the player's interface, then refreshes.
    package struct PlayerNeeds {
        package let player: Player
        /// False while the window is minimized or covered: decoded, not converted.
        package let picturesSeen: Bool
        /// The picture size of the layout the view draws at now, when that
        /// changed since the last (`Player.setOutputSizing`); nil: unchanged.
        package let outputSizing: OutputSizing?
        /// The frame on screen, decoded fast for a small picture, is to be
        /// decoded again at the size now drawn (`Player.redisplayCurrentFrame`).
        package let redisplaysFrame: Bool
    }

    /// Measures the view for its area (`seen`: false while the window is
    /// minimized or covered) and says what its player needs; nil for a
    /// view whose player shows in a Picture in Picture window.
    package func measure(in area: Rect, seen: Bool) -> PlayerNeeds? {
        lastArea = area
        if isDetached { return nil }
        var redisplay = false
        if seen && frameToRemake {
            frameToRemake = false
            // One decoded fast (for a small picture), or resized ahead, is decoded again at full size.
            if player.isPaused && shownFrame?.isForOneSize == true { redisplay = true } else { remakeMeasured = true }
        }
        let layout = OutputLayout(area: area, mode: contentMode, zoom: zoom, geometry: displayGeometry)
        var sizing: OutputSizing?
        if layout != outputLayout {
            // The layout changed: the output's size with it (the decoders' small-picture mode follows it).
            outputLayout = layout
            sizing = layout.sizing
            // Paused, the frame on screen is made again at the new size, from the
            // decoded picture it holds; one decoded fast (it was shown small) or
            // resized ahead (playing backward) is decoded again.
            if player.isPaused && shownFrame != nil {
                if shownFrame?.isForOneSize == true { redisplay = true } else { remakeMeasured = true }
            }
        }
        return PlayerNeeds(player: player, picturesSeen: seen, outputSizing: sizing, redisplaysFrame: redisplay)
    }

    /// `measure` found the frame on screen is to be made again from its decoded picture.
    private var remakeMeasured = false

    /// Advances the views' players (given what `measure` found they need)
    /// and puts each due frame on its view's texture; returns, per view,
    /// whether its picture changed. The pictures are made side by side on
    /// the cores (each view has its own scaler; each writes in its own
    /// texture's memory): 16 tiles' worth of scaling is not queued on the
    /// main thread. `seen`: false while the
    /// window is minimized, when the players go on (sound, time, item
    /// events) but no picture is made.
    static func refresh(_ views: [(view: PlayerView, area: Rect)], at now: UInt64, renderer: OpaquePointer,
                        seen: Bool = true) -> [Bool] {
        let changed = views.map { $0.view.refresh(at: now, area: $0.area, renderer: renderer, seen: seen) }
        let making = views.map(\.view).filter { $0.pending != nil }
        let jobs = making.compactMap(\.pending)
        if jobs.count > 1 {
            DispatchQueue.concurrentPerform(iterations: jobs.count) { jobs[$0].run() }
        } else {
            jobs.first?.run()
        }
        for view in making {
            if view.pictureOnWindow == nil { view.texture?.unlock() }
            view.pending = nil
        }
        return changed
    }

    /// Advances the player and takes a new frame if one is due. Returns
    /// true when the picture changed.
    private func refresh(at now: UInt64, area: Rect, renderer: OpaquePointer, seen: Bool) -> Bool {
        let zoomed = zoomChanged
        zoomChanged = false
        return refreshPicture(at: now, area: area, renderer: renderer, seen: seen) || zoomed
    }

    /// The area it was last measured for.
    private(set) var lastArea: Rect?

    /// The picture's fitted size (its content mode, no zoom) in `area`, in screen pixels.
    package func fittedSize(in area: Rect) -> (width: Double, height: Double)? {
        guard let info = player.currentItem?.info, info.hasVideo else { return nil }
        let (w, h) = displayGeometry ?? (info.displayWidth, info.displayHeight)
        let fitted = VideoPlacement(mode: contentMode, videoWidth: w, videoHeight: h, area: area)
        return (Double(fitted.pictureWidth), Double(fitted.pictureHeight))
    }

    /// Video pixels per screen pixel of the fitted picture where it was
    /// last shown (video-zoom log2 of it shows 1:1); nil before that.
    package var fitScale: Double? {
        guard let area = lastArea, let info = player.currentItem?.info, info.hasVideo,
              let fitted = fittedSize(in: area) else { return nil }
        return Double(displayGeometry?.width ?? info.displayWidth) / max(fitted.width, 1)
    }

    private func refreshPicture(at now: UInt64, area: Rect, renderer: OpaquePointer, seen: Bool) -> Bool {
        if isDetached { return drawnPlaceholder != PlayerView.detachedText }
        // Shown again after frames went by unseen: the latest is made now.
        var remake = (seen && missedPictures) || player.takePictureRemakeRequest() || remakeMeasured
        remakeMeasured = false
        if seen { missedPictures = false }
        // As measured this turn (`measure(in:seen:)`).
        let layout = OutputLayout(area: area, mode: contentMode, zoom: zoom, geometry: displayGeometry)
        // A frame taken when no picture could be made of it (the area not
        // laid out yet, a texture refused) is made once it can be: paused,
        // no other frame comes, and the tile stayed without a picture.
        if seen, texture == nil, shownFrame != nil, player.currentItem?.info?.hasVideo == true { remake = true }
        if texture != nil, player.currentItem?.info?.hasVideo == false {
            resetPicture()  // an audio-only item follows a video: its placeholder, not the old picture
        }
        guard let frame = player.update(at: now) else {
            if remake, seen, let shownFrame { return show(shownFrame, in: layout, renderer: renderer) }
            if let item = player.currentItem, AudioFaceView.shows(item) {
                return face.refresh(item, player: player, area: area, renderer: renderer)
            }
            face.reset()
            if texture != nil && player.isWaitingForData != drawnWaiting { return true }
            if let timeline, player.currentItem?.composition == timeline.composition {
                return timeline.layout.playHeadX(at: player.currentTime.seconds) != drawnPlayHead
            }
            // Text in place of a picture changed (loaded, failed, clock ticked).
            return texture == nil && placeholder()?.text != drawnPlaceholder
        }
        shownFrame = frame
        guard seen else {
            // Nobody sees it (a minimized window): not made into a picture.
            missedPictures = true
            return false
        }
        return show(frame, in: layout, renderer: renderer)
    }

    /// Makes `frame`'s picture at the size `layout` gives it and puts it on the texture.
    private func show(_ frame: VideoFrame, in layout: OutputLayout, renderer: OpaquePointer) -> Bool {
        var size = (Int(frame.source.pointer.pointee.width), Int(frame.source.pointer.pointee.height))
        if let info = player.currentItem?.info, info.hasVideo {
            let placed = layout.placement(videoWidth: info.displayWidth, videoHeight: info.displayHeight)
            size = (placed.pictureWidth, placed.pictureHeight)
        }
        let shape = maker.shape(of: frame, width: size.0, height: size.1)
        if shape.layout == .bgra && !keepsPicture {
            // Made straight in the texture's memory: no picture of the view's, no copy.
            if !(texture?.fits(width: shape.width, height: shape.height, layout: .bgra) ?? false) {
                texture = try? VideoTexture(renderer: renderer, width: shape.width, height: shape.height, opaque: true)
            }
            // Made after every view of the window has taken its frame, side by side (`refresh(_:at:…)`).
            let placed = player.currentItem?.info.map { layout.placement(videoWidth: $0.displayWidth, videoHeight: $0.displayHeight) }
            if drawsOnWindow, let placed, placed.source == Rect(x: 0, y: 0, width: shape.width, height: shape.height),
               placed.destination.width == shape.width, placed.destination.height == shape.height,
               let memory = windowFramebuffer?(placed.destination) {
                pictureOnWindow = placed.destination
                pending = PictureJob(maker: maker, frame: frame, memory: memory)
            } else {
                pictureOnWindow = nil
                guard let memory = texture?.lock() else { return false }
                pending = PictureJob(maker: maker, frame: frame, memory: memory)
            }
            keptPicture = nil
        } else {
            let picture = self.picture ?? PictureBuffer(width: shape.width, height: shape.height)
            self.picture = picture
            guard maker.make(frame, width: size.0, height: size.1, into: picture) else { return false }
            if !(texture?.fits(picture) ?? false) {
                texture = try? VideoTexture(renderer: renderer, width: picture.width, height: picture.height,
                                            layout: picture.layout, matrix: picture.matrix, opaque: true)
            }
            texture?.upload(picture)
            keptPicture = keepsPicture && picture.layout == .bgra ? picture : nil
        }
        pictureCount &+= 1
        madeLayout = layout
        if let info = player.currentItem?.info { shownVideoSize = displayGeometry ?? (info.displayWidth, info.displayHeight) }
        return true
    }

    /// The picture made in the window's frame buffer goes to the texture too,
    /// before the window is drawn whole (a clear would lose it).
    func adoptWindowPicture() {
        guard let rect = pictureOnWindow else { return }
        pictureOnWindow = nil
        if let texture, texture.width == rect.width, texture.height == rect.height, let on = windowFramebuffer?(rect) {
            texture.upload(on)
        }
    }

    /// Forgets the picture; `keepingFrame`: the frame on screen is made
    /// again at the next refresh (the geometry it is shown in changed).
    package func resetPicture(keepingFrame: Bool = false) {
        pictureOnWindow = nil
        texture = nil
        madeLayout = nil
        shownVideoSize = nil
        keptPicture = nil
        if keepingFrame && shownFrame != nil {
            frameToRemake = true
        } else {
            shownFrame = nil
            frameToRemake = false
        }
    }

    /// The frame on screen is to be made again (`resetPicture(keepingFrame:)`).
    private var frameToRemake = false


    /// Its picture is final until something changes: the player at rest and,
    /// for a video, the picture made for the layout the view has now.
    var isAtRest: Bool { restBlocker == nil }

    /// What keeps it from rest (nil: at rest): its player's reason, or its picture's.
    var restBlocker: String? {
        if let reason = player.restBlocker { return "player " + reason }
        if zoomChanged { return "zoom changed" }
        if missedPictures { return "pictures missed while unseen" }
        if pending != nil { return "picture being made" }
        if frameToRemake { return "picture to be made again" }
        guard !isDetached, let item = player.currentItem, item.error == nil, item.info?.hasVideo == true,
              !AudioFaceView.shows(item) else { return nil }
        if texture == nil { return shownFrame == nil ? "no frame taken yet (\(player.frameFlow))" : "no picture made of its frame" }
        return madeLayout == outputLayout ? nil : "picture not made for its layout"
    }

    /// Whether a picture of the video is on screen (not a placeholder).
    package var showsPicture: Bool { texture != nil && player.currentItem?.error == nil && !isDetached }

    /// Where the picture on the texture goes: placed by the video it came
    /// from, so a switch to an item still opening keeps the old picture (no flash).
    private func shownPlacement(in area: Rect) -> VideoPlacement? {
        guard let (w, h) = shownVideoSize else { return nil }
        return OutputLayout(area: area, mode: contentMode, zoom: zoom, geometry: nil).placement(videoWidth: w, videoHeight: h)
    }

    /// Where the picture is drawn in `area`, in the picture's own
    /// coordinates and on screen (the difference view draws its own
    /// picture, of the same size, the same way).
    package func pictureMapping(in area: Rect) -> (source: Rect, destination: Rect, pictureWidth: Int, pictureHeight: Int)? {
        guard let p = shownPlacement(in: area) else { return nil }
        return (p.source, p.destination, p.pictureWidth, p.pictureHeight)
    }

    /// Draws a picture's texture placed in `area` (black bars around it
    /// unless over a background): the window's views and an export's
    /// sides draw their pictures with this one function.
    static func drawPicture(_ texture: VideoTexture, placement: VideoPlacement, in area: Rect, smooth: Bool,
                            overBackground: Bool, renderer: OpaquePointer, copy: Bool = true) {
        if !overBackground {
            // Black bars around the picture, as every player draws them:
            // only the bars under an opaque picture (clearing the whole
            // area first wrote every pixel twice, a frame's worth of
            // memory a frame with SDL's software renderer).
            SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
            let covered = texture.isOpaque ? placement.destination : Rect(x: area.x, y: area.y, width: 0, height: 0)
            var bars = PlayerView.bars(around: covered, in: area).map(\.sdl)
            if !bars.isEmpty { SDL_RenderFillRects(renderer, &bars, Int32(bars.count)) }
        }
        guard copy else { return }
        // A texture from before a resize is scaled until the new size arrives.
        let sx = Double(texture.width) / Double(max(placement.pictureWidth, 1))
        let sy = Double(texture.height) / Double(max(placement.pictureHeight, 1))
        var src = SDL_Rect(x: Int32(saturating: Double(placement.source.x) * sx), y: Int32(saturating: Double(placement.source.y) * sy),
                           w: Int32(saturating: Double(placement.source.width) * sx), h: Int32(saturating: Double(placement.source.height) * sy))
        var dst = SDL_Rect(x: Int32(placement.destination.x), y: Int32(placement.destination.y),
                           w: Int32(placement.destination.width), h: Int32(placement.destination.height))
        if texture.layout == .bgra {
            SDL_SetTextureScaleMode(texture.texture, smooth ? SDL_ScaleModeLinear : SDL_ScaleModeNearest)
        }
        SDL_RenderCopy(renderer, texture.texture, &src, &dst)
    }

    package func draw(in area: Rect, renderer: OpaquePointer, text: TextRenderer, overBackground: Bool = false) {
        var bounds = SDL_Rect(x: Int32(area.x), y: Int32(area.y), w: Int32(area.width), h: Int32(area.height))
        let item = player.currentItem
        if isDetached {
            SDL_SetRenderDrawColor(renderer, 16, 16, 20, 255)
            SDL_RenderFillRect(renderer, &bounds)
            text.drawCentered(PlayerView.detachedText, renderer: renderer, cx: area.x + area.width / 2,
                              cy: area.y + area.height / 2, maxWidth: area.width - 40)
            drawnPlaceholder = PlayerView.detachedText
            return
        }
        if let texture, let placement = shownPlacement(in: area), item?.error == nil {
            // Made in the window's frame buffer at just this place: already where the copy would put it.
            let inPlace = pictureOnWindow == placement.destination && texture.width == placement.destination.width
                && texture.height == placement.destination.height && placement.source.x == 0 && placement.source.y == 0
                && placement.source.width == placement.pictureWidth && placement.source.height == placement.pictureHeight
                && placement.pictureWidth == texture.width && placement.pictureHeight == texture.height
            if !inPlace { adoptWindowPicture() }
            PlayerView.drawPicture(texture, placement: placement, in: area, smooth: zoom?.smooth == true,
                                   overBackground: overBackground, renderer: renderer, copy: !inPlace)
            if player.isWaitingForData {
                text.drawLine(PlayerView.waitingText, renderer: renderer, x: area.x + 12, y: area.y + 10,
                          color: SDL_Color(r: 255, g: 220, b: 120, a: 255))
            }
            drawnWaiting = player.isWaitingForData
            return
        }
        if let composition = item?.composition, item?.status == .readyToPlay {
            if timeline.map({ $0.area != area || $0.composition != composition }) ?? true {
                timeline = (CompositionTimeline(composition, in: area), area, composition)
            }
            if let layout = timeline?.layout {
                let t = player.currentTime.seconds
                layout.draw(playHead: t, renderer: renderer, text: text, area: area)
                drawnPlayHead = layout.playHeadX(at: t)
                return
            }
        }
        if let item, AudioFaceView.shows(item) {
            face.draw(item, player: player, in: area, renderer: renderer, text: text)
            return
        }
        // No picture (yet): a dark placeholder, never a white flash.
        SDL_SetRenderDrawColor(renderer, 16, 16, 20, 255)
        SDL_RenderFillRect(renderer, &bounds)
        let cx = area.x + area.width / 2, cy = area.y + area.height / 2
        if let line = placeholder() {
            let color = line.isError ? SDL_Color(r: 255, g: 120, b: 110, a: 255) : SDL_Color(r: 230, g: 230, b: 230, a: 255)
            text.drawCentered(line.text, renderer: renderer, cx: cx, cy: cy, maxWidth: area.width - 40, color: color)
        }
        drawnPlaceholder = placeholder()?.text
    }

    /// What of `area` a picture at `picture` leaves uncovered: up to four
    /// rectangles (above, below, left, right); all of it when they do not meet.
    static func bars(around picture: Rect, in area: Rect) -> [Rect] {
        let x0 = max(area.x, picture.x), y0 = max(area.y, picture.y)
        let x1 = min(area.x + area.width, picture.x + picture.width), y1 = min(area.y + area.height, picture.y + picture.height)
        guard x0 < x1, y0 < y1 else { return area.width > 0 && area.height > 0 ? [area] : [] }
        let candidates = [
            Rect(x: area.x, y: area.y, width: area.width, height: y0 - area.y),
            Rect(x: area.x, y: y1, width: area.width, height: area.y + area.height - y1),
            Rect(x: area.x, y: y0, width: x0 - area.x, height: y1 - y0),
            Rect(x: x1, y: y0, width: area.x + area.width - x1, height: y1 - y0),
        ]
        return candidates.filter { $0.width > 0 && $0.height > 0 }
    }

    /// The text shown instead of a picture: opening, audio only, the error.
    private func placeholder() -> (text: String, isError: Bool)? {
        guard let item = player.currentItem else { return nil }
        let name = DisplayText.shortName(item.name)
        switch item.status {
        case .failed(let error):
            return ("\(name): \(shownDescription(of: error))", true)
        case .unknown:
            return (String(format: tr("Opening %@…"), name), false)
        case .readyToPlay where item.info?.hasVideo == false:
            let d = item.duration.map { " / " + DisplayText.clock($0.seconds) } ?? ""
            return ("♪  \(name)\n\(DisplayText.clock(player.currentTime.seconds))\(d)", false)
        case .readyToPlay:
            return nil
        }
    }

    static var detachedText: String { tr("Playing in Picture in Picture") }
    static var waitingText: String { tr("Waiting for data…") }
}

/// One view's picture to make on a worker: its own maker (scaler), its
/// frame, and its locked texture's memory; no two jobs share any of them,
/// and the main thread waits for all of them before it touches the views.
private struct PictureJob: @unchecked Sendable {  // see above: disjoint per job, joined before use
    let maker: FramePictureMaker
    let frame: VideoFrame
    let memory: PictureBuffer

    func run() { _ = maker.fill(memory, with: frame) }
}
