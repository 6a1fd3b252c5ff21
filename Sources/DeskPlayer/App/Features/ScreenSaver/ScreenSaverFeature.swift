// SPDX-License-Identifier: GPL-3.0-or-later

/// The screen saver is held off only while a video plays in sight (mpv's stop-screensaver).
final class ScreenSaverFeature: AppFeature {
    init(_ core: AppCore) {}

    func announce(_ core: AppCore, at now: UInt64) {
        core.screen.holdsOffScreenSaver = core.tiles.playsVideoInSight(mainWindowVisible: !core.screen.isMinimized)
    }

    func finish(_ core: AppCore) { core.screen.holdsOffScreenSaver = false }
}
