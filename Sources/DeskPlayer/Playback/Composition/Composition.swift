// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media

/// A range of one source placed on a track's timeline
/// (AVMutableCompositionTrack.insertTimeRange(_:of:at:)). Seconds.
package struct CompositionSegment: Sendable, Equatable {
    package var source: String
    /// Where the range starts in the source.
    package var sourceStart: Double = 0
    package var duration: Double
    /// Where the range starts on the timeline.
    package var at: Double
    package var end: Double { at + duration }

    package init(source: String, sourceStart: Double = 0, duration: Double, at: Double) {
        (self.source, self.sourceStart, self.duration, self.at) = (source, sourceStart, duration, at)
    }
}

/// A volume change over a time range of the timeline
/// (setVolumeRamp(fromStartVolume:toEndVolume:timeRange:)).
package struct VolumeRamp: Sendable, Equatable {
    var from: Float
    var to: Float
    var start: Double
    var duration: Double
    var end: Double { start + duration }

    package init(from: Float, to: Float, start: Double, duration: Double) {
        (self.from, self.to, self.start, self.duration) = (from, to, start, duration)
    }
}

package enum RampCurve: String, Sendable, CaseIterable {
    /// gain = from + (to − from)·x
    case linear
    /// gain = from·cos(x·π/2) + to·sin(x·π/2): a fade-out and a fade-in that
    /// overlap keep the summed power constant.
    case equalPower = "equal-power"
}

/// One track's gain over the timeline (AVAudioMixInputParameters): a
/// constant volume times the ramps. Before the first ramp the ramp factor
/// is 1; inside a ramp it moves along the curve; after a ramp it holds the
/// ramp's `to`. Evaluated per output sample, at the sample's own time.
package struct AudioMix: Sendable, Equatable {
    package var volume: Float = 1
    package var ramps: [VolumeRamp] = []
    package var curve: RampCurve = .linear

    /// The gain of the sample at `index` (timeline samples at `rate`).
    package func gain(at index: Int64, rate: Int) -> Float {
        let r = Double(rate)
        var factor: Float = 1
        for ramp in ramps {
            let start = Int64(saturating: (ramp.start * r).rounded())
            let end = Int64(saturating: (ramp.end * r).rounded())
            if index < start { break }
            if index >= end { factor = ramp.to; continue }
            let x = Double(index - start) / Double(end - start)
            factor = curve.value(from: ramp.from, to: ramp.to, x: x)
            break
        }
        return volume * factor
    }
}

extension RampCurve {
    func value(from: Float, to: Float, x: Double) -> Float {
        switch self {
        case .linear: return Float(Double(from) + Double(to - from) * x)
        case .equalPower: return Float(Double(from) * cos(x * .pi / 2) + Double(to) * sin(x * .pi / 2))
        }
    }
}

package struct CompositionTrack: Sendable, Equatable {
    package var name: String
    package var segments: [CompositionSegment] = []
    package var mix = AudioMix()

    package init(name: String, segments: [CompositionSegment] = [], mix: AudioMix? = nil) {
        (self.name, self.segments) = (name, segments)
        if let mix { self.mix = mix }
    }
}

