// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
// The tests' own access to Playback's internals (ItemPipeline, an item's
// load and wait), which no layer above needs: @testable, so debug builds
// only. Release builds (make build, make fuzz) compile this target too,
// empty.
#if DEBUG
import Media
@testable import Playback
import TestSupport

/// Opens `location` the way a tile does (a `PlayerItem` loading on its own
/// thread) and waits for it: the item and its pipeline. `prepare` runs
/// before loading (passes, an A-B loop); pictures come at `size` (nil: the
/// video's own), small by default to keep conversion cheap. The one helper
/// the suites that read a pipeline directly open their items with.
package func openItem(_ location: String, preferences: ItemPreferences = ItemPreferences(), size: (Int, Int)? = (64, 36),
              timeout: Double = 10, prepare: (PlayerItem) -> Void = { _ in }) throws -> (PlayerItem, ItemPipeline) {
    let item = PlayerItem(location, preferences: preferences)
    prepare(item)
    item.load()
    let status = item.waitUntilLoaded(timeout: timeout)
    guard status == .readyToPlay, let pipeline = item.pipeline as? ItemPipeline else {
        throw MediaError("\(location) did not open: \(status)")
    }
    if let size { pipeline.setDisplaySize(width: size.0, height: size.1) }
    return (item, pipeline)
}
#endif
