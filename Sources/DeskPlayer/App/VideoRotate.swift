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
