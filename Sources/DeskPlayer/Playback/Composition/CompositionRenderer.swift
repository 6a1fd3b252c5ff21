// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Reads one segment's source as device-format samples, in order, from
/// `PlayerItem`'s audio-only pipeline (so decoder delay, priming and end
/// padding are handled exactly as when the file plays on its own).
final class SegmentReader {
    let segment: CompositionSegment
    /// The timeline sample the next `read` returns.
    private(set) var nextSample: Int64
    /// Why the source gave silence instead of its samples (set once).
    private(set) var failure: MediaError?
    var failureReported = false
    private let item: PlayerItem
    private var ring: AudioRing?
    /// Timeline samples still owed as silence before the source's first
    /// sample (a source whose audio starts late).
    private var pendingSilence: Int64 = 0
    private var checkedStart = false
    private let rate: Int64
    private let expectedStart: MediaTime

    /// Starts opening `segment`'s source in the background, to deliver
    /// timeline sample `from` onwards (at or after the segment's start).
    init(segment: CompositionSegment, from: Int64, format: AudioFormat) {
        self.segment = segment
        rate = Int64(format.sampleRate)
        let atSample = Int64(saturating: (segment.at * Double(rate)).rounded())
        nextSample = max(from, atSample)
        expectedStart = MediaTime(value: Int64(saturating: (segment.sourceStart * Double(rate)).rounded()) + nextSample - atSample,
                                  timescale: rate)
        var preferences = ItemPreferences()
        preferences.decodesVideo = false
        // Long bursts: an export reads far faster than real time.
        preferences.forwardBufferDuration = 5
        preferences.audioBufferSeconds = 2
        item = PlayerItem(segment.source, preferences: preferences, start: expectedStart, outputFormat: format)
        item.load()
    }

    deinit { item.cancel() }

    /// Fills `frames` frames of the source's next samples (silence past its
    /// end), waiting for the decoder when it is behind. False when `abort`
    /// said to stop first.
    func read(into out: UnsafeMutablePointer<Float>, frames: Int, abort: () -> Bool) -> Bool {
        // It was opened ahead of time; wait for it only if it is not ready yet.
        while ring == nil && failure == nil {
            let seen = item.loaded.generation
            switch item.status {
            case .unknown:
                if abort() { return false }
                // `abort` is not signalled: look at it every 0.1 s.
                item.loaded.wait(after: seen, timeout: 0.1)
            case .failed(let error):
                failure = MediaError("\(segment.source): \(error)")
            case .readyToPlay:
                if let pipeline = item.pipeline, pipeline.hasAudio { ring = pipeline.audioRing } else {
                    failure = MediaError("\(segment.source): has no audio stream")
                }
            }
        }
        let channels = item.outputFormat.channels
        guard let ring else {
            out.update(repeating: 0, count: frames * channels)
            nextSample += Int64(frames)
            return true
        }
        var done = 0
        while done < frames {
            if pendingSilence > 0 {
                let n = Int(min(Int64(frames - done), pendingSilence))
                (out + done * channels).update(repeating: 0, count: n * channels)
                pendingSilence -= Int64(n)
                done += n
                continue
            }
            let seen = ring.changed.generation
            if !checkedStart {
                // The first sample's time says where the source really begins.
                guard ring.availableFrames > 0 || ring.isEnded else {
                    if abort() { return false }
                    ring.changed.wait(after: seen, timeout: 0.1)
                    continue
                }
                checkedStart = true
                if let first = ring.peekTime, first > expectedStart {
                    pendingSilence = (first - expectedStart).converted(to: rate).value
                }
                continue
            }
            let (count, _, _) = ring.read(into: out + done * channels, frames: frames - done)
            done += count
            if count == 0 {
                if ring.isDrained {
                    (out + done * channels).update(repeating: 0, count: (frames - done) * channels)
                    done = frames
                } else {
                    if abort() { return false }
                    ring.changed.wait(after: seen, timeout: 0.1)
                }
            }
        }
        nextSample += Int64(frames)
        return true
    }
}

