// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Owns one AVPacket. Used by one thread at a time: the demuxer fills it and
/// hands it through a packet queue to a decoder thread.
package final class Packet: @unchecked Sendable {  // handed over whole through a PacketQueue: one thread at a time
    let pointer: UnsafeMutablePointer<AVPacket>

    package init() throws(MediaError) {
        guard let p = av_packet_alloc() else { throw MediaError("out of memory (packet)") }
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }

    package var streamIndex: Int32 { pointer.pointee.stream_index }
    package var pts: Int64 { pointer.pointee.pts }
    package var dts: Int64 { pointer.pointee.dts }
    package var duration: Int64 { pointer.pointee.duration }
    package var size: Int { Int(pointer.pointee.size) }
    package var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }

    /// Moves pts and dts by `shift`, to the nearest tick of `timeBase`.
    package func shiftTimestamps(by shift: MediaTime, timeBase: AVRational) {
        let ticks = shift.ticks(in: timeBase)
        if pointer.pointee.pts != DP_AV_NOPTS_VALUE { pointer.pointee.pts &+= ticks }
        if pointer.pointee.dts != DP_AV_NOPTS_VALUE { pointer.pointee.dts &+= ticks }
    }

    /// Moves the contents into a fresh packet, leaving this one empty for reuse.
    package func take() throws(MediaError) -> Packet {
        let moved = try Packet()
        av_packet_move_ref(moved.pointer, pointer)
        return moved
    }

    package func unref() { av_packet_unref(pointer) }

    /// A new packet holding a reference to the same data (no copy of the
    /// bytes): what a recording keeps while the packet plays on. Nil when
    /// out of memory.
    package func reference() -> Packet? {
        guard let copy = try? Packet() else { return nil }
        return av_packet_ref(copy.pointer, pointer) >= 0 ? copy : nil
    }

    /// The AV_PKT_DATA_SKIP_SAMPLES side data (start/end trim), if any.
    package var skipSamplesSideData: [UInt8]? {
        var size: Int = 0
        guard let data = av_packet_get_side_data(pointer, AV_PKT_DATA_SKIP_SAMPLES, &size), size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    package func setSkipSamplesSideData(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, let data = av_packet_new_side_data(pointer, AV_PKT_DATA_SKIP_SAMPLES, bytes.count)
        else { return }
        for (i, b) in bytes.enumerated() { data[i] = b }
    }
}

/// Owns one AVFrame, reused across decode calls.
package final class Frame {
    package let pointer: UnsafeMutablePointer<AVFrame>

    package init() throws(MediaError) {
        guard let f = av_frame_alloc() else { throw MediaError("out of memory (frame)") }
        pointer = f
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }

    package func unref() { av_frame_unref(pointer) }

    /// The best timestamp FFmpeg could work out, in the stream's time base.
    package var bestEffortTimestamp: Int64 {
        let t = pointer.pointee.best_effort_timestamp
        return t != DP_AV_NOPTS_VALUE ? t : pointer.pointee.pts
    }
    package var sampleCount: Int { Int(pointer.pointee.nb_samples) }

    /// Makes this frame `count` samples of silence in the format `codec`
    /// decodes to (where a stream's audio is missing).
    package func makeSilence(count: Int, like codec: UnsafeMutablePointer<AVCodecContext>) throws(MediaError) {
        av_frame_unref(pointer)
        pointer.pointee.format = codec.pointee.sample_fmt.rawValue
        pointer.pointee.sample_rate = codec.pointee.sample_rate
        pointer.pointee.nb_samples = Int32(count)
        try MediaError.check(av_channel_layout_copy(&pointer.pointee.ch_layout, &codec.pointee.ch_layout),
                             "cannot make silence")
        try MediaError.check(av_frame_get_buffer(pointer, 0), "cannot make silence")
        av_samples_set_silence(pointer.pointee.extended_data, 0, Int32(count), pointer.pointee.ch_layout.nb_channels,
                               codec.pointee.sample_fmt)
    }

    /// Drops the first `count` audio samples by moving the data pointers
    /// (the buffers stay owned by the frame). False when none are left.
    package func dropLeadingSamples(_ count: Int) -> Bool {
        guard count > 0 else { return true }
        let f = pointer
        guard count < Int(f.pointee.nb_samples) else { return false }
        let format = AVSampleFormat(f.pointee.format)
        let bytes = Int(av_get_bytes_per_sample(format))
        let channels = Int(f.pointee.ch_layout.nb_channels)
        let planar = av_sample_fmt_is_planar(format) != 0
        let planes = planar ? channels : 1
        let step = count * bytes * (planar ? 1 : channels)
        guard let extended = f.pointee.extended_data else { return false }
        for i in 0..<planes { extended[i] = extended[i].map { $0 + step } }
        withUnsafeMutablePointer(to: &f.pointee.data) { tuple in
            tuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { data in
                for i in 0..<min(planes, 8) { data[i] = extended[i] }
            }
        }
        f.pointee.nb_samples -= Int32(count)
        return true
    }
}
