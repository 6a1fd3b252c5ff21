// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// mpv's --sub-auto values DeskPlayer has.
enum SubtitleAutoload: String, ExpressibleByArgument {
    case exact
    case no
}
