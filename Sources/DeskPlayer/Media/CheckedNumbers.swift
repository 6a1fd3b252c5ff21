// SPDX-License-Identifier: GPL-3.0-or-later
/// Numbers from outside (a socket, D-Bus, a file's fields, the command line)
/// become integers only through these: Swift's `Int64(someDouble)` traps on
/// NaN, infinity and anything out of range, and one hostile request must not
/// end the process.
extension FixedWidthInteger {
    /// The integer nearest `value` that this type holds: out of range gives its
    /// limit, NaN gives zero. Rounds toward zero, as `Int(_:)` does.
    package init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value <= Double(Self.min) {
            self = Self.min
        } else if value >= Double(Self.max) {
            // Double(Self.max) rounds up to 2^63 for Int64: anything at or past it is max.
            self = Self.max
        } else {
            self = Self(value)
        }
    }

    /// `value` when it is a whole number this type holds exactly; nil otherwise
    /// (NaN, infinite, fractional or out of range), for values that must be refused.
    package init?(wholeNumber value: Double) {
        guard let exact = Self(exactly: value) else { return nil }
        self = exact
    }
}
