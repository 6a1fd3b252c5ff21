// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// A bit rate: plain bits per second, or with k / M.
struct BitRate: ExpressibleByArgument, Equatable {
    var bitsPerSecond: Int

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        var scale = 1.0, digits = Substring(text)
        if let last = text.last, "kKmM".contains(last) {
            scale = "kK".contains(last) ? 1e3 : 1e6
            digits = text.dropLast()
        }
        guard let value = Double(digits), value >= 0, value.isFinite, value * scale < 1e12 else { return nil }
        bitsPerSecond = Int(saturating: value * scale)
    }
}
