// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Media

/// The sound of a comparison export: one side's audio decoded from its
/// start, as stereo float at 48 kHz (swresample), handed out in the
/// export's time: its sample n is the file's sound at n / 48000 + `shift`
/// seconds (silence before the file's sound starts and after it ends).
/// Used by one thread.
package final class CompareExportAudio {
    package static let sampleRate = 48_000
    private let input: MediaInput
    private let decoder: Decoder
    private let resampler = Resampler(output: AudioFormat(sampleRate: CompareExportAudio.sampleRate, channels: 2))
    private let streamIndex: Int32
    private let timeBase: AVRational
    private let start: Double
    /// The export's sample 0 is the file's sample `offset`.
    private let offset: Int
    private let packet: Packet
    private let frame: Frame
    /// Decoded samples (interleaved stereo); the first is the file's sample `bufferStart`.
    private var buffer: [Float] = []
    private var bufferStart: Int?
    private var ended = false
    /// Export samples handed out so far.
    private var produced = 0

    /// Nil (no throw) when the file has no sound: the export is silent.
    package init?(path: String, shift: Double) throws(MediaError) {
        input = try MediaInput(location: MediaLocation(path), interrupt: InterruptFlag())
        guard let index = input.bestStream(AVMEDIA_TYPE_AUDIO), let stream = input.stream(index) else { return nil }
        for i in 0..<input.streamCount where i != index { input.stream(i)?.pointee.discard = AVDISCARD_ALL }
        streamIndex = Int32(index)
        timeBase = stream.pointee.time_base
        decoder = try Decoder(stream: stream, threads: 1)
        let s = input.context.pointee.start_time
        start = s == DP_AV_NOPTS_VALUE ? 0 : Double(s) / Double(DP_AV_TIME_BASE)
        offset = Int(saturating: (shift * Double(CompareExportAudio.sampleRate)).rounded())
        packet = try Packet()
        frame = try Frame()
    }

    /// The export's sound from where the last call ended up to `seconds`.
    package func samples(until seconds: Double) throws(MediaError) -> [Float] {
        let end = Int(saturating: (seconds * Double(CompareExportAudio.sampleRate)).rounded())
        var out: [Float] = []
        out.reserveCapacity(max(0, end - produced) * 2)
        while produced < end {
            let m = produced + offset
            while !ended && (bufferStart.map { $0 + buffer.count / 2 <= m } ?? true) { try decodeMore() }
            let first = bufferStart ?? Int.max, last = (bufferStart ?? 0) + buffer.count / 2
            let count: Int
            if m < first {
                count = min(end - produced, first == Int.max ? end - produced : first - m)
                out.append(contentsOf: repeatElement(0, count: count * 2))
            } else if m >= last {
                count = end - produced
                out.append(contentsOf: repeatElement(0, count: count * 2))
            } else {
                count = min(end - produced, last - m)
                let from = (m - first) * 2
                out.append(contentsOf: buffer[from..<(from + count * 2)])
            }
            produced += count
        }
        // What is behind the export's place is not needed again.
        if let first = bufferStart, produced + offset - first > 1 << 16 {
            let drop = min(produced + offset - first, buffer.count / 2)
            buffer.removeFirst(drop * 2)
            bufferStart = first + drop
        }
        return out
    }

    private func decodeMore() throws(MediaError) {
        var failure: MediaError?
        let before = buffer.count
        func each(_ frame: Frame) {
            guard failure == nil else { return }
            let best = frame.bestEffortTimestamp
            let time = best == DP_AV_NOPTS_VALUE ? nil : MediaTime(seconds: Double(best) * av_q2d(timeBase), timescale: 1_000_000_000)
            do throws(MediaError) {
                let (count, first) = try resampler.convert(frame.pointer, startingAt: time)
                append(count, at: first)
            } catch { failure = error }
        }
        while buffer.count == before && !ended {
            guard try input.read(into: packet) else {
                decoder.decode(nil, into: frame, until: { false }, each: each)
                if let (count, _) = try? resampler.convert(UnsafeMutablePointer<AVFrame>?.none) { append(count, at: nil) }
                ended = true
                break
            }
            defer { packet.unref() }
            guard packet.streamIndex == streamIndex else { continue }
            decoder.decode(packet, into: frame, until: { false }, each: each)
            if let failure { throw failure }
        }
    }

    /// Appends converted sound; the first block is placed at its time.
    private func append(_ count: Int, at time: MediaTime?) {
        guard count > 0 else { return }
        if bufferStart == nil {
            let seconds = time.map { $0.seconds - start } ?? 0
            bufferStart = Int(saturating: (max(-86400, min(86400, seconds)) * Double(CompareExportAudio.sampleRate)).rounded())
        }
        buffer.append(contentsOf: UnsafeBufferPointer(start: resampler.buffer, count: count * 2))
    }
}
