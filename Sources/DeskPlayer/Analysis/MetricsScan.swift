// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import CFFmpeg
import Foundation
import Collections

/// Measures two files frame by frame: each decoded on its own thread
/// (`MetricsInput`), their frames handed in time order to FFmpeg's metric
/// filters (`MetricFilters`) on the caller's thread, so decoding both and
/// measuring overlap. One row comes out per frame of the reference. What
/// a person should know about the pair (sizes, rates, a side that ends
/// early) is said once each through `notice`.
package final class MetricsScan {
    package enum Outcome: Equatable {
        case finished
        case stopped
        /// The scan could not go on; the frames measured so far stand.
        case failed(String)
    }

    package let reference: MetricsInput
    package let other: MetricsInput
    package let metrics: Set<VideoMetric>
    /// Names for messages (the paths as given).
    private let names: (String, String)
    private let graphThreads: Int32

    /// Opens both files; a file that cannot be measured throws a message
    /// that names it. `graphThreads`: slice threads for the metric filters
    /// (0: as many as cores).
    package init(reference: String, other: String, metrics: Set<VideoMetric>, graphThreads: Int32 = 0) throws(MediaError) {
        func open(_ path: String) throws(MediaError) -> MetricsInput {
            do { return try MetricsInput(path: path) } catch { throw MediaError("\(path): \(error)", code: error.code) }
        }
        self.reference = try open(reference)
        self.other = try open(other)
        if let refusal = MetricsScan.transferMismatch(self.reference, self.other) { throw MediaError(refusal) }
        self.metrics = metrics
        names = (reference, other)
        self.graphThreads = graphThreads
    }

    deinit {
        reference.stop()
        other.stop()
    }

    /// Runs to the reference's end (or until `shouldStop` says so), handing
    /// each batch of measured frames to `measured`. From `seconds` when
    /// given (the keyframe at or before it on each side).
    package func run(from seconds: Double? = nil, notice: (String) -> Void, shouldStop: () -> Bool = { false },
             measured: ([MeasuredFrame]) -> Void) -> Outcome {
        reference.start(at: seconds)
        other.start(at: seconds)
        defer {
            reference.stop()
            other.stop()
        }
        let ratesDiffer = reference.frameRate.num > 0 && other.frameRate.num > 0
            && av_cmp_q(reference.frameRate, other.frameRate) != 0
        if ratesDiffer {
            notice("\(names.0) is \(MetricsScan.rate(reference.frameRate)) fps and \(names.1) \(MetricsScan.rate(other.frameRate)) fps: "
                + "metrics at \(names.0)'s frames, each against \(names.1)'s frame shown at that time")
        }
        let firstEntries = (reference.next(), other.next())
        guard case .frame(let firstReference)? = firstEntries.0 else {
            return shouldStop() ? .stopped : MetricsScan.noFrame(firstEntries.0, names.0)
        }
        guard case .frame(let firstOther)? = firstEntries.1 else {
            return shouldStop() ? .stopped : MetricsScan.noFrame(firstEntries.1, names.1)
        }
        let graph: MetricFilters
        do {
            graph = try MetricFilters(reference: .init(frame: firstReference.pointer, timeBase: reference.timeBase,
                                                      frameRate: reference.frameRate),
                                     other: .init(frame: firstOther.pointer, timeBase: other.timeBase, frameRate: other.frameRate),
                                     metrics: metrics, threads: graphThreads)
        } catch {
            return .failed("cannot measure \(names.0) against \(names.1): \(error)")
        }
        if graph.scalesOther {
            let (r, o) = (firstReference.pointer.pointee, firstOther.pointer.pointee)
            notice("\(names.1) is \(o.width)x\(o.height) and \(names.0) \(r.width)x\(r.height): "
                + "\(names.1) is scaled to \(r.width)x\(r.height) (bicubic) for the metrics")
        }
        var nextReference: Frame? = firstReference
        var nextOther: Frame? = firstOther
        // What each frame was as coded: the reference's in order (one row
        // comes out per frame pushed), the other side's with its time, to
        // find the frame the filters paired (its latest at or before the row's time).
        var referenceCoded = Deque<CodedFrame>()
        var otherCoded = Deque<(time: Double, coded: CodedFrame)>()
        var lastReferencePts = firstReference.pointer.pointee.pts
        var otherFrames = 0
        var lastOtherTime = 0.0
        var failure: String?
        var saidUnpaired = false
        do {
            while nextReference != nil || nextOther != nil {
                if shouldStop() { return .stopped }
                // The earlier of the two frames goes in first (the reference
                // on a tie), so the filters never wait long for either side.
                var takeReference = nextOther == nil
                if let r = nextReference, let o = nextOther {
                    takeReference = av_compare_ts(r.pointer.pointee.pts, reference.timeBase, o.pointer.pointee.pts, other.timeBase) <= 0
                }
                if takeReference, let frame = nextReference {
                    lastReferencePts = frame.pointer.pointee.pts
                    referenceCoded.append(CodedFrame(frame.pointer))
                    try graph.pushReference(frame)
                    nextReference = take(reference, name: names.0, failure: &failure)
                    if nextReference == nil { try graph.pushReference(nil) }
                } else if nextReference == nil, let frame = nextOther,
                          av_compare_ts(frame.pointer.pointee.pts, other.timeBase, lastReferencePts, reference.timeBase) > 0 {
                    // The reference has ended and decides the rows: the rest of
                    // the other side is not needed. Said when it goes on for more
                    // than a frame of the reference (not for a frame's rounding).
                    let beyond = Double(frame.pointer.pointee.pts) * av_q2d(other.timeBase)
                        - Double(lastReferencePts) * av_q2d(reference.timeBase)
                    let referenceStep = reference.frameRate.num > 0 ? 1 / av_q2d(reference.frameRate) : 0
                    if failure == nil, beyond > referenceStep {
                        notice("\(names.1) goes on after \(names.0) ends: metrics at \(names.0)'s frames only")
                    }
                    try graph.pushOther(nil)
                    other.stop()
                    nextOther = nil
                } else if let frame = nextOther {
                    otherFrames += 1
                    lastOtherTime = Double(frame.pointer.pointee.pts) * av_q2d(other.timeBase)
                    otherCoded.append((lastOtherTime, CodedFrame(frame.pointer)))
                    try graph.pushOther(frame)
                    nextOther = take(other, name: names.1, failure: &failure)
                    if nextOther == nil {
                        try graph.pushOther(nil)
                        if nextReference != nil, failure == nil {
                            notice("\(names.1) ends at \(String(format: "%.3f", lastOtherTime)) s after \(otherFrames) frames, "
                                + "before \(names.0): \(names.0)'s later frames are measured against its last frame")
                        }
                    }
                }
                var (frames, ended) = try graph.pull()
                MetricsScan.addCoded(&frames, reference: &referenceCoded, other: &otherCoded)
                if !frames.isEmpty {
                    // From the middle, the other side's keyframe may come after the
                    // reference's: frames before it are not unpaired in the file.
                    if !saidUnpaired, (seconds ?? 0) <= 0, let first = frames.first(where: { $0.metrics.isEmpty }) {
                        saidUnpaired = true
                        notice("\(names.1) has no frame yet at \(names.0)'s frame \(first.index) (" + String(format: "%.3f", first.time)
                            + " s): it starts later, so that frame has no metrics (as in FFmpeg)")
                    }
                    measured(frames)
                }
                if ended { return failure.map { .failed($0) } ?? .finished }
            }
            // Both sides in and closed: what the filters still hold comes out.
            var (rest, _) = try graph.pull()
            MetricsScan.addCoded(&rest, reference: &referenceCoded, other: &otherCoded)
            if !rest.isEmpty { measured(rest) }
        } catch {
            return .failed("measuring \(names.0) against \(names.1) failed: \(error)")
        }
        return failure.map { .failed($0) } ?? .finished
    }

    /// Each row's coded sizes and types: the reference's next, and the
    /// other side's latest frame at or before the row's time (the one
    /// FFmpeg's framesync paired; none before the other side starts).
    private static func addCoded(_ frames: inout [MeasuredFrame], reference: inout Deque<CodedFrame>,
                                 other: inout Deque<(time: Double, coded: CodedFrame)>) {
        for i in frames.indices {
            frames[i].coded = reference.popFirst()
            let t = frames[i].time + 1e-6
            while other.count > 1, other[1].time <= t { other.removeFirst() }
            if let first = other.first, first.time <= t, !frames[i].metrics.isEmpty { frames[i].otherCoded = first.coded }
        }
    }

    /// One line when one side is HDR and the other SDR: their code values
    /// follow different transfer functions, so PSNR and SSIM between them
    /// would measure the transfer, not the encoding.
    package static func transferMismatch(_ a: MetricsInput, _ b: MetricsInput) -> String? {
        guard a.hdrTransfer != b.hdrTransfer else { return nil }
        func describe(_ side: MetricsInput) -> String { side.hdrTransfer.map { "HDR (\($0))" } ?? "SDR" }
        let (nameA, nameB) = ((a.name as NSString).lastPathComponent, (b.name as NSString).lastPathComponent)
        return "\(nameA) is \(describe(a)) and \(nameB) \(describe(b)): not measured, since PSNR and SSIM of code values "
            + "of different transfer functions mean nothing (compare HDR with HDR, SDR with SDR)"
    }

    /// Why a side gave no first frame.
    private static func noFrame(_ entry: MetricsInput.Entry?, _ name: String) -> Outcome {
        if case .end(let error?)? = entry { return .failed("\(name): \(error)") }
        return .failed("\(name): no video frame could be decoded")
    }

    /// The side's next frame; nil at its end, or when it failed (said in `failure`).
    private func take(_ side: MetricsInput, name: String, failure: inout String?) -> Frame? {
        switch side.next() {
        case .frame(let frame)?: return frame
        case .end(let error?)?:
            failure = failure ?? "\(name): \(error)"
            return nil
        case .end(nil)?, nil: return nil
        }
    }

    package static func rate(_ r: AVRational) -> String {
        let value = av_q2d(r)
        return value == value.rounded() ? String(Int(saturating: value)) : String(format: "%.3f", value)
    }
}
