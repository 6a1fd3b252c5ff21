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
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw MediaError("\(path): cannot read the file")
        }
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else { throw MediaError("\(path): the file is empty") }
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
            return d
        }

        mutating func composition(_ root: Node) throws(MediaError) -> Composition {
            let top = try mapping(root, "the composition", keys: ["tracks"])
            guard let tracksNode = top["tracks"], let list = tracksNode.sequence, !list.isEmpty else {
                throw fail(root, "the composition needs a non-empty 'tracks' list")
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
