// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media
import Playback

/// Screenshots: the video frame of a file at a position, decoded again at the
/// file's own size (what plays is scaled to the size shown), through the
/// same filters playing uses (turned upright, deinterlaced, tone mapped).
package enum FrameGrabber {
    /// The frame on screen at `time` on the item's timeline: the last one
    /// starting at or before it.
    package static func picture(of name: String, at time: MediaTime,
                        settings: VideoFilterSettings = VideoFilterSettings()) throws(MediaError) -> PictureBuffer {
        let asset = try MediaAsset(opening: MediaLocation(name))
        let input = asset.input
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO), let stream = input.stream(index) else {
            throw MediaError("no video to take a screenshot of")
        }
        // The item's timeline starts where the earliest played stream starts.
        let target = time + asset.startOffset(video: index, audio: input.bestStream(AVMEDIA_TYPE_AUDIO))
        let slack = MediaTime(microseconds: 1000)  // timestamps are rounded to their time base
        let decoder = try Decoder(stream: stream)
        try input.seek(toMicroseconds: target.microseconds)
        let packet = try Packet(), frame = try Frame(), kept = try Frame()
        var haveKept = false
        /// Takes decoded frames; true once the frame after the target came
        /// (or the stream ended).
        func receiveAll() throws(MediaError) -> Bool {
            while true {
                switch try decoder.receive(into: frame) {
                case .frame:
                    let pts = MediaTime(frame.bestEffortTimestamp, stream.pointee.time_base)
                    if pts > target + slack && haveKept { return true }
                    kept.unref()
                    av_frame_move_ref(kept.pointer, frame.pointer)
                    haveKept = true
                    if pts > target + slack { return true }  // the first frame is past it: the nearest there is
                case .needsInput: return false
                case .endOfStream: return true
                }
            }
        }
        defer { packet.unref() }
        while true {
            let more = try input.read(into: packet)
            if more && Int(packet.streamIndex) != index {
                packet.unref()
                continue
            }
            // Sending nil drains: receiveAll then runs to the end of the stream.
            let accepted = try decoder.send(more ? packet : nil)
            if try receiveAll() { break }
            if !accepted {
                _ = try decoder.send(more ? packet : nil)
                if try receiveAll() { break }
            }
            packet.unref()
            if !more { break }
        }
        guard haveKept else { throw MediaError("no video frame at \(DisplayText.clock(time.seconds))") }
        let parameters = stream.pointee.codecpar.pointee
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        let filters = try VideoFilters(orientation: asset.orientation(ofStream: index, settings: settings).orientation,
                                       interlaced: parameters.field_order != AV_FIELD_UNKNOWN
                                           && parameters.field_order != AV_FIELD_PROGRESSIVE,
                                       timeBase: stream.pointee.time_base, frameRate: rate, warning: { _ in })
        var picture: PictureBuffer?
        var failure: MediaError?
        // The first picture the filters give (a deinterlacer gives one per field).
        let take: VideoFilters.Emit = { frame, _, _ in
            guard picture == nil, failure == nil else { return }
            let made = PictureBuffer(width: Int(frame.pointee.width), height: Int(frame.pointee.height))
            do throws(MediaError) { try Scaler().scale(frame, into: made); picture = made } catch { failure = error }
        }
        filters.process(kept, deinterlace: settings.deinterlace, toneMapping: settings.toneMapping, emit: take)
        filters.drain(emit: take)
        if let failure { throw failure }
        guard let picture else { throw MediaError("no video frame at \(DisplayText.clock(time.seconds))") }
        return picture
    }
}
