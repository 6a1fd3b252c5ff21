import CFFmpeg

/// Owns one AVPacket. Used by one thread at a time: the demuxer fills it and
/// hands it through a packet queue to a decoder thread.
final class Packet: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(MediaError) {
        guard let p = av_packet_alloc() else { throw MediaError("out of memory (packet)") }
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }

    var streamIndex: Int32 { pointer.pointee.stream_index }
    var pts: Int64 { pointer.pointee.pts }
    var dts: Int64 { pointer.pointee.dts }
    var duration: Int64 { pointer.pointee.duration }
    var size: Int { Int(pointer.pointee.size) }

    /// Moves the contents into a fresh packet, leaving this one empty for reuse.
    func take() throws(MediaError) -> Packet {
        let moved = try Packet()
        av_packet_move_ref(moved.pointer, pointer)
        return moved
    }

    func unref() { av_packet_unref(pointer) }
}

/// Owns one AVFrame, reused across decode calls.
final class Frame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(MediaError) {
        guard let f = av_frame_alloc() else { throw MediaError("out of memory (frame)") }
        pointer = f
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }

    func unref() { av_frame_unref(pointer) }

    /// The best timestamp FFmpeg could work out, in the stream's time base.
    var bestEffortTimestamp: Int64 {
        let t = pointer.pointee.best_effort_timestamp
        return t != DP_AV_NOPTS_VALUE ? t : pointer.pointee.pts
    }
    var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    var width: Int32 { pointer.pointee.width }
    var height: Int32 { pointer.pointee.height }
}
