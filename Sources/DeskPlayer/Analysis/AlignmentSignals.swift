// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import CFFmpeg

/// What `compare-align` matches two files by, read from each file's start
/// on the alignment's own thread: its sound as mono float at one common
/// rate, or its pictures as tiny luma signatures (16x9, one per frame).
/// Times are counted from the file's start (the container's start time
/// taken off), as the player counts them.
package enum AlignmentSignals {
    /// The rate both files' sound is resampled to (swresample): offsets are
    /// found to one sample of it.
    package static let sampleRate = 48_000
    package static let signatureWidth = 16
    package static let signatureHeight = 9
    /// Frames a second read at most.
    static let maximumFrameRate = 240.0

    /// A file's sound: `samples[i]` is at i / sampleRate seconds.
    package struct Audio: Sendable {
        package var samples: [Float]
    }

    /// A file's pictures: a signature (luma, row by row) and a time per frame.
    package struct Video: Sendable {
        package var times: [Double] = []
        package var signatures: [[Float]] = []
        package var frameRate: Double?
    }

    /// The first `seconds` of `path`'s sound (its best audio stream, mixed
    /// to mono); nil when it has none.
    package static func audio(of path: String, seconds: Double, interrupt: InterruptFlag) throws(MediaError) -> Audio? {
        let input = try MediaInput(location: MediaLocation(path), interrupt: interrupt)
        guard let index = input.bestStream(AVMEDIA_TYPE_AUDIO), let stream = input.stream(index) else { return nil }
        for i in 0..<input.streamCount where i != index { input.stream(i)?.pointee.discard = AVDISCARD_ALL }
        let decoder = try Decoder(stream: stream, threads: 1)
        let resampler = Resampler(output: AudioFormat(sampleRate: sampleRate, channels: 2))
        let start = startSeconds(input)
        let timeBase = stream.pointee.time_base
        let wanted = Int(saturating: seconds * Double(sampleRate))
        var samples: [Float] = []
        samples.reserveCapacity(wanted)
        let packet = try Packet()
        let frame = try Frame()
        var failure: MediaError?
        // Appends converted sound; the first block is placed at its time
        // (silence before it, or its part before zero dropped).
        func append(_ count: Int, at time: MediaTime?) {
            var from = 0
            if samples.isEmpty, let time {
                // Clamped first: a file's time may be anything.
                let first = max(-wanted, min(wanted, Int(saturating: ((time.seconds - start) * Double(sampleRate)).rounded())))
                if first > 0 { samples.append(contentsOf: repeatElement(0, count: first)) } else { from = min(-first, count) }
            }
            let buffer = resampler.buffer
            var i = from
            while i < count && samples.count < wanted {
                samples.append(0.5 * (buffer[2 * i] + buffer[2 * i + 1]))
                i += 1
            }
        }
        func each(_ frame: Frame) {
            guard failure == nil, samples.count < wanted else { return }
            let best = frame.bestEffortTimestamp
            let time = best == DP_AV_NOPTS_VALUE ? nil : MediaTime(seconds: Double(best) * av_q2d(timeBase), timescale: 1_000_000_000)
            do throws(MediaError) {
                let (count, first) = try resampler.convert(frame.pointer, startingAt: time)
                append(count, at: first)
            } catch { failure = error }
        }
        while samples.count < wanted, !interrupt.isSet {
            guard try input.read(into: packet) else { break }
            defer { packet.unref() }
            guard packet.streamIndex == Int32(index) else { continue }
            decoder.decode(packet, into: frame, until: { interrupt.isSet }, each: each)
            if let failure { throw failure }
        }
        if samples.count < wanted {
            decoder.decode(nil, into: frame, until: { interrupt.isSet }, each: each)
            if let (count, _) = try? resampler.convert(UnsafeMutablePointer<AVFrame>?.none) { append(count, at: nil) }
        }
        if interrupt.isSet { throw MediaError("stopped") }
        return samples.isEmpty ? nil : Audio(samples: samples)
    }

    /// The first `seconds` of `path`'s pictures as signatures; nil when it has no video.
    package static func video(of path: String, seconds: Double, interrupt: InterruptFlag) throws(MediaError) -> Video? {
        let input = try MediaInput(location: MediaLocation(path), interrupt: interrupt)
        guard let index = input.bestStream(AVMEDIA_TYPE_VIDEO), let stream = input.stream(index) else { return nil }
        for i in 0..<input.streamCount where i != index { input.stream(i)?.pointee.discard = AVDISCARD_ALL }
        let decoder = try Decoder(stream: stream, threads: 0)
        let scaler = Scaler()
        let picture = PictureBuffer(width: signatureWidth, height: signatureHeight, layout: .yuv420)
        let start = startSeconds(input)
        let timeBase = av_q2d(stream.pointee.time_base)
        var video = Video()
        let rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        if rate.num > 0, rate.den > 0 { video.frameRate = av_q2d(rate) }
        let packet = try Packet()
        let frame = try Frame()
        var failure: MediaError?
        var done = false
        func each(_ frame: Frame) {
            guard failure == nil, !done else { return }
            let best = frame.bestEffortTimestamp
            // A frame without a time follows the last one by a frame.
            let time = best != DP_AV_NOPTS_VALUE ? Double(best) * timeBase - start
                : (video.times.last ?? -1 / (video.frameRate ?? 25)) + 1 / (video.frameRate ?? 25)
            // Past the span, or more frames than any real rate gives in it
            // (a file whose times stand still would be read to its end).
            if time > seconds || video.times.count >= Int(saturating: seconds * maximumFrameRate) {
                done = true
                return
            }
            do throws(MediaError) { try scaler.scale(frame.pointer, into: picture) } catch {
                failure = error
                return
            }
            let luma = picture.planes[0]
            var signature = [Float](repeating: 0, count: signatureWidth * signatureHeight)
            for y in 0..<signatureHeight {
                for x in 0..<signatureWidth { signature[y * signatureWidth + x] = Float(luma.pixels[y * luma.pitch + x]) }
            }
            video.times.append(time)
            video.signatures.append(signature)
        }
        while !done, !interrupt.isSet {
            guard try input.read(into: packet) else { break }
            defer { packet.unref() }
            guard packet.streamIndex == Int32(index) else { continue }
            decoder.decode(packet, into: frame, until: { interrupt.isSet || done }, each: each)
            if let failure { throw failure }
        }
        if !done { decoder.decode(nil, into: frame, until: { interrupt.isSet || done }, each: each) }
        if interrupt.isSet { throw MediaError("stopped") }
        // Decoders give frames in presentation order; a stream that does
        // not is put in order here, so times only grow.
        let order = video.times.indices.sorted { video.times[$0] < video.times[$1] }
        video.times = order.map { video.times[$0] }
        video.signatures = order.map { video.signatures[$0] }
        return video.times.isEmpty ? nil : video
    }

    /// The container's start, which the player's time 0 is.
    private static func startSeconds(_ input: MediaInput) -> Double {
        let start = input.context.pointee.start_time
        return start == DP_AV_NOPTS_VALUE ? 0 : Double(start) / Double(DP_AV_TIME_BASE)
    }
}
