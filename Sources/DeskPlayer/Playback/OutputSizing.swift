// SPDX-License-Identifier: GPL-3.0-or-later
/// The output's picture size for a video, a setting of the view that
/// shows it (its area, content mode and zoom): given the video's display
/// size, the size its pictures are converted to; nil leaves it as it is.
/// Set when the layout changes and kept by the player, so an item that
/// opens later decodes at its size from its first picture.
package typealias OutputSizing = @Sendable (_ videoWidth: Int, _ videoHeight: Int) -> (width: Int, height: Int)?
