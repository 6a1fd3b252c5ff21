// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// Things a player reports, drained by its owner with `takeEvents()`.
package enum PlayerEvent: Sendable {
    case readyToPlay
    /// A seek was asked for (mpv's `seek` event).
    case seekStarted
    /// The first picture after a load or a seek is up: playback goes on
    /// from there (mpv's `playback-restart`).
    case playbackRestarted
    case failed(MediaError)
    case didPlayToEnd
    case warning(String)
    /// The finished item (with its statistics) gave way, gaplessly, to the
    /// upcoming one, which is now `currentItem`.
    case advanced(from: PlayerItem, stats: PlayerStats)
    /// A queued item failed to open (QueuePlayer reports it and skips it).
    case itemFailed(PlayerItem, MediaError)
}

/// Counters for `--stats-json` and the benchmarks: the frame counters come
/// from the player's presenter, the rest from the player.
package struct PlayerStats: Sendable {
    package var framesPresented = 0
    package var framesDropped = 0
    /// Shown while nobody could see them (a minimized or covered window): timed, never converted.
    package var framesUnseen = 0
    /// Left out on purpose by schedule (faster than the display shows), not late.
    package var framesSkipped = 0
    package var audioUnderruns = 0
    /// Largest |audio clock − frame time| seen when a frame was presented.
    package var maxAVOffsetMs = 0.0
    /// Mean |audio clock − frame time| over the frames presented while the audio ran.
    package var meanAVOffsetMs = 0.0
    package var timeToFirstFrameMs: Double?
    package var loopCount = 0
    /// Seconds spent waiting for data while meant to play (a stalled stream).
    package var waitingSeconds = 0.0

    package init() {}
}
