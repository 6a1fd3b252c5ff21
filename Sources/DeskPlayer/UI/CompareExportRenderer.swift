// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import CSDL2
import Dispatch
import Media
import Output
import Playback

/// One side of an exported comparison: the frame due, scaled as the
/// window's view scales it (the same display scaler, to the size
/// `OutputLayout` gives it) and drawn by the same function.
package final class CompareExportSide: CompareSide {
    package let sideInfo: MediaInfo?
    package let contentMode: ContentMode
    package private(set) var keptPicture: PictureBuffer?
    package var showsPicture: Bool { texture != nil }
    package private(set) var pictureCount = 0
    package private(set) var labelFacts: CompareLabelFacts?
    private let scaler = Scaler(display: true)
    private let picture = PictureBuffer(width: 1, height: 1)
    private var texture: VideoTexture?
    private let zoom: VideoZoom
    /// The reference's display size, for every side after it.
    private let geometry: (width: Int, height: Int)?
    private let name: String
    private var failure: MediaError?

    init(name: String, info: MediaInfo, contentMode: ContentMode, zoom: VideoZoom, geometry: (width: Int, height: Int)?) {
        self.name = name
        sideInfo = info
        self.contentMode = contentMode
        self.zoom = zoom
        self.geometry = geometry
    }

    /// Makes `frame`'s picture at the size shown in `area` (any thread; one side per thread).
    func make(_ frame: UnsafeMutablePointer<AVFrame>, in area: Rect) {
        guard let info = sideInfo else { return }
        let placed = OutputLayout(area: area, mode: contentMode, zoom: zoom, geometry: geometry)
            .placement(videoWidth: info.displayWidth, videoHeight: info.displayHeight)
        picture.resize(width: placed.pictureWidth, height: placed.pictureHeight, layout: .bgra)
        do throws(MediaError) { try scaler.scale(frame, into: picture) } catch { failure = error }
    }

    /// Puts the picture made on the renderer's texture; says what the label shows.
    func upload(renderer: OpaquePointer, time: Double?, coded: CodedFrame?, notes: [String]) {
        let status: PlayerItem.Status = failure.map { .failed($0) } ?? .readyToPlay
        labelFacts = CompareLabelFacts(name: name, shownTime: time, frameRate: sideInfo?.frameRate,
                                       duration: sideInfo?.duration?.seconds, status: status, coded: coded, notes: notes)
        guard time != nil, failure == nil else { return }
        if !(texture?.fits(picture) ?? false) {
            texture = try? VideoTexture(renderer: renderer, width: picture.width, height: picture.height, opaque: true)
        }
        texture?.upload(picture)
        keptPicture = picture
        pictureCount &+= 1
    }

    package func pictureMapping(in area: Rect) -> (source: Rect, destination: Rect, pictureWidth: Int, pictureHeight: Int)? {
        guard let p = placement(in: area) else { return nil }
        return (p.source, p.destination, p.pictureWidth, p.pictureHeight)
    }

    private func placement(in area: Rect) -> VideoPlacement? {
        guard texture != nil, let info = sideInfo else { return nil }
        let (w, h) = geometry ?? (info.displayWidth, info.displayHeight)
        return OutputLayout(area: area, mode: contentMode, zoom: zoom, geometry: nil).placement(videoWidth: w, videoHeight: h)
    }

    package func draw(in area: Rect, renderer: OpaquePointer, text: TextRenderer, overBackground: Bool) {
        guard let texture, let placement = placement(in: area) else {
            var bounds = area.sdl
            SDL_SetRenderDrawColor(renderer, 16, 16, 20, 255)
            SDL_RenderFillRect(renderer, &bounds)
            return
        }
        PlayerView.drawPicture(texture, placement: placement, in: area, smooth: zoom.smooth, overBackground: overBackground,
                               renderer: renderer)
    }
}

/// Draws an exported comparison's frames off screen: SDL's software
/// renderer on a BGRA surface of the export's size, the sides drawn and
/// composed by `CompareView.compose`, as the window draws them (the wipe,
/// stacks, difference, labels), with the state copied when the export
/// began. Owns the surface, renderer and font; one thread at a time.
package final class CompareExportRenderer {
    package let width: Int
    package let height: Int
    private let surface: UnsafeMutablePointer<SDL_Surface>
    private let renderer: OpaquePointer
    private let text: TextRenderer
    private let view: CompareView
    private let sides: [CompareExportSide]

    /// `state`: the comparison to draw (copied); `sides`: each compared
    /// file's name and description, the reference first.
    package init(state: CompareState, sides: [(name: String, info: MediaInfo)], width: Int, height: Int,
                 contentMode: ContentMode = .fit) throws(MediaError) {
        self.width = width
        self.height = height
        guard let s = SDL_CreateRGBSurfaceWithFormat(0, Int32(clamping: width), Int32(clamping: height), 32,
                                                     DP_SDL_PIXELFORMAT_ARGB8888) else {
            throw MediaError(SDLError("cannot make the export's \(width)x\(height) picture").message)
        }
        guard let r = SDL_CreateSoftwareRenderer(s) else {
            SDL_FreeSurface(s)
            throw MediaError(SDLError("cannot draw the export's pictures").message)
        }
        surface = s
        renderer = r
        text = TextRenderer()
        let copy = state.copy()
        view = CompareView(state: copy)
        let reference = sides.first.map { ($0.info.displayWidth, $0.info.displayHeight) }
        self.sides = sides.enumerated().map { index, side in
            CompareExportSide(name: side.name, info: side.info, contentMode: contentMode, zoom: state.zoom,
                              geometry: index == 0 ? nil : reference)
        }
    }

    deinit {
        SDL_DestroyRenderer(renderer)
        SDL_FreeSurface(surface)
    }

    /// Draws one frame: each side's decoded frame (nil: none) and its time
    /// in its file, at the reference's `time`. The pixels stay valid until
    /// the next call.
    package func render(_ frames: [(frame: UnsafeMutablePointer<AVFrame>, time: Double, notes: [String])?],
                        at time: Double) -> (pixels: UnsafePointer<UInt8>, pitch: Int)? {
        let bounds = Rect(x: 0, y: 0, width: width, height: height)
        let areas = view.areas(count: sides.count, in: bounds)
        // Only the sides shown are made (the reference and B), side by side on the cores.
        let shown = Array(Set([0, view.state.other])).filter { sides.indices.contains($0) && frames.indices.contains($0) }
        let jobs = shown.compactMap { index in frames[index].map { MakeJob(side: sides[index], frame: $0.frame, area: areas[index]) } }
        if jobs.count > 1 {
            DispatchQueue.concurrentPerform(iterations: jobs.count) { jobs[$0].run() }
        } else {
            jobs.first?.run()
        }
        for index in shown {
            sides[index].upload(renderer: renderer, time: frames[index]?.time, coded: frames[index].map { CodedFrame($0.frame) },
                                notes: frames[index]?.notes ?? [])
        }
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        view.compose(sides, at: time, in: bounds, renderer: renderer, text: text)
        SDL_RenderFlush(renderer)
        guard let pixels = surface.pointee.pixels else { return nil }
        return (UnsafePointer(pixels.assumingMemoryBound(to: UInt8.self)), Int(surface.pointee.pitch))
    }
}

/// One side's picture to make on a worker: each side has its own scaler
/// and picture, and the frame is only read.
private struct MakeJob: @unchecked Sendable {  // each job touches its own side only
    let side: CompareExportSide
    let frame: UnsafeMutablePointer<AVFrame>
    let area: Rect

    func run() { side.make(frame, in: area) }
}
