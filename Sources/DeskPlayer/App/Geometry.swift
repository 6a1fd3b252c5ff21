// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// mpv's `--geometry`: WxH, optionally +X+Y.
struct Geometry: ExpressibleByArgument, Equatable {
    var width: Int
    var height: Int
    var x: Int?
    var y: Int?

    init?(argument: String) {
        let parts = argument.split(separator: "+", omittingEmptySubsequences: false)
        let size = parts[0].split(separator: "x")
        guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0, w <= 16384, h <= 16384
        else { return nil }
        width = w
        height = h
        if parts.count == 3 {
            guard let px = Int(parts[1]), let py = Int(parts[2]) else { return nil }
            x = px
            y = py
        } else if parts.count != 1 {
            return nil
        }
    }
}
