// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Output
import UI

/// The Picture in Picture windows: each shows one tile's player, which
/// plays on untouched while it moves between the main window and its mini
/// window (AVPictureInPictureController's model, one controller per window).
/// Main thread only.
final class PiPManager {
    private struct Entry {
        let controller: PiPController
        let window: PiPWindow
        let tile: Tile
    }

    private var entries: [Entry] = []
    let limit: Int
    private let tiles: TileSet
    /// Where the mini windows' on-screen text is drawn with.
    private let text: TextRenderer
    /// Each start/stop/failure, for the socket's events and the error line.
    var onEvent: (PiPController.Event) -> Void = { _ in }
    /// The main window, raised when a player comes back to it.
    weak var screen: (any PlayerScreen)?

    init(limit: Int, tiles: TileSet, text: TextRenderer) {
        self.limit = limit
        self.tiles = tiles
        self.text = text
    }

    /// The tile whose mini window opened last.
    var lastOpened: Tile? { entries.last?.tile }
    var isEmpty: Bool { entries.isEmpty }

    /// Moves `tile`'s player into a new mini window; it keeps playing, not
    /// reopened, not reseeked. Fails with the reason said when the limit is
    /// reached or the window cannot open.
    func start(_ tile: Tile) throws(CommandError) {
        guard !tile.isInPiP else { return }
        guard entries.count < limit else {
            screen?.showMessage(String(format: trn("At most %d Picture in Picture window", "At most %d Picture in Picture windows", limit), locale: .display, limit), seconds: 2)
            throw .commandFailed
        }
        let controller = PiPController(player: tile.player)
        var opened: PiPWindow?
        controller.start {
            let info = tile.player.currentItem?.info
            let aspect = info.map { Double($0.displayWidth) / Double(max($0.displayHeight, 1)) } ?? 16.0 / 9
            opened = try PiPWindow(player: tile.player, aspect: info?.hasVideo == true ? aspect : 16.0 / 9,
                                   title: "\(DisplayText.shortName(tile.player.currentItem?.name ?? "")) - PiP")
        }
        report(controller)
        guard let window = opened else { throw .commandFailed }
        tile.view.isDetached = true
        tile.isInPiP = true
        entries.append(Entry(controller: controller, window: window, tile: tile))
        tiles.updateAudibility()
    }

    /// The player goes back into the main window, in the focused tile's place
    /// (the player there stops and frees what it held).
    func restore(_ tile: Tile) {
        guard remove(tile, restore: true) else { return }
        if let focused = tiles.focused, focused !== tile { tiles.replace(focused, with: tile) }
        screen?.raise()
        tiles.updateAudibility()
    }

    /// The mini window closes and its player stops.
    func close(_ tile: Tile) {
        guard remove(tile, restore: false) else { return }
        tiles.close(tile)
    }

    /// Every mini window goes (at exit), their players with their tiles.
    func removeAll() {
        entries.removeAll()
    }

    /// Closes the mini window (before anything else touches the main
    /// window: X must not be asked about a window being destroyed). False
    /// when `tile` has none.
    private func remove(_ tile: Tile, restore: Bool) -> Bool {
        guard let index = entries.firstIndex(where: { $0.tile === tile }) else { return false }
        let controller = entries[index].controller
        controller.stop(restore: restore) { entries.remove(at: index) }
        tile.view.isDetached = false
        tile.isInPiP = false
        report(controller)
        return true
    }

    /// Keeps each mini window above a fullscreen main window and draws it.
    func refresh(at now: UInt64, fullscreenMain: Window?) {
        for entry in entries {
            entry.window.stayAbove(fullscreen: fullscreenMain)
            entry.window.measureView()?.apply()
            entry.window.refresh(at: now, text: text)
        }
    }

    /// The tile of the mini window with this SDL window id, and what its
    /// event asks for.
    func handle(_ event: OtherWindowEvent) -> (Tile, PiPWindow.Action)? {
        guard let entry = entries.first(where: { $0.window.id == event.windowID }),
              let action = entry.window.handle(event) else { return nil }
        return (entry.tile, action)
    }

    private func report(_ controller: PiPController) {
        for event in controller.takeEvents() { onEvent(event) }
    }
}
