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
