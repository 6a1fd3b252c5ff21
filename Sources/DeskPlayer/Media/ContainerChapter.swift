// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// One entry of a container's chapter table (AVChapter) as the file has
/// it: nothing checked, nothing sorted.
package struct ContainerChapter: Sendable, Equatable {
    /// In container time; nil when the file gives no usable time.
    package let start: MediaTime?
    let end: MediaTime?
    /// The chapter's title tag ("" without one, as mpv lists it).
    package let title: String

    /// A timestamp in a time base, exactly; nil for no timestamp, a time
    /// base that is no time base, or a value no time can hold (a damaged table).
    static func time(_ value: Int64, _ timeBase: AVRational) -> MediaTime? {
        ContainerMath.exactTime(value, in: timeBase)
    }
}
