// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Playback
import Yams

/// `--composition FILE.json`: tracks, their segments and their ramps (the
/// docs/compositions.md documents the format). JSON is read through a YAML parser, which
/// keeps every value's line, so each problem is reported as `FILE:LINE:
/// reason`; YAML files are accepted too. Source paths are relative to the
/// file's folder. Nothing is built when anything is wrong.
enum CompositionFile {
    /// Reads and checks the file. `duration` gives a source's length (for
    /// segments without one); `skipBad` leaves out segments whose source
    /// fails instead of rejecting the file. Returns the composition and
    /// the sources left out.
    static func load(_ path: String, skipBad: Bool,
                     duration: (String) throws(MediaError) -> Double) throws(MediaError) -> (Composition, [String]) {
        let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0
        guard size <= Limits.fileBytes else {
            throw MediaError("\(path): larger than \(Limits.fileBytes >> 20) MiB, not a composition")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw MediaError("\(path): cannot read the file")
        }
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else { throw MediaError("\(path): the file is empty") }
            var budget = Limits.nodes
            try countValues(node, file: path, budget: &budget)
            root = node
        } catch let error as YamlError {
            throw MediaError("\(path):\(describe(error))")
        } catch {
            throw MediaError("\(path): \(error)")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var reader = Reader(file: path, folder: folder)
        var composition = try reader.composition(root)
        // Sources: each checked once; a bad one is an error at its segment's line.
        var skipped: [String] = []
        var durations: [String: Double] = [:]
        for t in composition.tracks.indices {
            var kept: [CompositionSegment] = []
            var keptLines: [Int] = []
            for (i, var segment) in composition.tracks[t].segments.enumerated() {
                let line = reader.segmentLines[t][i]
                let length: Double
                do {
                    if let known = durations[segment.source] { length = known } else {
                        length = try duration(segment.source)
                        durations[segment.source] = length
                    }
                } catch {
                    guard skipBad else { throw MediaError("\(path):\(line): \(error)") }
                    if !skipped.contains(segment.source) { skipped.append(segment.source) }
                    continue
                }
                if reader.openEnded.contains([t, i]) { segment.duration = length - segment.sourceStart }
                kept.append(segment)
                keptLines.append(line)
            }
            composition.tracks[t].segments = kept
            reader.segmentLines[t] = keptLines
        }
        if let problem = composition.problems().first {
            var line = reader.trackLines[problem.track ?? 0, default: root.mark?.line ?? 1]
            if let t = problem.track {
                switch problem.part {
                case .track: break
                case .segment(let i): line = reader.segmentLines[t][i]
                case .ramp(let i): line = reader.rampLines[t][i]
                }
            }
            throw MediaError("\(path):\(line): \(problem.message)")
        }
        return (composition, skipped)
    }

    /// What a composition may hold. A file is written by a person or a
    /// tool, not expanded: far past these it is a mistake or an attack, and
    /// it is refused with one line before anything is built.
    enum Limits {
        static let fileBytes = 4 << 20
        static let nodes = 200_000
        static let tracks = 64
        static let segmentsPerTrack = 10_000
        static let rampsPerTrack = 10_000
        /// Seconds any time in the file may be from zero: some 115 days.
        static let seconds = 1e7
    }

