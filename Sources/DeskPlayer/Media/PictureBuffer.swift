// SPDX-License-Identifier: GPL-3.0-or-later
/// A picture in memory: a view's, reused so making each frame's picture
/// does not allocate, or a thumbnail's. BGRA (SDL's ARGB8888) at the size
/// shown, or planar YUV 4:2:0 (SDL's IYUV) for a renderer that converts and
/// scales on the GPU.
package final class PictureBuffer: @unchecked Sendable {  // handed from a worker (thumbnails) to the main thread, one holder at a time
    package enum Layout: Sendable {
        case bgra
        case yuv420
    }

    package private(set) var pixels: UnsafeMutablePointer<UInt8>
    package private(set) var width: Int
    package private(set) var height: Int
    /// Bytes per row of the first plane.
    package private(set) var pitch: Int
    package private(set) var layout: Layout
    /// The matrix YUV is to be turned into RGB with (what SDL's YUV textures know).
    package enum Matrix: Sendable {
        case bt601
        case bt709
        case fullRangeBT601
    }
    package var matrix = Matrix.bt601
    private var capacity: Int
    /// False for memory another owner keeps and lends for a while (a locked
    /// texture's): not freed here, and the picture keeps the lender's size.
    private let ownsPixels: Bool

    package init(width: Int, height: Int, layout: Layout = .bgra) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.layout = layout
        pitch = 0
        capacity = PictureBuffer.bytes(self.width, self.height, layout)
        pixels = .allocate(capacity: capacity)
        ownsPixels = true
        pitch = PictureBuffer.firstPitch(self.width, layout)
    }

    /// A BGRA picture in `pixels`, memory its owner lends (a locked
    /// texture's) for no longer than the lender allows; rows `pitch` bytes apart.
    package init(borrowing pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, pitch: Int) {
        self.pixels = pixels
        self.width = max(width, 1)
        self.height = max(height, 1)
        self.pitch = pitch
        layout = .bgra
        capacity = pitch * self.height
        ownsPixels = false
    }

    deinit { if ownsPixels { pixels.deallocate() } }

    /// Changes the size (and layout), reallocating only when it grows.
    /// A borrowed picture keeps its lender's size.
    package func resize(width: Int, height: Int, layout: Layout = .bgra) {
        guard ownsPixels else { return }
        let w = max(width, 1), h = max(height, 1)
        let needed = PictureBuffer.bytes(w, h, layout)
        if needed > capacity {
            pixels.deallocate()
            pixels = .allocate(capacity: needed)
            capacity = needed
        }
        self.width = w
        self.height = h
        self.layout = layout
        pitch = PictureBuffer.firstPitch(w, layout)
    }

    /// Each plane's first byte and bytes per row: one for BGRA; Y, U, V
    /// (chroma at half the size, rounded up) for YUV 4:2:0.
    package var planes: [(pixels: UnsafeMutablePointer<UInt8>, pitch: Int)] {
        switch layout {
        case .bgra:
            return [(pixels, pitch)]
        case .yuv420:
            let lumaPitch = PictureBuffer.rowPixels(width), chromaPitch = PictureBuffer.rowPixels((width + 1) / 2)
            let chromaStart = lumaPitch * height, chromaBytes = chromaPitch * ((height + 1) / 2)
            return [(pixels, lumaPitch), (pixels + chromaStart, chromaPitch), (pixels + chromaStart + chromaBytes, chromaPitch)]
        }
    }

    /// Pixels a row has room for: the width rounded up to 16. swscale's x86
    /// YUV→RGB converter (used at the same size) works 8 pixels at a time
    /// and, in a row with no room for a whole last group, leaves the last
    /// width % 8 pixels unwritten (FFmpeg 5.1, YUV2RGB_LOOP): an 854-wide
    /// video showed 6 black or stale columns at its right edge.
    private static func rowPixels(_ width: Int) -> Int { (width + 15) & ~15 }

    /// Bytes per row of the first plane of an owned picture: BGRA's, or luma's.
    private static func firstPitch(_ width: Int, _ layout: Layout) -> Int { rowPixels(width) * (layout == .bgra ? 4 : 1) }

    private static func bytes(_ w: Int, _ h: Int, _ layout: Layout) -> Int {
        switch layout {
        case .bgra: return rowPixels(w) * 4 * h
        case .yuv420: return rowPixels(w) * h + 2 * rowPixels((w + 1) / 2) * ((h + 1) / 2)
        }
    }
}
