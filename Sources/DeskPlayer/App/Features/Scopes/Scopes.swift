// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Output
import Analysis
import Playback
import Media
import Foundation

/// The `scope` property (and `--scope`, the `h` key): a histogram, waveform
/// or vectorscope of the focused tile's picture, compared or not, in a
/// panel at the window's top right. Follows focus: a scope of the file the
/// focused tile plays, at its time, live while it plays and while paused.
/// Main thread.
final class Scopes {
    private weak var window: MainWindow?
    private(set) var kind: ScopeKind = .none
    private var scope: LiveScope?

    init(window: MainWindow) { self.window = window }

    /// The time of the frame whose scope the panel drew last (nil: none yet).
    var drawnTime: Double? { window?.scopePanel?.drawnTime }

    deinit { scope?.stop() }

    func show(_ kind: ScopeKind) {
        self.kind = kind
        if kind == .none { close() } else { scope?.kind = kind }
    }

    /// Each refresh: the focused tile's file and time.
    func update(focused tile: Tile?) {
        guard kind != .none else { return }
        let item = tile?.player.currentItem
        // A composition or a sound has no one picture to take apart.
        guard let item, item.composition == nil, item.info?.hasVideo != false else {
            close()
            return
        }
        if scope?.path != item.name {
            close()
            let made = LiveScope(path: item.name, kind: kind)
            made.follow(playhead: tile?.player.currentTime.seconds ?? 0)
            made.start()
            scope = made
            window?.scopePanel = ScopePanel(scope: made, title: (item.name as NSString).lastPathComponent)
        }
        scope?.follow(playhead: tile?.player.currentTime.seconds ?? 0)
    }

    /// Stops the worker and takes the panel (and its texture) away.
    func close() {
        scope?.stop()
        scope = nil
        window?.scopePanel = nil
    }
}
