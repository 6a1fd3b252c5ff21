// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import CSDL2
import Media

/// Owns an SDL window and its renderer.
package final class Window {
    package let window: OpaquePointer
    package let renderer: OpaquePointer

    package init(title: String, width: Int, height: Int, x: Int32 = DP_SDL_WINDOWPOS_CENTERED,
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
        isSoftware = Window.name(of: r) == "software"
    }

    deinit {
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
    }

    /// The drawable size in pixels.
    package var size: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        return (Int(w), Int(h))
    }

    package var isFullscreen: Bool {
        SDL_GetWindowFlags(window) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue != 0
    }

    package func setFullscreen(_ on: Bool) {
        SDL_SetWindowFullscreen(window, on ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }

    package func setTitle(_ title: String) { SDL_SetWindowTitle(window, title) }

    /// Seconds between two refreshes of the display the window is on (1/60
    /// when SDL cannot say, as under Xvfb): faster video is skipped by schedule.
    package var refreshInterval: Double {
        var mode = SDL_DisplayMode()
        guard SDL_GetWindowDisplayMode(window, &mode) == 0, mode.refresh_rate > 0 else { return 1.0 / 60 }
        return 1 / Double(mode.refresh_rate)
    }

    /// What the window shows now (the last frame drawn), as a BGRA picture.
    package func capture() throws(MediaError) -> PictureBuffer {
        let (w, h) = size
        let picture = PictureBuffer(width: w, height: h)
        guard SDL_RenderReadPixels(renderer, nil, DP_SDL_PIXELFORMAT_ARGB8888, picture.pixels, Int32(picture.pitch)) == 0 else {
            throw MediaError(SDLError("cannot read the window's pixels").message)
        }
        return picture
    }

    /// The GPU SDL's accelerated renderer would run on (its OpenGL renderer
    /// string), found with a hidden window; nil without one, or when it is a
    /// software rasterizer (llvmpipe, softpipe, swrast: Xvfb, VMs).
    package static func hardwareRendererName() -> String? {
        // No GPU device at all (a server, a container, a VM without one):
        // no probe, which would load Mesa's software GL (libLLVM: 60 MB of
        // memory and five threads for the life of the process).
        guard hasGPUDevice else { return nil }
        guard let probe = SDL_CreateWindow("", 0, 0, 16, 16, SDL_WINDOW_HIDDEN.rawValue) else { return nil }
        defer { SDL_DestroyWindow(probe) }
        guard let renderer = SDL_CreateRenderer(probe, -1, SDL_RENDERER_ACCELERATED.rawValue) else { return nil }
        defer { SDL_DestroyRenderer(renderer) }
        guard let name = dp_gl_renderer_string().map({ String(cString: $0) }) else { return nil }
        let lowered = name.lowercased()
        return ["llvmpipe", "softpipe", "swrast"].contains { lowered.contains($0) } ? nil : name
    }

    /// Whether the machine has a GPU a renderer could use: a DRM device
    /// (/dev/dri, every Mesa and open driver) or NVIDIA's own nodes.
    package static var hasGPUDevice: Bool {
        let dri = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return dri.contains { $0.hasPrefix("renderD") || $0.hasPrefix("card") }
            || FileManager.default.fileExists(atPath: "/dev/nvidia0")
    }

    /// SDL's software renderer: it draws into the window's own frame
    /// buffer, which keeps its pixels between presents, so a part of it can
    /// be redrawn and pushed alone. Accelerated renderers swap buffers whose
    /// contents are undefined after a present, so they redraw everything;
    /// they also convert and scale YUV themselves.
    package let isSoftware: Bool

    /// Pushes only `rects` of the window to the screen (a software
    /// renderer; anything else presents the whole window).
    package func present(rects: [SDL_Rect]) {
        guard isSoftware else {
            SDL_RenderPresent(renderer)
            return
        }
        SDL_RenderFlush(renderer)
        var rects = rects
        if SDL_UpdateWindowSurfaceRects(window, &rects, Int32(rects.count)) != 0 { SDL_RenderPresent(renderer) }
    }

    package var rendererName: String { Window.name(of: renderer) }

    /// The window's own frame buffer at a rectangle as a BGRA picture, for a
    /// picture made straight where SDL's software renderer would copy it
    /// (nil for any other renderer, another pixel format, or a rect not
    /// wholly inside). Valid until the next present or resize; main thread.
    package func framebuffer(x: Int, y: Int, width: Int, height: Int) -> PictureBuffer? {
        guard isSoftware, let surface = SDL_GetWindowSurface(window), let format = surface.pointee.format,
              format.pointee.BytesPerPixel == 4,
              format.pointee.format == DP_SDL_PIXELFORMAT_RGB888 || format.pointee.format == DP_SDL_PIXELFORMAT_ARGB8888,
              let pixels = surface.pointee.pixels, x >= 0, y >= 0, width > 0, height > 0,
              x + width <= Int(surface.pointee.w), y + height <= Int(surface.pointee.h) else { return nil }
        let pitch = Int(surface.pointee.pitch)
        let origin = pixels.assumingMemoryBound(to: UInt8.self) + y * pitch + x * 4
        return PictureBuffer(borrowing: origin, width: width, height: height, pitch: pitch)
    }

    private static func name(of renderer: OpaquePointer) -> String {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0 else { return "?" }
        return info.name.map { String(cString: $0) } ?? "?"
    }
}

