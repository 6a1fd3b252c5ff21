// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// mpv's `--ab-loop-a`/`--ab-loop-b`: seconds (0 or more), or `no`.
struct LoopPoint: ExpressibleByArgument, Equatable {
    var seconds: Double?

    init?(argument: String) {
        if argument == "no" { seconds = nil; return }
        guard let value = Double(argument), value.isFinite, value >= 0 else { return nil }
        seconds = value
    }

    var time: MediaTime? { seconds.map { MediaTime(seconds: $0) } }
}