/// Renders a composition's mix, block by block, in the device format: each
/// track's segments read through `SegmentReader`s and summed with the track's
/// gain applied per sample. Sources are opened shortly before their segment
/// begins and closed when it ends, so memory does not grow with the number of
/// sources. One thread only (a pipeline's render thread, or an export).
final class CompositionRenderer {
    let composition: Composition
    let format: AudioFormat
    /// The timeline length in samples.
    let totalSamples: Int64
    /// The timeline sample the next `render` starts at.
    private(set) var position: Int64 = 0
    private var readers: [Int: [SegmentReader]] = [:]
    private let scratch: UnsafeMutablePointer<Float>
    private let scratchFrames = 4096
    /// How far ahead of the position sources are opened.
    private let lookahead: Int64
    /// Problems met while rendering (a source that failed to reopen).
    private var warnings: [String] = []

    init(_ composition: Composition, format: AudioFormat = .device) {
        self.composition = composition.normalized()
        self.format = format
        totalSamples = Int64(saturating: (composition.duration * Double(format.sampleRate)).rounded())
        scratch = .allocate(capacity: scratchFrames * format.channels)
        // Sources open this far ahead, in the background, so an export never
        // waits for one; a few sources at a time at most.
        lookahead = Int64(format.sampleRate) * 3
    }

    deinit { scratch.deallocate() }

    /// Moves to timeline sample `sample`; readers reopen there.
    func seek(to sample: Int64) {
        readers.removeAll()
        position = min(max(sample, 0), totalSamples)
    }

    var isAtEnd: Bool { position >= totalSamples }

    /// The problems met since the last call, each once.
    func takeWarnings() -> [String] {
        defer { warnings.removeAll() }
        return warnings
    }

    /// Renders up to `frames` frames into `out` (interleaved). Returns how
    /// many (fewer only at the end of the timeline), or nil when `abort`
    /// interrupted a wait for a decoder.
    func render(into out: UnsafeMutablePointer<Float>, frames: Int, abort: () -> Bool = { false }) -> Int? {
        let channels = format.channels
        let count = Int(min(Int64(frames), totalSamples - position))
        guard count > 0 else { return 0 }
        out.update(repeating: 0, count: count * channels)
        let blockStart = position, blockEnd = position + Int64(count)
        for (t, track) in composition.tracks.enumerated() {
            openReaders(track: t, until: blockEnd + lookahead)
            for reader in readers[t] ?? [] {
                let (segStart, segEnd) = samples(reader.segment)
                let from = max(blockStart, segStart), to = min(blockEnd, segEnd)
                guard from < to else { continue }
                var offset = from
                while offset < to {
                    let n = Int(min(to - offset, Int64(scratchFrames)))
                    guard reader.read(into: scratch, frames: n, abort: abort) else { return nil }
                    if let failure = reader.failure, !reader.failureReported {
                        // Checked when the composition was built: this source
                        // changed since. Its range plays as silence; the rest goes on.
                        reader.failureReported = true
                        warnings.append("\(failure)")
                    }
                    let base = out + Int(offset - blockStart) * channels
                    for i in 0..<n {
                        let gain = track.mix.gain(at: offset + Int64(i), rate: format.sampleRate)
                        for c in 0..<channels { base[i * channels + c] += scratch[i * channels + c] * gain }
                    }
                    offset += Int64(n)
                }
            }
            // Segments that are over close (their decoders and buffers go).
            readers[t]?.removeAll { samples($0.segment).end <= blockEnd }
        }
        position = blockEnd
        return count
    }

    private func samples(_ segment: CompositionSegment) -> (start: Int64, end: Int64) {
        let rate = Double(format.sampleRate)
        let start = Int64(saturating: (segment.at * rate).rounded())
        return (start, ContainerMath.sum(start, Int64(saturating: (segment.duration * rate).rounded())) ?? .max)
    }

    /// Opens the readers of track `t`'s segments that begin before `horizon`
    /// and are not over at the position.
    private func openReaders(track t: Int, until horizon: Int64) {
        var open = readers[t] ?? []
        for segment in composition.tracks[t].segments {
            let (start, end) = samples(segment)
            guard start < horizon else { break }
            guard end > position, !open.contains(where: { $0.segment == segment }) else { continue }
            open.append(SegmentReader(segment: segment, from: position, format: format))
        }
        readers[t] = open
    }
}
