// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// `--audio-trim START,END`: samples, each 0 to 1,000,000.
extension SampleTrim: ExpressibleByArgument {
    package init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let start = parts[0], let end = parts[1],
              (0...1_000_000).contains(start), (0...1_000_000).contains(end) else { return nil }
        self.init(start: start, end: end)
    }
}
