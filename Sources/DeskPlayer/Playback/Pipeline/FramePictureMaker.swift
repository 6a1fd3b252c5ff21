// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Media

/// What the pictures of one decode loop's frames are made with: its
/// subtitles, whether they go to the GPU, and where a failure is said.
package final class FrameOrigin: Sendable {
    let subtitles: SubtitleTracks?
    /// YUV at the video's own size (the GPU scales it), unless subtitles are drawn.
    let forGPU: Bool
    let warning: @Sendable (String) -> Void

    init(subtitles: SubtitleTracks?, forGPU: Bool, warning: @escaping @Sendable (String) -> Void) {
        self.subtitles = subtitles
        self.forGPU = forGPU
        self.warning = warning
    }
}

/// Makes a frame's picture where and when it is shown: scaled to the size
/// shown and converted (zimg through `Scaler`, or swscale), its subtitles
/// drawn on it; or, for the GPU, its YUV planes at the video's size. Only
/// frames shown are converted (none dropped, skipped or unseen), and a
/// paused frame is made again at a new size from the decoded picture it
/// still holds, without decoding anything. Playing backward, a frame may
/// come already resized to the size shown, as zimg's planar RGB
/// (`BackwardWindowDecoder`): at that size it is only packed into BGRA.
/// One per view (the scaler keeps its graph for the size), used on the
/// thread that draws.
package final class FramePictureMaker {
    private let scaler = Scaler(display: true)

    package init() {}

    /// Makes `frame`'s picture in `picture` at `width` x `height` (BGRA),
    /// or in YUV at the video's size for the GPU. False, said through the
    /// frame's origin, when it cannot be converted.
    package func make(_ frame: VideoFrame, width: Int, height: Int, into picture: PictureBuffer) -> Bool {
        let shape = shape(of: frame, width: width, height: height)
        picture.resize(width: shape.width, height: shape.height, layout: shape.layout)
        return fill(picture, with: frame)
    }

    /// The layout and size `frame`'s picture is made in, shown at `width` x
    /// `height`: BGRA at that size, or YUV at the video's for the GPU
    /// (subtitles are drawn on the picture at the size shown, in BGRA).
    package func shape(of frame: VideoFrame, width: Int, height: Int)
        -> (layout: PictureBuffer.Layout, width: Int, height: Int) {
        let source = frame.source.pointer.pointee
        if frame.origin.forGPU && frame.origin.subtitles?.selected == nil {
            return (.yuv420, Int(source.width), Int(source.height))
        }
        return (.bgra, width, height)
    }

    /// Makes `frame`'s picture in `picture` as it is (its size and layout:
    /// a locked texture's memory). False, said through the frame's origin,
    /// when it cannot be converted.
    package func fill(_ picture: PictureBuffer, with frame: VideoFrame) -> Bool {
        do {
            try scaler.scale(frame.source.pointer, into: picture)
        } catch {
            frame.origin.warning("video: \(error)")
            return false
        }
        frame.origin.subtitles?.draw(on: picture, at: frame.itemTime, warning: frame.origin.warning)
        return true
    }
}
