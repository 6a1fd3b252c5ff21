import CSDL2

/// Owns an SDL window and its renderer.
final class Window {
    let window: OpaquePointer
    let renderer: OpaquePointer

    init(title: String, width: Int, height: Int, x: Int32 = DP_SDL_WINDOWPOS_CENTERED,
         y: Int32 = DP_SDL_WINDOWPOS_CENTERED, flags: UInt32 = 0) throws(SDLError) {
        let windowFlags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue | flags
        guard let w = SDL_CreateWindow(title, x, y, Int32(width), Int32(height), windowFlags) else {
            throw SDLError("cannot create window")
        }
        guard let r = SDL_CreateRenderer(w, -1, 0) ?? SDL_CreateRenderer(w, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            SDL_DestroyWindow(w)
            throw SDLError("cannot create renderer")
        }
        window = w
        renderer = r
        var info = SDL_RendererInfo()
        keepsPixelsBetweenPresents = SDL_GetRendererInfo(r, &info) == 0 && info.name.map { String(cString: $0) } == "software"
    }

    deinit {
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
    }

    /// The drawable size in pixels.
    var size: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        return (Int(w), Int(h))
    }

    var isFullscreen: Bool {
        SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue != 0
    }

    func setFullscreen(_ on: Bool) {
        SDL_SetWindowFullscreen(window, on ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }

    func setTitle(_ title: String) { SDL_SetWindowTitle(window, title) }

    /// Seconds between two refreshes of the display the window is on (1/60
    /// when SDL cannot say, as under Xvfb): faster video is skipped by schedule.
    var refreshInterval: Double {
        var mode = SDL_DisplayMode()
        guard SDL_GetWindowDisplayMode(window, &mode) == 0, mode.refresh_rate > 0 else { return 1.0 / 60 }
        return 1 / Double(mode.refresh_rate)
    }

    /// What the window shows now (the last frame drawn), as a BGRA picture.
    func capture() throws(MediaError) -> PictureBuffer {
        let (w, h) = size
        let picture = PictureBuffer(width: w, height: h)
        guard SDL_RenderReadPixels(renderer, nil, DP_SDL_PIXELFORMAT_ARGB8888, picture.pixels, Int32(picture.pitch)) == 0 else {
            throw MediaError(SDLError("cannot read the window's pixels").message)
        }
        return picture
    }

    /// SDL's software renderer draws into the window's own frame buffer,
    /// which keeps its pixels between presents: a part of it can be
    /// redrawn and pushed alone. Accelerated renderers swap buffers whose
    /// contents are undefined after a present, so they redraw everything.
    let keepsPixelsBetweenPresents: Bool

    /// Pushes only `rects` of the window to the screen (a software
    /// renderer; anything else presents the whole window).
    func present(rects: [SDL_Rect]) {
        guard keepsPixelsBetweenPresents else {
            SDL_RenderPresent(renderer)
            return
        }
        SDL_RenderFlush(renderer)
        var rects = rects
        if SDL_UpdateWindowSurfaceRects(window, &rects, Int32(rects.count)) != 0 { SDL_RenderPresent(renderer) }
    }

    var rendererName: String {
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        return info.name.map { String(cString: $0) } ?? "?"
    }
}

/// Owns an SDL streaming texture in ARGB8888 (what the decode threads produce).
final class VideoTexture {
    let texture: OpaquePointer
    let width: Int
    let height: Int

    init(renderer: OpaquePointer, width: Int, height: Int) throws(SDLError) {
        guard let t = SDL_CreateTexture(renderer, DP_SDL_PIXELFORMAT_ARGB8888,
                                        Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        Int32(width), Int32(height)) else {
            throw SDLError("cannot create \(width)x\(height) texture")
        }
        texture = t
        self.width = width
        self.height = height
    }

    deinit { SDL_DestroyTexture(texture) }

    func upload(_ picture: PictureBuffer) {
        SDL_UpdateTexture(texture, nil, picture.pixels, Int32(picture.pitch))
    }
}
