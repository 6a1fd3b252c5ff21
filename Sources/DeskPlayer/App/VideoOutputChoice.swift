// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// `--vo` (mpv's names for the two ways DeskPlayer draws).
enum VideoOutputChoice: String, ExpressibleByArgument {
    case auto
    case gpu
    case x11
}
