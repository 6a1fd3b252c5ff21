// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Collections
import Media
import Playback

/// One side of a comparison export (`compare-export`): the file's video
/// decoded from its start on a thread of its own (`MetricsInput`: FFmpeg's
/// frame threads within), through the filters playing uses (turned upright,
/// HDR tone mapped), and asked for the frame shown at a time, as the
/// player shows it: the last frame starting at or before it, the first
/// before the file's start, the last after its end. Used by one thread.
package final class CompareExportInput {
    package let path: String
    /// What the label and the layout need: display size (sample aspect and
    /// turn applied), frame rate, duration.
    package let info: MediaInfo
    /// The stream's frame rate as FFmpeg gives it (the export's rate when this is the reference).
    package let frameRate: AVRational
    private let input: MetricsInput
    private let filters: VideoFilters
    private let toneMapping: ToneMapping
    /// Filtered frames decoded ahead of the one shown, with their times (seconds from the file's start).
    private var queue = Deque<(frame: Frame, time: Double)>()
    private var shown: (frame: Frame, time: Double)?
    private var ended = false
    /// Why the file stopped giving frames early (nil: it did not).
    package private(set) var failure: MediaError?
    /// The frames shown were tone mapped from HDR (PQ or HLG) to SDR.
    package private(set) var toneMapped = false

    /// Reads from `seconds` on (the keyframe at or before it) when given, else from the start.
    package init(path: String, settings: VideoFilterSettings = VideoFilterSettings(), from seconds: Double? = nil) throws(MediaError) {
        self.path = path
        let asset = try MediaAsset(opening: MediaLocation(path))
        guard let index = asset.input.bestStream(AVMEDIA_TYPE_VIDEO), let stream = asset.input.stream(index) else {
            throw MediaError("\(path): no video to export")
        }
        let parameters = stream.pointee.codecpar.pointee
        var sar = stream.pointee.sample_aspect_ratio
        if sar.num <= 0 || sar.den <= 0 { sar = parameters.sample_aspect_ratio }
        var aspect = ContainerMath.value(sar) ?? 1
        if !MediaAsset.sampleAspectRange.contains(aspect) { aspect = 1 }
        var info = MediaInfo()
        info.videoCodec = String(cString: avcodec_get_name(parameters.codec_id))
        info.videoWidth = Int(parameters.width)
        info.videoHeight = Int(parameters.height)
        info.displayWidth = max(1, Int(saturating: (Double(parameters.width) * aspect).rounded()))
        info.displayHeight = max(1, Int(parameters.height))
        let turn = asset.orientation(ofStream: index, settings: settings).orientation
        info.videoOrientation = turn
        info.videoIsHDR = parameters.color_trc == AVCOL_TRC_SMPTE2084 || parameters.color_trc == AVCOL_TRC_ARIB_STD_B67
        info.videoToneMapped = info.videoIsHDR && settings.toneMapping != .no && VideoFilters.canToneMap
        if turn.swapsAxes { swap(&info.displayWidth, &info.displayHeight) }
        input = try MetricsInput(path: path)
        frameRate = input.frameRate
        if frameRate.num > 0 && frameRate.den > 0 { info.frameRate = av_q2d(frameRate) }
        info.duration = input.duration.map { MediaTime(seconds: $0) }
        self.info = info
        toneMapping = settings.toneMapping
        filters = try VideoFilters(orientation: turn, interlaced: false, timeBase: input.timeBase,
                                   frameRate: input.frameRate, warning: { _ in })
        input.start(at: seconds.map { max(0, $0 - 0.05) })
    }

    deinit { input.stop() }

    /// Every frame was handed out and the file ended.
    package var isAtEnd: Bool { ended && queue.isEmpty }

    /// How many frames the file says it has.
    package var expectedFrames: Int? { input.expectedFrames }

    /// The frame shown at `seconds` (from the file's start) and its time;
    /// nil when the file gave none at all. Times only go forward.
    package func frame(at seconds: Double) -> (frame: UnsafeMutablePointer<AVFrame>, time: Double)? {
        let slack = 0.0005  // timestamps are rounded to their time base
        while true {
            if queue.isEmpty && !ended { decodeMore() }
            guard let first = queue.first else { break }
            guard shown == nil || first.time <= seconds + slack else { break }
            shown = queue.removeFirst()
        }
        return shown.map { ($0.frame.pointer, $0.time) }
    }

    /// Decodes until at least one filtered frame is queued or the file ends.
    private func decodeMore() {
        while queue.isEmpty && !ended {
            guard let entry = input.next() else {
                ended = true
                return
            }
            switch entry {
            case .frame(let frame):
                let trc = frame.pointer.pointee.color_trc
                if toneMapping != .no, VideoFilters.canToneMap, trc == AVCOL_TRC_SMPTE2084 || trc == AVCOL_TRC_ARIB_STD_B67 {
                    toneMapped = true
                }
                filters.process(frame, deinterlace: .no, toneMapping: toneMapping, emit: keep)
            case .end(let error):
                failure = error
                filters.drain(emit: keep)
                ended = true
            }
        }
    }

    private func keep(_ frame: UnsafeMutablePointer<AVFrame>, _ timeBase: AVRational, _ scale: AVRational) {
        guard frame.pointee.pts != DP_AV_NOPTS_VALUE, let copy = try? Frame() else { return }
        guard av_frame_ref(copy.pointer, frame) >= 0 else { return }
        queue.append((copy, Double(frame.pointee.pts) * av_q2d(timeBase)))
    }
}
