// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Media

/// The prefetch thread's own reader of the file (`BackwardPrefetcher`): a
/// second input and a software decoder of the video stream, which decode
/// one window of frames, from the keyframe at or before it, into the
/// decoded-frame cache, while the pipeline's decode thread serves the
/// backward steps from there. Made and used on the prefetch thread only.
///
/// Where the pictures are drawn smaller than decoded, by the CPU
/// (`FramePictureMaker`'s BGRA), each frame kept is resized here to the
/// size shown, by the same zimg conversion the drawing thread would run
/// (`PlanarRGBResizer`, planar RGB before the packing): that conversion
/// leaves the thread that draws, which only packs the pixels (the same
/// pixels), and a picture at the size shown takes less of the cache than
/// a decoded one (1280x720 RGB: 2.8 MB, against 3.1 for 1080p 4:2:0, 6.2
/// for 10-bit, 12.4 for 2160p), so a window holds more frames and the
/// keyframe interval is decoded fewer times.
final class BackwardWindowDecoder {
    private let input: MediaInput
    private let decoder: Decoder
    private let streamIndex: Int32
    private let timeBase: AVRational
    /// Subtracted from stream times to give item times (as the pipeline does).
    private let startOffset: MediaTime
    /// A frame's duration when its packet does not say, in stream ticks.
    private let nominalDuration: Int64
    private let packet: Packet
    private let frame: Frame
    private var timestamps = FrameTimestamps()
    /// The bytes of one decoded picture of the stream (as its header says).
    private let decodedBytes: Int?
    /// zimg, while it takes this video (nil: frames are kept as decoded).
    private var resizer: PlanarRGBResizer?
    private let resized: Frame

    init(reading input: MediaInput, stream index: Int, threads: Int32, startOffset: MediaTime,
         nominalDuration: Int64) throws(MediaError) {
        guard let stream = input.stream(index), let parameters = stream.pointee.codecpar else {
            throw MediaError("the video stream is missing")
        }
        self.input = input
        decoder = try Decoder(stream: stream, threads: threads)
        streamIndex = Int32(index)
        timeBase = stream.pointee.time_base
        self.startOffset = startOffset
        self.nominalDuration = max(nominalDuration, 1)
        packet = try Packet()
        frame = try Frame()
        resized = try Frame()
        resizer = PlanarRGBResizer.isAvailable ? try? PlanarRGBResizer() : nil
        let size = av_image_get_buffer_size(AVPixelFormat(parameters.pointee.format), parameters.pointee.width,
                                            parameters.pointee.height, 1)
        decodedBytes = size > 0 ? Int(size) : nil
    }

    /// Where the keyframe at or before `time` (item time) starts, by the
    /// container's index; nil without one.
    func keyframe(atOrBefore time: MediaTime) -> MediaTime? {
        guard let stream = input.stream(Int(streamIndex)) else { return nil }
        let ts = (time + startOffset).ticks(in: timeBase)
        let index = av_index_search_timestamp(stream, ts, AVSEEK_FLAG_BACKWARD)
        guard index >= 0, let entry = avformat_index_get_entry(stream, index) else { return nil }
        return MediaTime(entry.pointee.timestamp, timeBase) - startOffset
    }

    /// The bytes one frame takes in the cache, its picture drawn at
    /// `shownAt` (nil: for the GPU, kept as decoded).
    func frameBytes(shownAt: PictureSize?) -> Int? {
        guard let decodedBytes else { return nil }
        return resizedSize(shownAt).map { $0.width * $0.height * 3 } ?? decodedBytes
    }

    /// The size a frame is kept at when drawn at `shownAt`: that size where
    /// the RGB picture takes less room than the decoded one (drawn larger
    /// than decoded, the decoded picture is the smaller); nil: as decoded.
    private func resizedSize(_ shownAt: PictureSize?) -> PictureSize? {
        guard resizer != nil, let shownAt, let decodedBytes, shownAt.width > 0, shownAt.height > 0,
              shownAt.width * shownAt.height * 3 < decodedBytes else { return nil }
        return shownAt
    }

    /// The duration of a frame when nothing says otherwise.
    var frameDuration: MediaTime { MediaTime(nominalDuration, timeBase) }

    /// How long `count` frames last, when nothing says otherwise.
    func duration(ofFrames count: Int) -> MediaTime {
        let (ticks, overflow) = nominalDuration.multipliedReportingOverflow(by: Int64(clamping: count))
        return MediaTime(overflow ? Int64.max / 4 : ticks, timeBase)
    }

    /// Decodes the frames that start in `window` (item time) into `cache`,
    /// from the keyframe at or before its start; `playhead` is where the
    /// steps are now (the frames after it may go to make room). Returns how
    /// many frames it kept; stops early (nil) when `shouldStop` says so.
    /// The frames kept are resized for pictures drawn at `shownAt` (nil:
    /// kept as decoded) where that takes less room.
    func decode(_ window: Range<MediaTime>, into cache: DecodedFrameCache, shownAt: PictureSize?,
                playhead: () -> MediaTime?, shouldStop: () -> Bool) throws(MediaError) -> Int? {
        let keptAt = resizedSize(shownAt)
        decoder.flush()
        timestamps.reset()
        if window.lowerBound <= .zero {
            try input.rewind(toMicroseconds: startOffset.microseconds)
        } else {
            try input.seek(toMicroseconds: (window.lowerBound + startOffset).microseconds)
        }
        var kept = 0
        var past = false
        let twoFrames = frameDuration + frameDuration
        while !past {
            if shouldStop() { return nil }
            let more = try input.read(into: packet)
            defer { packet.unref() }
            if more && packet.streamIndex != streamIndex { continue }
            if more {
                // Frames nothing refers to, before the window: not decoded at all.
                decoder.skipsNonReference = packet.pts != DP_AV_NOPTS_VALUE
                    && MediaTime(packet.pts, timeBase) - startOffset + twoFrames <= window.lowerBound
                timestamps.packetSent(packet)
            }
            decoder.decode(more ? packet : nil, into: frame, until: shouldStop) { source in
                guard !past else { return }
                let start = (window.lowerBound + startOffset).ticks(in: timeBase)
                let stamp = timestamps.stamp(source, nominalDuration: nominalDuration, start: start)
                let itemTime = MediaTime(stamp.ticks, timeBase) - startOffset
                if itemTime >= window.upperBound {
                    past = true
                } else if itemTime >= window.lowerBound, let now = playhead() {
                    VideoFilters.fillInColorMatrix(source.pointer)
                    let picture = keptAt.flatMap { resize(source, to: $0) }
                    defer { resized.unref() }
                    if cache.insertAhead(picture == nil ? source.pointer : resized.pointer, itemTime: itemTime,
                                         duration: MediaTime(stamp.duration, timeBase), playhead: now,
                                         madeFor: picture) {
                        kept += 1
                    }
                }
            }
            _ = decoder.takeErrors()  // the pipeline's own decode counts the file's errors
            if !more { break }
        }
        return kept
    }

    /// `source` resized into `resized` for pictures drawn at `size`; nil
    /// when zimg cannot take it (kept as decoded from then on, the drawing
    /// thread converts it as it would have).
    private func resize(_ source: Frame, to size: PictureSize) -> PictureSize? {
        guard let resizer else { return nil }
        do throws(MediaError) {
            try resizer.resize(source.pointer, width: size.width, height: size.height, into: resized)
            return size
        } catch {
            self.resizer = nil
            return nil
        }
    }
}

