// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
@testable import Output
@testable import Playback
@testable import UI
import TestSupport

/// `--scan A B --compare-metrics-out FILE.csv`: the CSV against FFmpeg's own
/// `psnr=stats_file=` and `ssim=stats_file=` output on the same pair, frame
/// by frame, for pairs that differ the way real ones do; and each bad input
/// said in one line.
@Suite struct MetricsScanTests {
    /// 3 s at 25 fps of a moving pattern with fine detail and a tone, as a
    /// camera's H.264 master (CRF 18): the reference.
    static func reference() throws -> String {
        try VideoMedia.clip("metrics-ref.mp4", ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=3",
                                                "-f", "lavfi", "-i", "sine=duration=3",
                                                "-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv420p", "-c:a", "aac"])
    }

    /// The reference encoded again the ways renditions differ.
    enum Rendition: String, CaseIterable, CustomTestStringConvertible {
        /// Another encoder at a low quality (MPEG-4 part 2).
        case otherEncoder
        /// A smaller ladder rung: 224x126 x264 at a low bit rate (scaled back up to measure).
        case smallerSize
        /// VP9 in WebM at a low bit rate: its video starts 14 ms after the reference's first frame.
        case vp9
        /// 30 fps instead of 25 (Matroska), so frames pair by time.
        case otherRate

        var testDescription: String { rawValue }

        func make(from reference: String) throws -> String {
            switch self {
            case .otherEncoder:
                return try VideoMedia.clip("metrics-mpeg4.mp4", ["-i", reference, "-an", "-c:v", "mpeg4", "-q:v", "8"])
            case .smallerSize:
                return try VideoMedia.clip("metrics-small.mp4", ["-i", reference, "-an", "-vf", "scale=224:126",
                                                                 "-c:v", "libx264", "-b:v", "150k"])
            case .vp9:
                return try VideoMedia.clip("metrics-vp9.webm", ["-i", reference, "-c:v", "libvpx-vp9", "-b:v", "100k",
                                                                "-deadline", "realtime", "-c:a", "libopus"])
            case .otherRate:
                return try VideoMedia.clip("metrics-30fps.mkv", ["-i", reference, "-an", "-vf", "fps=30",
                                                                 "-c:v", "libx264", "-crf", "28"])
            }
        }
    }

    /// FFmpeg's own figures: the psnr and ssim stats files of one run of
    /// `ffmpeg -i A -i B -lavfi` (B scaled to A's size, bicubic, when they differ).
    static func ffmpegStats(_ a: String, _ b: String, scaleTo size: String?, in folder: URL) throws -> (psnr: [[String: Double]], ssim: [[String: Double]]) {
        let psnrFile = folder.appendingPathComponent("psnr.log").path, ssimFile = folder.appendingPathComponent("ssim.log").path
        let scale = size.map { "scale=\($0)," } ?? ""
        let r = try runTool("ffmpeg", ["-nostdin", "-v", "error", "-i", a, "-i", b, "-lavfi",
                                       "[1:v]\(scale)split[d0][d1];[0:v][d0]psnr=stats_file=\(psnrFile)[p];[p][d1]ssim=stats_file=\(ssimFile)",
                                       "-f", "null", "-"])
        #expect(r.status == 0, "ffmpeg: \(r.stderr)")
        // "n:1 mse_avg:7.33 … psnr_avg:39.48 psnr_y:40.81 …" and "n:1 Y:0.986129 U:… All:0.982816 (17.648792)"
        func parse(_ path: String) throws -> [[String: Double]] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
                var fields: [String: Double] = [:]
                for word in line.split(separator: " ") {
                    let pair = word.split(separator: ":")
                    if pair.count == 2, let value = Double(pair[1]) { fields[String(pair[0])] = value }
                }
                return fields
            }
        }
        return (try parse(psnrFile), try parse(ssimFile))
    }

    /// The CSV's rows as name → text.
    static func readCSV(_ path: String) throws -> (header: String, rows: [[String: String]]) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let names = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) ?? []
        let rows = lines.dropFirst().map { line in
            Dictionary(uniqueKeysWithValues: zip(names, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
        }
        return (lines.first ?? "", rows)
    }

    static func frameCount(_ path: String) throws -> Int {
        let r = try runTool("ffprobe", ["-v", "error", "-select_streams", "v", "-count_frames", "-show_entries",
                                        "stream=nb_read_frames", "-of", "csv=p=0", path])
        return Int(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    static func scan(_ a: String, _ b: String, csv: String) throws -> ProcessResult {
        try runProcess(Fixtures.binary, ["--no-config", "--scan", a, b, "--compare-metrics-out", csv], timeout: 120)
    }

    @Test(arguments: Rendition.allCases)
    func theCSVEqualsFFmpegsStatsFilesFrameByFrame(_ rendition: Rendition) throws {
        let reference = try Self.reference()
        let other = try rendition.make(from: reference)
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csvPath = folder.appendingPathComponent("metrics.csv").path
        let result = try Self.scan(reference, other, csv: csvPath)
        #expect(result.status == 0, "\(result.stderr)")
        let (header, rows) = try Self.readCSV(csvPath)
        #expect(header == "frame,time,psnr_y,psnr_u,psnr_v,psnr_avg,ssim_y,ssim_u,ssim_v,ssim_all,size_a,size_b,type_a,type_b")
        // One row per frame of the reference, numbered from 0, at its times (25 fps).
        #expect(rows.count == (try Self.frameCount(reference)))
        for (i, row) in rows.enumerated() {
            #expect(row["frame"] == String(i))
            #expect(abs((Double(row["time"] ?? "") ?? -1) - Double(i) / 25) < 0.0005, "row \(i): \(row)")
        }
        let (psnr, ssim) = try Self.ffmpegStats(reference, other, scaleTo: rendition == .smallerSize ? "320:180" : nil, in: folder)
        // FFmpeg counts the frames it measured: a reference frame with no
        // frame of the other side yet (it starts later) is not among them.
        let measured = rows.filter { $0["psnr_y"] != "" }
        #expect(measured.count >= rows.count - 1)
        #expect(measured.count == rows.filter { $0["ssim_all"] != "" }.count)
        // After the reference's last frame FFmpeg goes on at the other side's
        // later frames (30 fps, or VP9's later start); those are not rows.
        if rendition == .otherEncoder || rendition == .smallerSize {
            #expect(psnr.count == measured.count && ssim.count == measured.count)
        } else {
            #expect(psnr.count >= measured.count && psnr.count <= measured.count + 2, "\(psnr.count) vs \(measured.count)")
        }
        var lowest = Double.infinity
        for (i, row) in measured.enumerated() where i < psnr.count && i < ssim.count {
            // The stats file prints PSNR to 0.01 dB (from the double the
            // metadata rounds to six decimals) and SSIM to six decimals.
            for c in ["y", "u", "v", "avg"] {
                let ours = Double(row["psnr_\(c)"] ?? "") ?? .nan, theirs = psnr[i]["psnr_\(c)"] ?? .nan
                #expect(abs(ours - theirs) <= 0.00501, "frame \(row["frame"] ?? "?") psnr_\(c): \(ours) vs FFmpeg's \(theirs)")
            }
            for (c, key) in [("y", "Y"), ("u", "U"), ("v", "V"), ("all", "All")] {
                let ours = Double(row["ssim_\(c)"] ?? "") ?? .nan, theirs = ssim[i][key] ?? .nan
                #expect(abs(ours - theirs) <= 1.5e-6, "frame \(row["frame"] ?? "?") ssim_\(c): \(ours) vs FFmpeg's \(theirs)")
            }
            lowest = min(lowest, Double(row["ssim_all"] ?? "") ?? .infinity)
        }
        // A real difference was measured, not a copy.
        #expect(lowest < 0.99)
        // The summary: mean, minimum, the worst frame's time.
        #expect(result.stdout.contains("SSIM (all): mean "))
        #expect(result.stdout.contains(String(format: "min %.6f at frame", lowest)))
        #expect(result.stdout.contains("Worst frame: "))
        if rendition == .smallerSize {
            let said = result.stderr.components(separatedBy: "is scaled to 320x180").count - 1
            #expect(said == 1, "\(result.stderr)")
        }
        if rendition == .otherRate {
            #expect(result.stderr.contains("25 fps") && result.stderr.contains("30 fps"), "\(result.stderr)")
        }
    }

    @Test func aFileAgainstItselfIsIdentical() throws {
        let reference = try Self.reference()
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csvPath = folder.appendingPathComponent("same.csv").path
        let result = try Self.scan(reference, reference, csv: csvPath)
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try Self.readCSV(csvPath).rows
        #expect(rows.count == 75)
        #expect(rows.allSatisfy { $0["psnr_avg"] == "inf" && $0["ssim_all"] == "1.000000" })
    }

    @Test func aSideThatEndsEarlyIsSaidOnceAndTheReferenceMeasuredToItsEnd() throws {
        let reference = try Self.reference()
        let short = try VideoMedia.clip("metrics-short.mp4", ["-i", reference, "-t", "1.2", "-an", "-c:v", "libx264", "-crf", "30"])
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csvPath = folder.appendingPathComponent("short.csv").path
        let result = try Self.scan(reference, short, csv: csvPath)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "ends at").count - 1 == 1, "\(result.stderr)")
        let rows = try Self.readCSV(csvPath).rows
        #expect(rows.count == 75)
        #expect(rows.allSatisfy { $0["ssim_all"] != "" })
        // Past its end the short side's last frame stands: the picture moves on, the values fall.
        let early = Double(rows[10]["ssim_all"] ?? "") ?? 0, late = Double(rows[70]["ssim_all"] ?? "") ?? 1
        #expect(late < early)
    }

    @Test func aScanThatCannotStartExitsOneNamingTheFile() throws {
        let reference = try Self.reference()
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csvPath = folder.appendingPathComponent("out.csv").path
        let missing = folder.appendingPathComponent("missing.mp4").path
        var result = try Self.scan(reference, missing, csv: csvPath)
        #expect(result.status == 1)
        #expect(result.stderr.contains("missing.mp4: No such file or directory"), "\(result.stderr)")

        let tone = try VideoMedia.clip("metrics-tone.m4a", ["-f", "lavfi", "-i", "sine=duration=1", "-c:a", "aac"])
        result = try Self.scan(tone, reference, csv: csvPath)
        #expect(result.status == 1)
        #expect(result.stderr.contains("metrics-tone.m4a: no video stream"), "\(result.stderr)")

        let junk = folder.appendingPathComponent("junk.mp4")
        try Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: junk)
        result = try Self.scan(reference, junk.path, csv: csvPath)
        #expect(result.status == 1)
        #expect(result.stderr.contains("junk.mp4: not a playable media file"), "\(result.stderr)")

        result = try Self.scan(reference, reference, csv: folder.appendingPathComponent("no/such/folder.csv").path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write") && result.stderr.contains("folder.csv"), "\(result.stderr)")
        for r in [result] { #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)") }

        // Without the CSV or a second file there is nothing to scan: a usage error.
        result = try runProcess(Fixtures.binary, ["--no-config", "--scan", reference, reference])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--compare-metrics-out"))
    }
}

extension MetricsScanTests {
    /// Each side's frames as ffprobe's -show_frames reports them: picture type and packet size, in order.
    static func probeFrames(_ path: String) throws -> [(type: String, size: String)] {
        let r = try runTool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pict_type,pkt_size",
                                        "-of", "csv=p=0", path])
        return r.stdout.split(separator: "\n").compactMap { line in
            // ffprobe writes the fields in its own order: find each by its kind.
            let fields = line.split(separator: ",").map(String.init)
            guard let type = fields.first(where: { Int($0) == nil }), let size = fields.first(where: { Int($0) != nil }) else { return nil }
            return (type, size)
        }
    }

    /// A known GOP (x264 -g 12 -bf 2, against -g 25 without B-frames): the
    /// CSV's `type_a`/`type_b` are the I/P/B pattern ffprobe reports and
    /// `size_a`/`size_b` its pkt_size, frame for frame.
    @Test func theCSVHasEachFramesCodedSizeAndPictureType() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2"]
        let a = try VideoMedia.clip("gop-a.mp4", source + ["-c:v", "libx264", "-g", "12", "-bf", "2", "-sc_threshold", "0",
                                                           "-crf", "20", "-pix_fmt", "yuv420p"])
        let b = try VideoMedia.clip("gop-b.mp4", source + ["-c:v", "libx264", "-g", "25", "-bf", "0", "-crf", "30",
                                                           "-pix_fmt", "yuv420p"])
        let csvPath = folder.appendingPathComponent("metrics.csv").path
        let result = try Self.scan(a, b, csv: csvPath)
        #expect(result.status == 0, "\(result.stderr)")
        let (_, rows) = try Self.readCSV(csvPath)
        let (probeA, probeB) = (try Self.probeFrames(a), try Self.probeFrames(b))
        #expect(rows.count == 50 && probeA.count == 50 && probeB.count == 50)
        // The GOP made: an I frame every 12, B-frames between the P-frames.
        #expect(probeA.indices.filter { probeA[$0].type == "I" } == [0, 12, 24, 36, 48] && probeA.contains { $0.type == "B" },
                "\(probeA.map(\.type).joined())")
        for (i, row) in rows.enumerated() where i < probeA.count && i < probeB.count {
            #expect(row["type_a"] == probeA[i].type && row["size_a"] == probeA[i].size, "row \(i): \(row) against \(probeA[i])")
            #expect(row["type_b"] == probeB[i].type && row["size_b"] == probeB[i].size, "row \(i): \(row) against \(probeB[i])")
        }
        print("coded types, A: \(rows.map { $0["type_a"] ?? "" }.joined()), B: \(rows.map { $0["type_b"] ?? "" }.joined())")
    }
}
