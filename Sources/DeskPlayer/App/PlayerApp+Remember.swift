// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Control
import UI

/// What one run leaves the next (`RememberedState`): the volume and mute
/// of the focused tile and the main window's size and place, read at the
/// start where the command line says nothing, written at the end;
/// `--no-remember` does neither.
extension PlayerApp {
    /// The last run's state (nothing with --no-remember); a file not to
    /// trust is said in one line and ignored.
    func loadRemembered() -> RememberedState {
        guard !options.noRemember else { return RememberedState() }
        let (state, problem) = RememberedState.load()
        if let problem { PlayerApp.printError(problem) }
        return state
    }

    /// The last run's window when the command line gives no --geometry,
    /// and it still lies (mostly) on a screen there is now; its size alone
    /// (centred) when it does not.
    static func rememberedFrame(_ state: RememberedState, _ options: DeskPlayerCommand) -> RememberedState.WindowFrame? {
        guard options.geometry == nil, var frame = state.window else { return nil }
        let onScreen = (0..<max(SDL_GetNumVideoDisplays(), 0)).contains { index in
            var bounds = SDL_Rect()
            guard SDL_GetDisplayBounds(index, &bounds) == 0 else { return false }
            let w = min(frame.x + frame.width, Int(bounds.x + bounds.w)) - max(frame.x, Int(bounds.x))
            let h = min(frame.y + frame.height, Int(bounds.y + bounds.h)) - max(frame.y, Int(bounds.y))
            return w >= min(frame.width, 200) / 2 && h >= min(frame.height, 200) / 2
        }
        if !onScreen {
            frame.x = Int(DP_SDL_WINDOWPOS_CENTERED)
            frame.y = Int(DP_SDL_WINDOWPOS_CENTERED)
        }
        return frame
    }

    /// Writes what this run ends with: the focused tile's volume and mute,
    /// and the window's frame unless it is fullscreen or minimized (the
    /// last one in a window stays). What this run has no value for stays as it was.
    func saveRemembered(_ window: MainWindow) {
        guard !options.noRemember else { return }
        var state = RememberedState.load().state
        if let player = tiles.focused?.player {
            state.volume = Int(saturating: (Double(player.volume) * 100).rounded())
            state.mute = player.isMuted
        }
        if !window.isFullscreen && !window.isMinimized {
            let f = window.frame
            state.window = RememberedState.WindowFrame(width: f.width, height: f.height, x: f.x, y: f.y)
        }
        do { try state.save() } catch { PlayerApp.printError("cannot remember the volume and window: \(error)") }
    }
}
