// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control

/// `--compare-align auto|audio|video|no`: whether a comparison finds each
/// rendition's time shift when it starts, and by what (default `no`).
enum CompareAlignOption: String, CaseIterable, ExpressibleByArgument {
    case auto
    case audio
    case video
    case no

    /// What `compare-align` runs with; nil for `no`.
    var method: Command.CompareAlignMethod? { Command.CompareAlignMethod(rawValue: rawValue) }
}
