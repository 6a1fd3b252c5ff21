// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2

/// mpv's cursor-autohide: the mouse pointer hides after a second without
/// motion over video, and shows again as soon as it moves. SDL's own
/// cursor state is the truth (`isVisible` asks it). Main thread only.
struct PointerAutohide {
    static let delay: UInt64 = 1_000_000_000
    private var lastMotion: UInt64 = 0

    var isVisible: Bool { SDL_ShowCursor(SDL_QUERY) == SDL_ENABLE }

    /// The pointer moved: it shows.
    mutating func moved(at now: UInt64) {
        lastMotion = now
        show(true)
    }

    /// Hides the pointer once it has rested `delay` over video; shows it
    /// where it is over anything else (controls, a list, no picture).
    func update(at now: UInt64, overVideo: Bool) {
        let hide = overVideo && now &- lastMotion >= PointerAutohide.delay
        if hide == isVisible { show(!hide) }
    }

    private func show(_ visible: Bool) {
        SDL_ShowCursor(visible ? SDL_ENABLE : SDL_DISABLE)
    }
}
