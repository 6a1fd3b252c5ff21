// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Media
import UI

/// Picture in Picture: the mini windows (made here as the window opens,
/// with `--pip-auto`'s minimizing and `--pip`'s first window), their
/// events to the socket, what is done in them as commands, and their
/// drawing each turn after the main window.
final class PiPFeature: AppFeature {
    private let window: MainWindow

    /// Nil without an SDL window: the mini windows stay above it.
    init?(_ core: AppCore) {
        guard let window = core.window else { return nil }
        self.window = window
        let controller = core.controller
        let pips = PiPManager(limit: core.options.maxPip, tiles: core.tiles, text: window.text)
        pips.screen = window
        // Weak: the window's handler holds the PiP manager and the manager's
        // handler the window, and a cycle kept both (and the tiles, players
        // and SDL objects behind them) alive past the app (LeakSanitizer).
        pips.onEvent = { [weak core, weak window] event in
            guard let core, let window else { return }
            Self.report(event, core, window)
        }
        controller.pips = pips
        if core.options.pipAuto { controller.autoPiP = AutoPiP(controller: controller) }
        window.onOtherWindowEvent = { [weak controller, weak pips] event in
            guard let controller, let (tile, action) = pips?.handle(event) else { return }
            Self.handle(action, fromPiPOf: tile, controller)
        }
        if core.options.pip { controller.runFromUser { () throws(CommandError) in try controller.apply(.pipStart(0), from: .commandLine) } }
    }

    /// `pip`: whether the tile plays in a mini window; set, it moves there or back.
    static var properties: [Property] {
        [
            Property("pip", .flag, changes: .polled, get: { t throws(CommandError) in .bool(try t.requireTile().isInPiP) },
                     set: { t, v throws(CommandError) in
                         let tile = try t.requireTile()
                         if try PropertyValue.flag(v) {
                             try t.controller.apply(.pipStart(t.controller.tiles.index(of: tile)), from: t.source)
                         } else if tile.isInPiP {
                             t.controller.pips?.restore(tile)
                         }
                     }),
        ]
    }

    func update(_ core: AppCore, at now: UInt64) {
        core.controller.pips?.refresh(at: now, fullscreenMain: window.isFullscreen ? window.window : nil)
    }

    /// Looked at often while one is open: its window's own events and timers are not the loop's.
    func nextDeadline(_ core: AppCore, at now: UInt64) -> Double? { isAtRest(core) ? nil : lookInterval }

    func isAtRest(_ core: AppCore) -> Bool { core.controller.pips?.isEmpty ?? true }

    func finish(_ core: AppCore) { core.controller.pips?.removeAll() }

    /// A mini window opened, closed or could not open: the socket's clients
    /// hear it; a failure is one line on stderr and in the window.
    private static func report(_ event: PiPController.Event, _ core: AppCore, _ window: MainWindow) {
        switch event {
        case .didStart: core.broadcast("pip-started")
        case .didStop: core.broadcast("pip-stopped")
        case .failedToStart(let reason):
            core.broadcast("pip-failed", [("error", .string(reason))])
            PlayerApp.printError("Picture in Picture: \(reason)")
            window.showMessage(String(format: tr("Picture in Picture: %@"), "\(reason)"), seconds: 3)
        case .willStart, .willStop, .restoreUserInterface:
            break
        }
    }

    /// What the user did in a Picture in Picture window: its keys through
    /// the binding table (its own section first), its buttons as commands,
    /// all for the player it shows.
    private static func handle(_ action: PiPWindow.Action, fromPiPOf tile: Tile, _ controller: CommandController) {
        controller.runFromUser { () throws(CommandError) in
            switch action {
            case .key(let name): try controller.handleKey(name, section: .pip, tile: tile, from: .pip)
            case .togglePause: try controller.apply(.cycle(property: "pause", down: false), to: .tile(tile), from: .pip)
            case .restore: try controller.apply(.pipRestore(nil), to: .tile(tile), from: .pip)
            case .close: try controller.apply(.pipClose(nil), to: .tile(tile), from: .pip)
            case .play(let path): try controller.apply(.loadfile(path, .replace), to: .tile(tile), from: .pip)
            }
        }
    }
}
