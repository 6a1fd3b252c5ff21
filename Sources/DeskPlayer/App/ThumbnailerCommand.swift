// SPDX-License-Identifier: GPL-3.0-or-later
import Analysis
import Foundation
import Media
import Playback

/// `deskplayer-thumbnailer -s SIZE INPUT OUTPUT`: the thumbnailer the
/// desktop runs for video and audio files (assets/deskplayer.thumbnailer:
/// `Exec=deskplayer-thumbnailer -s %s %u %o`). It is the deskplayer
/// binary under another name (a link installed beside it), so the
/// package ships one program: `Main` comes here when it is called by this
/// name, before any option parsing, configuration file or window. The
/// picture is `FileThumbnail`'s (upright, tone mapped, cover art for
/// audio), at most SIZE on its longer side, written as a PNG with the
/// thumbnail standard's chunks. Exit status 0 when written, 1 when the
/// file cannot be pictured, 2 for a bad command line.
package enum ThumbnailerCommand {
    package static let programName = "deskplayer-thumbnailer"
    /// The largest SIZE asked for: past xx-large (1024), more than a file manager shows.
    static let largestSize = 2048

    /// Whether `argument0` (the program's name as it was run) names the thumbnailer.
    package static func isCalled(_ argument0: String?) -> Bool {
        argument0.map { ($0 as NSString).lastPathComponent == programName } ?? false
    }

    /// Runs with `arguments` (those after the program name); returns the exit status.
    package static func run(_ arguments: [String]) -> Int32 {
        let usage = "Usage: \(programName) -s SIZE INPUT OUTPUT"
        var size: Int?, positional: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-s", "--size":
                guard let value = rest.popFirst(), let n = Int(value), (1...largestSize).contains(n) else {
                    return fail("SIZE must be a number of pixels from 1 to \(largestSize)\n" + usage, status: 2)
                }
                size = n
            case "-h", "--help":
                print(usage)
                return 0
            default:
                positional.append(argument)
            }
        }
        guard let size, positional.count == 2 else { return fail(usage, status: 2) }
        guard let input = localPath(positional[0]) else {
            return fail("\(positional[0]): only local files have thumbnails", status: 1)
        }
        let output = URL(fileURLWithPath: positional[1])
        do throws(MediaError) {
            let source = try ThumbnailStore.Source(path: input)
            let made = try FileThumbnail.make(of: source.path, maxSide: size)
            let png = try ThumbnailStore.png(made.picture, duration: made.duration, of: source,
                                             software: "DeskPlayer \(DeskPlayerCommand.version)")
            do { try AtomicFile.write(Data(png), to: output) } catch {
                return fail("cannot write \(output.path): \(error)", status: 1)
            }
            return 0
        } catch {
            return fail("\(positional[0]): \(error.message)", status: 1)
        }
    }

    /// The path of `input`: a `file://` URI (what the desktop passes for
    /// %u) decoded, or a path as it is; nil for other schemes.
    static func localPath(_ input: String) -> String? {
        if input.hasPrefix("file://") { return URL(string: input).flatMap { $0.isFileURL ? $0.path : nil } }
        if input.range(of: "^[a-zA-Z][a-zA-Z0-9+.-]*:", options: .regularExpression) != nil { return nil }
        return input
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data((programName + ": " + message + "\n").utf8))
        return status
    }
}
