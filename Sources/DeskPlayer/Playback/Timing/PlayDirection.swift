// SPDX-License-Identifier: GPL-3.0-or-later

/// Which way time runs while a player plays (mpv's `play-dir`): backward
/// shows the frames before the one on screen, one after another, at the
/// playback speed (`Player+Backward`).
package enum PlayDirection: String, Sendable, CaseIterable {
    case forward
    case backward
}
