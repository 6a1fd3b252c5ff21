// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// `--loop N` (plays in all, N ≥ 1) or `--loop inf`.
enum LoopCount: ExpressibleByArgument, Equatable {
    case times(Int)
    case forever

    init?(argument: String) {
        if argument == "inf" || argument == "yes" { self = .forever; return }
        guard let n = Int(argument), n >= 1 else { return nil }
        self = .times(n)
    }

    var playCount: Int? {
        if case .times(let n) = self { return n }
        return nil
    }
}
