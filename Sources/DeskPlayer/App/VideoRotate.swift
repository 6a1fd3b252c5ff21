// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// mpv's `--video-rotate`: degrees clockwise (0, 90, 180, 270) added to
/// the file's rotation, or `no`.
enum VideoRotate: ExpressibleByArgument, Equatable {
    case degrees(Int)
    case no

    init?(argument: String) {
        if argument == "no" { self = .no; return }
        guard let n = Int(argument), [0, 90, 180, 270].contains(n) else { return nil }
        self = .degrees(n)
    }

    /// As `VideoFilterSettings.extraRotation` takes it.
    var extraRotation: Int? {
        if case .degrees(let n) = self { return n }
        return nil
    }
}

/// `video-rotate` while a file plays: 0, 90, 180, 270 or no, as the option.
/// A file's turn is settled when it opens, so a change opens the file again
/// where it is (paused or playing as it was); the files after it keep the option's.
extension PropertyTable {
    static let rotateProperties: [Property] = [
        Property("video-rotate", .choice(["0", "90", "180", "270", "no"]), get: { t throws(CommandError) in
            .string(try t.item().extraRotation.map(String.init) ?? "no")
        }, set: { t, v throws(CommandError) in
            let word = if case .number(let n) = v, n == n.rounded(), abs(n) < 1e4 { String(Int(n)) } else { try PropertyValue.word(v) }
            guard let rotate = VideoRotate(argument: word) else { throw .invalidParameter }
            let tile = try t.requireTile(), item = try t.item()
            guard rotate.extraRotation != item.extraRotation else { return }
            guard let turned = item.rotated(rotate.extraRotation, from: tile.player.currentTime) else { throw .propertyUnavailable }
            tile.playlist.replaceCurrentItem(with: turned)
        }, osd: { t in (try? t.item()).map { "Rotate: " + ($0.extraRotation.map { "\($0)°" } ?? "as stored") } }),
    ]
}
