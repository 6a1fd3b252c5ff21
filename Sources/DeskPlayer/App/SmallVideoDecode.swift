// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// `--small-video-decode`.
enum SmallVideoDecode: String, ExpressibleByArgument {
    case fast
    case full
}
