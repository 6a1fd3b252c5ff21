// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// Lower layers' value types read from the command line as they are.
extension ContentMode: ExpressibleByArgument {}
extension PlayDirection: ExpressibleByArgument {}
extension ScopeKind: ExpressibleByArgument {}
extension DeinterlaceMode: ExpressibleByArgument {}
extension HardwareDecoding: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public static var allValueStrings: [String] { names }
}
extension ToneMapping: ExpressibleByArgument {}
extension RampCurve: ExpressibleByArgument {}
extension TileLayout: ExpressibleByArgument {}
extension CompareState.Mode: ExpressibleByArgument {}
extension CompareState.DiffVariant: ExpressibleByArgument {}
extension CompareState.WipeOrientation: ExpressibleByArgument {}
