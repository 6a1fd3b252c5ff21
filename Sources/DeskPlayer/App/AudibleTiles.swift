// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

enum AudibleTiles: String, ExpressibleByArgument {
    case focused
    case all
}
