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

    /// The host time `seconds` from now; a length from outside (an OSD
    /// duration of 1e19 s) saturates at the end of time instead of overflowing.
    package static func after(seconds: Double) -> UInt64 {
        let (sum, overflow) = now().addingReportingOverflow(UInt64(saturating: seconds * 1e9))
        return overflow ? UInt64.max : sum
    }
}
