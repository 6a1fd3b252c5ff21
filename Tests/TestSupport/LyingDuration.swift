// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Matroska files whose header claims a duration far longer than the
/// frames they hold (as a cut-off recording or a hostile file does): made
/// by ffmpeg, then the Segment Info's Duration rewritten in place. FFmpeg
/// reads the claim as the file's duration; its frames end where ffmpeg's
/// generator stopped.
package enum LyingDuration {
    /// A Matroska file of `seconds` of `filter`'s output (lavfi; coded with
    /// `codec`) whose header says it lasts `claimed` seconds.
    package static func matroska(_ name: String, in folder: URL, filter: String, codec: [String],
                                 claimed: Double) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let r = try runTool("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", filter] + codec + [path])
        guard r.status == 0 else { throw MediaError("ffmpeg could not make \(name): \(r.stderr)") }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // The Duration element: ID 0x4489, size 8 (0x88), a big-endian double in milliseconds.
        guard let at = (0..<(bytes.count - 11)).first(where: { bytes[$0] == 0x44 && bytes[$0 + 1] == 0x89 && bytes[$0 + 2] == 0x88 })
        else { throw MediaError("\(name): ffmpeg wrote no 8-byte Duration element") }
        withUnsafeBytes(of: (claimed * 1000).bitPattern.bigEndian) { for (i, b) in $0.enumerated() { bytes[at + 3 + i] = b } }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
