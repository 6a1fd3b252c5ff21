// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Monotonic host time in nanoseconds (the one time base for the clock, the
/// audio callback and the presenter).
package enum HostTime {
    package static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}
