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