/// Tracks of source ranges on one timeline, each with its own gain curve
/// (AVMutableComposition + AVMutableAudioMix). Plays as one `PlayerItem`;
/// exports to a WAV file.
package struct Composition: Sendable, Equatable {
    package var tracks: [CompositionTrack] = []

    package init(tracks: [CompositionTrack] = []) { self.tracks = tracks }

    /// Where the last segment ends.
    package var duration: Double { tracks.flatMap(\.segments).map(\.end).max() ?? 0 }

    /// The longest a composition may last, in seconds (24 h): a segment
    /// without a duration takes its source's, which is what the container
    /// claims, and a file may claim years. Past this it is refused, not
    /// played or exported for as long as the claim.
    package static let maxDuration = 86_400.0

    var sources: [String] {
        var seen = Set<String>()
        return tracks.flatMap(\.segments).map(\.source).filter { seen.insert($0).inserted }
    }

    /// Where in a composition a problem is: a track, and one of its segments or ramps.
    package struct Problem: Sendable, Equatable, CustomStringConvertible {
        package enum Part: Sendable, Equatable { case track, segment(Int), ramp(Int) }
        package var track: Int?
        package var part: Part = .track
        package var message: String
        package var description: String { message }
    }

    /// What makes the composition unplayable, each a sentence naming the
    /// track; empty when it is good.
    package func problems() -> [Problem] {
        var found: [Problem] = []
        let total = duration
        if tracks.allSatisfy({ $0.segments.isEmpty }) { found.append(Problem(message: "the composition has no segments")) }
        for (t, track) in tracks.enumerated() {
            let name = "track '\(track.name)'"
            func report(_ part: Problem.Part, _ text: String) { found.append(Problem(track: t, part: part, message: "\(name): \(text)")) }
            for (i, s) in track.segments.enumerated() {
                if !(s.duration > 0) || !s.duration.isFinite { report(.segment(i), "segment of \(s.source) has a duration of \(s.duration) s (must be positive)") }
                if !(s.sourceStart >= 0) { report(.segment(i), "segment of \(s.source) starts at \(s.sourceStart) s in the source (negative)") }
                if !(s.at >= 0) { report(.segment(i), "segment of \(s.source) is placed at \(s.at) s (negative)") }
                if s.duration.isFinite, s.at.isFinite, s.end > Self.maxDuration {
                    report(.segment(i), "segment of \(s.source) ends at \(s.end) s, past the \(Int(Self.maxDuration)) s (24 h) a composition may last")
                }
            }
            let segments = track.segments.enumerated().sorted { $0.element.at < $1.element.at }
            for (a, b) in zip(segments, segments.dropFirst()) where b.element.at < a.element.end - 1e-9 {
                report(.segment(b.offset), "segments of \(a.element.source) and \(b.element.source) overlap at \(b.element.at) s (put overlapping ranges on separate tracks)")
            }
            if !(track.mix.volume >= 0) || !track.mix.volume.isFinite { report(.track, "volume \(track.mix.volume) (must be 0 or more)") }
            for (i, r) in track.mix.ramps.enumerated() {
                if !(r.duration > 0) { report(.ramp(i), "ramp at \(r.start) s has a duration of \(r.duration) s (must be positive)") }
                if r.start < 0 || r.end > total + 1e-9 {
                    report(.ramp(i), "ramp \(r.start)–\(r.end) s is outside the timeline (0–\(total) s)")
                }
                if !(r.from >= 0) || !(r.to >= 0) || !r.from.isFinite || !r.to.isFinite {
                    report(.ramp(i), "ramp at \(r.start) s has a negative volume")
                }
            }
            let ramps = track.mix.ramps.enumerated().sorted { $0.element.start < $1.element.start }
            for (a, b) in zip(ramps, ramps.dropFirst()) where b.element.start < a.element.end - 1e-9 {
                report(.ramp(b.offset), "ramps at \(a.element.start) s and \(b.element.start) s overlap")
            }
        }
        return found
    }

    /// Sorts segments and ramps by time (what the renderer expects).
    func normalized() -> Composition {
        var c = self
        for i in c.tracks.indices {
            c.tracks[i].segments.sort { $0.at < $1.at }
            c.tracks[i].mix.ramps.sort { $0.start < $1.start }
        }
        return c
    }

    /// A crossfade playlist: source k's range [0, clip) at k·(clip − fade),
    /// each on its own track; every clip but the first ramps 0→1 over its
    /// first `fade` seconds, every clip but the last 1→0 over its last.
    /// Without `clip`, whole sources (their `duration`) crossfade by `fade`.
    package static func crossfade(_ sources: [(name: String, duration: Double)], clip: Double?, fade: Double,
                          curve: RampCurve = .linear) throws(MediaError) -> Composition {
        guard fade >= 0, fade.isFinite else { throw MediaError("--crossfade must be 0 or more seconds") }
        if let clip, !(clip > 0) { throw MediaError("--clip must be more than 0 seconds") }
        var composition = Composition()
        var at = 0.0
        for (k, source) in sources.enumerated() {
            let length = min(clip ?? source.duration, source.duration)
            guard length > 0 else { throw MediaError("\(source.name): has no audio to play") }
            guard fade <= length / 2 || sources.count == 1 else {
                throw MediaError("--crossfade \(fade) s is longer than half of \(source.name) (\(length) s)")
            }
            var mix = AudioMix(curve: curve)
            if k > 0 && fade > 0 { mix.ramps.append(VolumeRamp(from: 0, to: 1, start: at, duration: fade)) }
            if k < sources.count - 1 && fade > 0 {
                mix.ramps.append(VolumeRamp(from: 1, to: 0, start: at + length - fade, duration: fade))
            }
            composition.tracks.append(CompositionTrack(
                name: URL(fileURLWithPath: source.name).lastPathComponent,
                segments: [CompositionSegment(source: source.name, duration: length, at: at)], mix: mix))
            at += length - fade
        }
        return composition
    }
}

/// Checks a composition source before it is placed: it opens, it has audio,
/// and how long that audio is.
package enum CompositionSource {
    /// The audio's duration in seconds, or a one-line reason it cannot be used.
    package static func duration(of path: String) throws(MediaError) -> Double {
        let input: MediaInput
        do { input = try MediaInput(location: MediaLocation(path), interrupt: InterruptFlag()) } catch {
            throw MediaError("\(path): \(error)")
        }
        guard let index = input.bestStream(AVMEDIA_TYPE_AUDIO), let stream = input.stream(index) else {
            throw MediaError("\(path): has no audio stream")
        }
        let s = stream.pointee
        if s.duration != DP_AV_NOPTS_VALUE, s.duration > 0 { return MediaTime(s.duration, s.time_base).seconds }
        if let us = input.durationMicroseconds { return Double(us) / 1e6 }
        throw MediaError("\(path): its duration is unknown")
    }
}
