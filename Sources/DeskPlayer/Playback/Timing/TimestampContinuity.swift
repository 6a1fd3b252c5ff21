// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Media

/// MPEG-TS and HLS timestamps may jump inside a pass: an
/// EXT-X-DISCONTINUITY between pieces made apart (each starts its clock
/// again), an encoder restart, a 33-bit wrap FFmpeg did not unwrap. Played as
/// they are, the timeline would run backwards (the clock and pictures
/// repeat) or leap hours ahead. The demuxer passes every packet of such an
/// input through here: each stream remembers where its last packet ended; a
/// packet starting more than `backwards` before that, or more than
/// `forwards` after it (a missing segment is a real gap of a few seconds and
/// stays one), begins a new piece, which is moved to follow on from where
/// the stream's last piece ended. Pieces are whole segments, so every
/// stream's packets of the old piece were read before the first of the new
/// one: the first stream to cross sets the shift for all. Demux thread only.
final class TimestampContinuity {
    private let backwards = MediaTime(value: 1, timescale: 2)
    private let forwards = MediaTime(value: 10, timescale: 1)
    /// Where each stream's last packet ended (shifted), in container time.
    private var ends: [Int32: MediaTime] = [:]
    /// Added to every timestamp from the last jump on.
    private var shift = MediaTime.zero

    /// A new pass or a seek: the input's own timestamps again.
    func reset() {
        ends.removeAll()
        shift = .zero
    }

    /// Shifts `packet` (of a stream with `timeBase`) onto the continuous
    /// timeline; returns the jump it closed, if it began a new piece.
    func place(_ packet: Packet, timeBase: AVRational) -> MediaTime? {
        let raw = packet.dts != DP_AV_NOPTS_VALUE ? packet.dts : packet.pts
        guard raw != DP_AV_NOPTS_VALUE else { return nil }
        var start = MediaTime(raw, timeBase) + shift
        var jump: MediaTime?
        if let last = ends[packet.streamIndex], start < last - backwards || start > last + forwards {
            jump = start - last
            shift = shift + (last - start)
            start = last
        }
        if shift != .zero { packet.shiftTimestamps(by: shift, timeBase: timeBase) }
        let duration = packet.duration > 0 ? MediaTime(packet.duration, timeBase) : .zero
        ends[packet.streamIndex] = start + duration
        return jump
    }
}
