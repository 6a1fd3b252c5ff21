// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// mpv's --idle.
enum IdleMode: String, ExpressibleByArgument, CaseIterable {
    case no
    case yes
    case once
}
