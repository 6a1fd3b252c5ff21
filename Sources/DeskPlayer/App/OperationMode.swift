// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// mpv's --player-operation-mode.
enum OperationMode: String, ExpressibleByArgument {
    case cplayer
    case pseudoGUI = "pseudo-gui"
}
