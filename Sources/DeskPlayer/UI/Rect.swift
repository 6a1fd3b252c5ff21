// SPDX-License-Identifier: GPL-3.0-or-later
/// A rectangle in window pixels.
package struct Rect: Equatable, Sendable {
    package var x: Int, y: Int, width: Int, height: Int

    package func contains(x px: Int, y py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
}