    /// YAML aliases are counted as what they expand to: a few lines of them
    /// expand into billions of values ("billion laughs"), and the walk that
    /// reads the tree stops at `Limits.nodes`, before anything is built.
    /// (Yams holds a node's anchor weakly, gone once composed: the
    /// expansion is what can be counted.)
    private static func countValues(_ node: Node, file: String, budget: inout Int) throws(MediaError) {
        budget -= 1
        guard budget >= 0 else {
            throw MediaError("\(file): more than \(Limits.nodes) values (YAML aliases expanded), not a composition")
        }
        switch node {
        case .mapping(let m): for (key, value) in m { try countValues(key, file: file, budget: &budget); try countValues(value, file: file, budget: &budget) }
        case .sequence(let list): for element in list { try countValues(element, file: file, budget: &budget) }
        case .scalar, .alias: break
        }
    }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _):
            return "\(mark.line): \(problem)\(context.map { " (\($0.text))" } ?? "")"
        default:
            return "\(error)"
        }
    }

    /// Walks the node tree, remembering the line of each track, segment and ramp.
    private struct Reader {
        let file: String
        let folder: URL
        var trackLines: [Int: Int] = [:]
        var segmentLines: [[Int]] = []
        var rampLines: [[Int]] = []
        /// Segments without a duration: they run to the source's end.
        var openEnded = Set<[Int]>()

        init(file: String, folder: URL) {
            self.file = file
            self.folder = folder
        }

        func fail(_ node: Node, _ reason: String) -> MediaError {
            MediaError("\(file):\(node.mark?.line ?? 1): \(reason)")
        }

        func mapping(_ node: Node, _ what: String, keys: Set<String>) throws(MediaError) -> Node.Mapping {
            guard let m = node.mapping else { throw fail(node, "\(what) must be an object") }
            for (key, _) in m {
                guard let k = key.string, keys.contains(k) else {
                    throw fail(key, "unknown key '\(key.string ?? "?")' in \(what) (known: \(keys.sorted().joined(separator: ", ")))")
                }
            }
            return m
        }

        func number(_ m: Node.Mapping, _ key: String, of owner: Node, _ what: String,
                    default value: Double? = nil) throws(MediaError) -> Double {
            guard let node = m[key] else {
                if let value { return value }
                throw fail(owner, "\(what) needs '\(key)'")
            }
            guard let d = node.float ?? node.int.map(Double.init), d.isFinite else {
                throw fail(node, "'\(key)' must be a number of seconds or a volume, not '\(node.string ?? "?")'")
            }
            guard abs(d) <= Limits.seconds else {
                throw fail(node, "'\(key)' is \(d): a composition's numbers stay within \(Int(Limits.seconds)) seconds")
            }
            return d
        }

        mutating func composition(_ root: Node) throws(MediaError) -> Composition {
            let top = try mapping(root, "the composition", keys: ["tracks"])
            guard let tracksNode = top["tracks"], let list = tracksNode.sequence, !list.isEmpty else {
                throw fail(root, "the composition needs a non-empty 'tracks' list")
            }
            guard list.count <= Limits.tracks else {
                throw fail(tracksNode, "\(list.count) tracks: a composition has at most \(Limits.tracks)")
            }
            var composition = Composition()
            for (t, node) in list.enumerated() {
                trackLines[t] = node.mark?.line
                let m = try mapping(node, "a track", keys: ["name", "volume", "curve", "segments", "ramps"])
                var track = CompositionTrack(name: m["name"]?.string ?? "track \(t + 1)")
                track.mix.volume = Float(try number(m, "volume", of: node, "a track", default: 1))
                if let curve = m["curve"] {
                    guard let c = curve.string.flatMap(RampCurve.init(rawValue:)) else {
                        throw fail(curve, "'curve' must be linear or equal-power")
                    }
                    track.mix.curve = c
                }
                if let count = m["segments"]?.sequence?.count, count > Limits.segmentsPerTrack {
                    throw fail(node, "\(count) segments in a track: at most \(Limits.segmentsPerTrack)")
                }
                if let count = m["ramps"]?.sequence?.count, count > Limits.rampsPerTrack {
                    throw fail(node, "\(count) ramps in a track: at most \(Limits.rampsPerTrack)")
                }
                var lines: [Int] = []
                for (i, s) in (m["segments"]?.sequence ?? []).enumerated() {
                    let sm = try mapping(s, "a segment", keys: ["source", "start", "duration", "at"])
                    guard let source = sm["source"]?.string, !source.isEmpty else { throw fail(s, "a segment needs a 'source' file") }
                    let resolved = source.hasPrefix("/") || source.contains("://") ? source
                        : folder.appendingPathComponent(source).path
                    let what = "the segment of \(source)"
                    let start = try number(sm, "start", of: s, what, default: 0)
                    let at = try number(sm, "at", of: s, what)
                    let length = try number(sm, "duration", of: s, what, default: .nan)
                    if length.isNaN { openEnded.insert([t, i]) }
                    track.segments.append(CompositionSegment(source: resolved, sourceStart: start,
                                                             duration: length.isNaN ? 0 : length, at: at))
                    lines.append(s.mark?.line ?? 1)
                }
                segmentLines.append(lines)
                lines = []
                for r in m["ramps"]?.sequence ?? [] {
                    let rm = try mapping(r, "a ramp", keys: ["from", "to", "start", "duration"])
                    track.mix.ramps.append(VolumeRamp(from: Float(try number(rm, "from", of: r, "a ramp")),
                                                      to: Float(try number(rm, "to", of: r, "a ramp")),
                                                      start: try number(rm, "start", of: r, "a ramp"),
                                                      duration: try number(rm, "duration", of: r, "a ramp")))
                    lines.append(r.mark?.line ?? 1)
                }
                rampLines.append(lines)
                composition.tracks.append(track)
            }
            return composition
        }
    }
}
