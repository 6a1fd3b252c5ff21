// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// mpv's yes/no option values.
enum YesNo: String, ExpressibleByArgument {
    case yes
    case no
}