/// Owns an SDL streaming texture: ARGB8888 (pictures scaled to the size
/// shown), or IYUV at the video's own size for a renderer that converts
/// and scales on the GPU (linear filtering, the picture's matrix).
package final class VideoTexture {
    package let texture: OpaquePointer
    package let width: Int
    package let height: Int
    package let layout: PictureBuffer.Layout
    let matrix: PictureBuffer.Matrix
    /// Every pixel drawn covers what was under it (no alpha): what the picture covers needs no clearing first.
    package let isOpaque: Bool

    /// `opaque`: the picture's alpha is ignored (video, always opaque): the
    /// texture has none, so SDL's software renderer copies it to the
    /// window as it is, where an alpha texture is blended pixel by pixel
    /// (a third of SDL's time playing 1080p). Covers and scopes keep theirs.
    package init(renderer: OpaquePointer, width: Int, height: Int, layout: PictureBuffer.Layout = .bgra,
         matrix: PictureBuffer.Matrix = .bt601, opaque: Bool = false) throws(SDLError) {
        let format = layout == .yuv420 ? DP_SDL_PIXELFORMAT_IYUV : opaque ? DP_SDL_PIXELFORMAT_RGB888 : DP_SDL_PIXELFORMAT_ARGB8888
        if layout == .yuv420 {
            // SDL takes a YUV texture's matrix from this setting when it is made.
            switch matrix {
            case .bt601: SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_BT601)
            case .bt709: SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_BT709)
            case .fullRangeBT601: SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_JPEG)
            }
        }
        defer { SDL_SetYUVConversionMode(SDL_YUV_CONVERSION_AUTOMATIC) }
        guard let t = SDL_CreateTexture(renderer, format, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        Int32(width), Int32(height)) else {
            throw SDLError("cannot create \(width)x\(height) texture")
        }
        if layout == .yuv420 { SDL_SetTextureScaleMode(t, SDL_ScaleModeLinear) }
        texture = t
        self.width = width
        self.height = height
        self.layout = layout
        self.matrix = matrix
        isOpaque = opaque || layout == .yuv420
    }

    deinit { SDL_DestroyTexture(texture) }

    /// Lends the texture's own memory as a BGRA picture, to make the
    /// picture in until `unlock`: no copy of it is uploaded (SDL's software
    /// renderer draws from that memory; a GPU one uploads it on unlock).
    /// Nil when the texture is YUV or cannot be locked. The memory may be
    /// written from another thread; lock and unlock on the renderer's.
    package func lock() -> PictureBuffer? {
        guard layout == .bgra else { return nil }
        var memory: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(texture, nil, &memory, &pitch) == 0, let memory else { return nil }
        return PictureBuffer(borrowing: memory.assumingMemoryBound(to: UInt8.self), width: width, height: height,
                             pitch: Int(pitch))
    }

    /// Ends a `lock`: the picture lent is no longer to be touched.
    package func unlock() { SDL_UnlockTexture(texture) }

    /// Whether `picture` can be uploaded to this texture as it is.
    package func fits(_ picture: PictureBuffer) -> Bool {
        fits(width: picture.width, height: picture.height, layout: picture.layout, matrix: picture.matrix)
    }

    /// Whether a picture of this size and layout (and matrix, for YUV) goes on this texture as it is.
    package func fits(width: Int, height: Int, layout: PictureBuffer.Layout, matrix: PictureBuffer.Matrix = .bt601) -> Bool {
        self.width == width && self.height == height && self.layout == layout && (layout == .bgra || self.matrix == matrix)
    }

    /// Copies `picture` (BGRA of this texture's size) into the texture.
    package func upload(_ picture: PictureBuffer) {
        let planes = picture.planes
        switch picture.layout {
        case .bgra:
            SDL_UpdateTexture(texture, nil, picture.pixels, Int32(picture.pitch))
        case .yuv420 where planes.count == 3:
            SDL_UpdateYUVTexture(texture, nil, planes[0].pixels, Int32(planes[0].pitch), planes[1].pixels,
                                 Int32(planes[1].pitch), planes[2].pixels, Int32(planes[2].pitch))
        case .yuv420:
            break
        }
    }
}
