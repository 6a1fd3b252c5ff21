// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import CFFmpeg
import Playback

/// Decodes the small pictures of the seek bar's thumbnails from an input of
/// its own: one decoder thread, the in-loop deblocking filter skipped and
/// frames nothing refers to (most B-frames) not decoded at all, then
/// scaled small with swscale and turned upright. From the keyframe before
/// the time asked it decodes forward to the frame at that time, so the
/// picture is of that time even when keyframes are ten seconds apart
/// (skipping only non-reference frames keeps it within a few frames);
/// moving forward within the same run of frames goes on decoding rather
/// than seeking again, and each half-second bucket passed on the way is
/// kept. It reads a whole file, or one segment of an HLS stream held in
/// memory (`span`: where the playlist places it), which it decodes from its
/// start (a segment starts with a keyframe) and never seeks. Used by the
/// thumbnail worker thread only.
package final class ThumbnailDecoder: ThumbnailMaker {
    /// How long a picture the mouse has moved away from is still worth
    /// finishing (seconds): past that, the time now under the mouse goes first.
    package static let patience = 0.25

    private let asset: MediaAsset
    private let streamIndex: Int
    private let stream: UnsafeMutablePointer<AVStream>
    private let decoder: Decoder
    private let scaler = Scaler()
    private let orientation: VideoOrientation
    /// The picture's size before it is turned upright.
    private let width: Int, height: Int
    /// Where the item's timeline starts, in container time.
    private let startOffset: MediaTime
    private let packet: Packet, frame: Frame, last: Frame
    /// The last frame decoded since the latest seek, in timeline seconds
    /// (nil: none yet, or the decoder was drained: seek before going on).
    private var position: Double?
    private var hasLast = false
    /// Something since the last keyframe could not be decoded or was
    /// patched up: frames until the next keyframe show damage (they refer
    /// to what is missing), though the decoder may not mark them.
    private var damaged = false
    private var lastSeconds = 0.0
    /// For a segment: its place on the timeline by the playlist; whether it
    /// was read to its end (or could not be read on); and what is added to
    /// its frames' times when their timestamps do not fall there (a
    /// discontinuity: the playlist's time then stands).
    private let span: Range<Double>?
    private var drained = false
    private var shift: Double?

    /// A whole local file.
    package convenience init(location: MediaLocation, settings: VideoFilterSettings, maxWidth: Int,
                             maxHeight: Int) throws(MediaError) {
        guard !location.isNetwork else { throw MediaError("no thumbnails of network streams") }
        try self.init(asset: MediaAsset(opening: location), timelineStart: nil, span: nil, settings: settings,
                      maxWidth: maxWidth, maxHeight: maxHeight)
    }

    /// `timelineStart`: where the item's timeline starts in container time
    /// (nil: from the asset's streams); `span`: for a segment, where the
    /// playlist places it.
    init(asset: MediaAsset, timelineStart: MediaTime?, span: Range<Double>?, settings: VideoFilterSettings,
         maxWidth: Int, maxHeight: Int) throws(MediaError) {
        self.asset = asset
        self.span = span
        let input = asset.input
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO), let stream = input.stream(index),
              stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 else {
            throw MediaError("no video to make thumbnails of")
        }
        streamIndex = index
        self.stream = stream
        // Only this stream is read: the demuxer skips the others' packets cheaply.
        for i in 0..<input.streamCount where i != index { input.stream(i)?.pointee.discard = AVDISCARD_ALL }
        decoder = try Decoder(stream: stream, threads: 1)
        let context = decoder.context
        context.pointee.skip_loop_filter = AVDISCARD_ALL
        context.pointee.skip_frame = AVDISCARD_NONREF
        context.pointee.flags2 |= DP_AV_CODEC_FLAG2_FAST
        // A frame the decoder had to patch up (a damaged region) is marked, not hidden, so it can be refused.
        context.pointee.flags |= AV_CODEC_FLAG_OUTPUT_CORRUPT
        startOffset = timelineStart ?? asset.startOffset(video: index, audio: input.bestStream(AVMEDIA_TYPE_AUDIO))
        orientation = asset.orientation(ofStream: index, settings: settings).orientation
        let parameters = stream.pointee.codecpar.pointee
        guard parameters.width > 0, parameters.height > 0 else { throw MediaError("the video has no size") }
        let sar = parameters.sample_aspect_ratio
        let pixelAspect = ContainerMath.value(sar) ?? 1
        var shownW = Double(parameters.width) * pixelAspect, shownH = Double(parameters.height)
        if orientation.swapsAxes { swap(&shownW, &shownH) }
        let scale = min(Double(maxWidth) / shownW, Double(maxHeight) / shownH, 1)
        let w = max(Int(saturating: (shownW * scale).rounded()), 2), h = max(Int(saturating: (shownH * scale).rounded()), 2)
        (width, height) = orientation.swapsAxes ? (h, w) : (w, h)
        packet = try Packet()
        frame = try Frame()
        last = try Frame()
    }

    /// Makes the picture at `target` (timeline seconds) and whatever buckets
    /// it passes on the way, into `progress`; returns early when the time
    /// wanted moves somewhere a seek is needed, or to nothing.
    package func make(_ target: Double, progress: ThumbnailSource.Progress) {
        var target = target
        let started = HostTime.now()
        if !canContinue(to: target) {
            guard span == nil else { return }  // a segment is read once, from its start
            seek(to: target)
        }
        var backOff = 2.0
        var seekedTo = target
        defer { packet.unref() }
        while true {
            guard let wanted = progress.wanted else { return }
            if ThumbnailCache.bucket(wanted) != ThumbnailCache.bucket(target) {
                if canContinue(to: wanted) {
                    target = wanted  // forward within this run of frames: on to it
                } else if Double(HostTime.now() &- started) / 1e9 > ThumbnailDecoder.patience {
                    return  // anywhere else: a seek, from the worker's loop
                }
                // Else this picture is nearly made: finishing it shows
                // something while the mouse sweeps, rather than nothing
                // until it rests, and fills the buckets on the way.
            }
            if progress.has(ThumbnailCache.bucket(target)) { return }
            packet.unref()
            let more: Bool
            do throws(MediaError) { more = try asset.input.read(into: packet) } catch {
                // Unreadable here (not the end): no picture for this time; the next is sought afresh.
                progress.store(ThumbnailCache.Entry(picture: nil, frameSeconds: target), for: ThumbnailCache.bucket(target))
                position = nil
                drained = true
                return
            }
            if more && Int(packet.streamIndex) != streamIndex { continue }
            var done = false
            func receive() {
                while !done, (try? decoder.receive(into: frame)) == .frame {
                    done = take(frame, target: target, progress: progress)
                }
            }
            while !done {
                let accepted: Bool
                do throws(MediaError) { accepted = try decoder.send(more ? packet : nil) } catch {
                    damaged = true  // a packet it could not decode: what follows refers to what is missing
                    break
                }
                receive()
                if accepted { break }
            }
            receive()
            if done { return }
            if !more {
                position = nil  // drained: only a seek starts it again
                drained = true
                if span != nil {
                    // The segment ends before the time's frame (it is in the
                    // next one): its last picture if that is within a second.
                    let near = hasLast && abs(lastSeconds - target) <= 1
                    progress.store(ThumbnailCache.Entry(picture: near ? picture(of: last) : nil,
                                                        frameSeconds: near ? lastSeconds : target),
                                   for: ThumbnailCache.bucket(target))
                    return
                }
                if hasLast {
                    // The file ends before the time asked: its last picture stands for every time from there.
                    progress.storeTail(ThumbnailCache.Entry(picture: picture(of: last), frameSeconds: lastSeconds),
                                       from: min(lastSeconds + ThumbnailCache.bucketSeconds, target))
                    return
                }
                guard seekedTo > 0 else {
                    progress.store(ThumbnailCache.Entry(picture: nil, frameSeconds: target), for: ThumbnailCache.bucket(target))
                    return
                }
                // Nothing from the seek point to the end (a file cut short, where its index
                // still lists frames): look further back for its last picture.
                seekedTo = max(seekedTo - backOff, 0)
                backOff *= 2
                seek(to: seekedTo)
            }
        }
    }

    /// Takes a decoded frame: keeps it as the last good one, keeps it for
    /// its bucket if that is new, and says whether it is the one for `target`.
    private func take(_ frame: Frame, target: Double, progress: ThumbnailSource.Progress) -> Bool {
        defer { frame.unref() }
        let pts = frame.bestEffortTimestamp
        guard pts != DP_AV_NOPTS_VALUE else { return false }
        var seconds = (MediaTime(pts, stream.pointee.time_base) - startOffset).seconds
        if let span {
            if shift == nil {
                let slack = max(span.upperBound - span.lowerBound, 2)
                let placed = seconds >= span.lowerBound - slack && seconds < span.upperBound + slack
                shift = placed ? 0 : span.lowerBound - seconds
            }
            seconds += shift ?? 0
        }
        position = seconds
        let marked = frame.pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || frame.pointer.pointee.decode_error_flags != 0
        if frame.pointer.pointee.key_frame != 0 { damaged = false }
        if marked { damaged = true }
        let targetBucket = ThumbnailCache.bucket(target)
        if damaged {
            // A damaged picture is never shown: past the bucket asked, that bucket has none.
            if ThumbnailCache.bucket(seconds) > targetBucket {
                progress.store(ThumbnailCache.Entry(picture: nil, frameSeconds: seconds), for: targetBucket)
                return true
            }
            return false
        }
        last.unref()
        av_frame_ref(last.pointer, frame.pointer)
        hasLast = true
        lastSeconds = seconds
        let bucket = ThumbnailCache.bucket(seconds)
        // The first good frame of each bucket on the way is kept. The bucket
        // asked for takes the first good frame at or past it when that is
        // within a second (skipped frames, a target at a bucket's end); later
        // than that (frames lost to damage), it has none.
        if bucket <= targetBucket {
            if !progress.has(bucket) {
                progress.store(ThumbnailCache.Entry(picture: picture(of: frame), frameSeconds: seconds), for: bucket)
            }
        } else if !progress.has(targetBucket) {
            let near = seconds - target <= 1
            progress.store(ThumbnailCache.Entry(picture: near ? picture(of: frame) : nil, frameSeconds: seconds),
                           for: targetBucket)
        }
        return bucket >= targetBucket
    }

    /// Whether decoding on from where it is reaches `target` sooner than a
    /// seek: it is at or before it and no keyframe lies between (by the
    /// container's index; without one, within four seconds).
    func canContinue(to target: Double) -> Bool {
        if let span {
            // A segment: on through it, from wherever it is (not yet started: from its start).
            return !drained && span.contains(target) && target >= (position ?? -Double.infinity)
        }
        guard let position, target >= position else { return false }
        let ts = (MediaTime(seconds: target) + startOffset).ticks(in: stream.pointee.time_base)
        let index = av_index_search_timestamp(stream, ts, AVSEEK_FLAG_BACKWARD)
        if index >= 0, let entry = avformat_index_get_entry(stream, index) {
            let keyframe = (MediaTime(entry.pointee.timestamp, stream.pointee.time_base) - startOffset).seconds
            return keyframe <= position + 0.05
        }
        return target - position < 4
    }

    private func seek(to seconds: Double) {
        let target = MediaTime(seconds: max(seconds, 0)) + startOffset
        try? asset.input.seek(toMicroseconds: target.microseconds)
        decoder.flush()
        position = nil
        hasLast = false
        damaged = false
    }

    /// `frame` scaled to the thumbnail's size and turned upright (nil when it cannot be converted).
    private func picture(of frame: Frame) -> PictureBuffer? {
        let scaled = PictureBuffer(width: width, height: height)
        do throws(MediaError) { try scaler.scale(frame.pointer, into: scaled) } catch { return nil }
        return orientation.isUpright ? scaled : ThumbnailDecoder.turn(scaled, orientation)
    }

    /// A small BGRA picture turned by `orientation` (a quarter turn or a flip), pixel by pixel.
    package static func turn(_ picture: PictureBuffer, _ orientation: VideoOrientation) -> PictureBuffer {
        let w = picture.width, h = picture.height
        let out = orientation.swapsAxes ? PictureBuffer(width: h, height: w) : PictureBuffer(width: w, height: h)
        // Where (x, y) lands, shifted so that the result starts at (0, 0).
        let o = orientation
        let offsetX = (o.xx < 0 ? w - 1 : 0) + (o.xy < 0 ? h - 1 : 0)
        let offsetY = (o.yx < 0 ? w - 1 : 0) + (o.yy < 0 ? h - 1 : 0)
        let source = UnsafeRawPointer(picture.pixels), target = UnsafeMutableRawPointer(out.pixels)
        for y in 0..<h {
            for x in 0..<w {
                let dx = o.xx * x + o.xy * y + offsetX, dy = o.yx * x + o.yy * y + offsetY
                let pixel = source.load(fromByteOffset: y * picture.pitch + x * 4, as: UInt32.self)
                target.storeBytes(of: pixel, toByteOffset: dy * out.pitch + dx * 4, as: UInt32.self)
            }
        }
        return out
    }
}
