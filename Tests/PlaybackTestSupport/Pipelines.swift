// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
// The tests' own access to Playback's internals (ItemPipeline, an item's
// load and wait), which no layer above needs: @testable, so debug builds
// only. Release builds (make build, make fuzz) compile this target too,
// empty.
#if DEBUG
import Media
@testable import Playback
import TestSupport

/// A pipeline's video frames of its current serial: their times and durations.
package struct DrainedVideo {
    package var pts: [MediaTime] = []
    package var durations: [MediaTime] = []
}

/// A pipeline's audio: how many frames, the first one's time, whether each
/// chunk followed the last without a gap, and the samples when kept.
package struct DrainedAudio {
    package var frames = 0
    package var firstTime: MediaTime?
    package var continuous = true
    package var samples: [Float] = []
}

/// Opens items and takes everything their pipeline makes, with no window or
/// device: the suites that read a pipeline directly (PipelineTests,
/// LoopTests, VideoFilterTests, and App's pass and stream seam tests).
package protocol PipelineDraining {}

/// The helpers of `PipelineDraining` for a suite that is not itself one.
package struct Pipelines: PipelineDraining {
    package init() {}
}

extension PipelineDraining {
    /// Opens `path` and waits until it is ready (or fails the test). The
    /// item owns the pipeline: keep it alive while using the pipeline.
    package func open(_ path: String, passes: Int? = 1) throws -> (PlayerItem, ItemPipeline) {
        try openItem(path) { $0.setPasses(passes) }
    }

    /// Takes every frame and sample the pipeline produces for the current serial.
    package func drain(_ pipeline: ItemPipeline, keepSamples: Bool = false, timeout: Double = 30)
        -> (DrainedVideo, DrainedAudio) {
        var video = DrainedVideo(), audio = DrainedAudio()
        let chunk = 1024, channels = pipeline.audioRing.format.channels
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * channels)
        defer { buffer.deallocate() }
        let rate = Int64(pipeline.audioRing.format.sampleRate)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var progressed = false
            if let f = pipeline.frames.pop() {
                if f.serial == pipeline.serial {
                    video.pts.append(f.pts)
                    video.durations.append(f.duration)
                }
                progressed = true
            }
            let (n, time, _) = pipeline.audioRing.read(into: buffer, frames: chunk)
            if n > 0, let time {
                if let first = audio.firstTime {
                    let expected = first + MediaTime(value: Int64(audio.frames), timescale: rate)
                    if expected != time { audio.continuous = false }
                } else {
                    audio.firstTime = time
                }
                audio.frames += n
                if keepSamples { audio.samples.append(contentsOf: UnsafeBufferPointer(start: buffer, count: n * channels)) }
                progressed = true
            }
            let videoDone = pipeline.video == nil || pipeline.frames.isDrained
            let audioDone = pipeline.audio == nil || pipeline.audioRing.isDrained
            if videoDone && audioDone { break }
            if !progressed { Thread.sleep(forTimeInterval: 0.001) }
        }
        return (video, audio)
    }
}
extension VideoFrame {
    /// Its picture made as a view makes it (`FramePictureMaker`), at
    /// `width` x `height` (its decoded size unless said); nil when it cannot be made.
    package func madePicture(width: Int? = nil, height: Int? = nil) -> PictureBuffer? {
        let w = width ?? Int(source.pointer.pointee.width), h = height ?? Int(source.pointer.pointee.height)
        let picture = PictureBuffer(width: w, height: h)
        return FramePictureMaker().make(self, width: w, height: h, into: picture) ? picture : nil
    }
}

extension ItemPipeline {
    /// `frame`'s picture made as a view makes it (`FramePictureMaker`), at
    /// `width` x `height` (the video's display size unless said); nil when
    /// it cannot be made.
    package func picture(of frame: VideoFrame, width: Int? = nil, height: Int? = nil) -> PictureBuffer? {
        frame.madePicture(width: width ?? info.displayWidth, height: height ?? info.displayHeight)
    }
}
#endif
