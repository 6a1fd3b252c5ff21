// SPDX-License-Identifier: GPL-3.0-or-later
import Dispatch
import Media
import Playback
import UI

/// One player in the window: its queue, its view, and what the App has
/// reported of it.
final class Tile {
    let playlist: QueuePlayer
    let view: PlayerView
    /// The queue played to its end (the tile holds its last picture).
    var ended = false
    /// The current item's statistics went into the report.
    var recorded = false
    /// The item the App last announced (title, recent files).
    var shownItem: PlayerItem?
    /// The socket's clients were told `shownItem` ended (end-file).
    var announcedEnd = false
    /// The player shows in a Picture in Picture window.
    var isInPiP = false
    var player: Player { playlist.player }

    init(_ playlist: QueuePlayer, contentMode: ContentMode) {
        self.playlist = playlist
        view = PlayerView(player: playlist.player, contentMode: contentMode)
    }
}

/// The tiles of the main window: their order, which one has the focus,
/// which are heard, which move together as a sync group, and the one way a
/// tile is torn down. Main thread only.
final class TileSet {
    private(set) var tiles: [Tile] = []
    private(set) var focusedIndex = 0
    /// Tiles that share one clock (the first member's): transport acts on all of them.
    private(set) var syncGroup: [Tile] = []
    /// Every tile is heard (`--audio all`), not only the focused one.
    var allAudible = false { didSet { updateAudibility() } }
    let mixer: Mixer
    /// The window showing the tiles; nil runs them headless (tests).
    weak var screen: (any PlayerScreen)? { didSet { showTiles() } }
    /// Called with a tile about to go, while its item is still there (statistics).
    var onRetire: (Tile) -> Void = { _ in }
    /// Called when a tile comes, goes, takes another's place or the focus
    /// (the controller marks its properties changed: `PropertyChanges`).
    var onChange: () -> Void = {}

    init(mixer: Mixer) { self.mixer = mixer }

    var focused: Tile? { tiles.indices.contains(focusedIndex) ? tiles[focusedIndex] : tiles.first }

    var isEmpty: Bool { tiles.isEmpty }

    func index(of tile: Tile) -> Int? { tiles.firstIndex { $0 === tile } }

    /// A new tile, playing; it takes the focus when `focus` says so.
    func add(_ tile: Tile, focus: Bool = false, paused: Bool = false) {
        tiles.append(tile)
        mixer.add(tile.player.audio)
        paused ? tile.player.pause() : tile.player.play()
        if focus { focusedIndex = tiles.count - 1 }
        showTiles()
        updateAudibility()
    }

    /// The tiles from here on share the first one's clock.
    func synchronize(_ members: [Tile]) {
        syncGroup = members
        onChange()
        guard let master = members.first?.player else { return }
        master.syncClock = nil
        for tile in members.dropFirst() { tile.player.syncClock = master.clock }
        for tile in members { tile.player.catchesUpWhenPaused = true }
    }

    /// A closed tile leaves its sync group, so the group's commands reach
    /// only live tiles; the first tile left leads (the closed one may have
    /// been the clock the others followed), and one tile alone is no group.
    private func leaveSyncGroup(_ tile: Tile) {
        guard syncGroup.contains(where: { $0 === tile }) else { return }
        let rest = syncGroup.filter { $0 !== tile }
        if rest.count > 1 { return synchronize(rest) }
        syncGroup = []
        for member in rest {
            member.player.syncClock = nil
            member.player.catchesUpWhenPaused = false
        }
    }

    /// The tiles a transport command on `tile` moves: its sync group, or itself.
    func group(of tile: Tile) -> [Tile] {
        syncGroup.contains { $0 === tile } ? syncGroup : [tile]
    }

    func focus(_ index: Int) {
        guard tiles.indices.contains(index), index != focusedIndex else { return }
        focusedIndex = index
        showTiles()
        updateAudibility()
    }

    func focusNext() {
        guard !tiles.isEmpty else { return }
        focus((focusedIndex + 1) % tiles.count)
    }

    /// A closed tile stops: its decoders, threads and buffers are freed.
    func close(_ tile: Tile) {
        guard let index = index(of: tile) else { return }
        tiles.remove(at: index)
        if focusedIndex > index || focusedIndex >= tiles.count { focusedIndex = max(0, focusedIndex - 1) }
        leaveSyncGroup(tile)
        tearDown(tile)
        showTiles()
        updateAudibility()
    }

    /// `tile` (back from Picture in Picture) takes `old`'s place and the
    /// focus; `old` stops.
    func replace(_ old: Tile, with tile: Tile) {
        guard old !== tile else { return }
        tiles.removeAll { $0 === tile }
        guard let index = index(of: old) else { return }
        tiles[index] = tile
        // Its zoom and pan too (a sync group's, shared).
        tile.view.zoom = old.view.zoom
        focusedIndex = index
        syncGroup = syncGroup.map { $0 === old ? tile : $0 }
        tearDown(old)
        showTiles()
        updateAudibility()
    }

    /// Every tile goes (at exit), `extra` (the background) too.
    func removeAll(and extra: [Tile] = []) {
        let all = tiles + extra
        tiles.removeAll()
        syncGroup.removeAll()
        for tile in all { tearDown(tile) }
        onChange()
    }

    /// The one teardown: statistics, out of the window and the mixer, the queue emptied.
    private func tearDown(_ tile: Tile) {
        onRetire(tile)
        mixer.remove(tile.player.audio)
        tile.playlist.removeAllItems()
        // The frame it shows holds its decoder's pictures (their pool lives while one is held).
        tile.view.resetPicture()
        // Once its threads have ended and freed what they held (they stop on their own).
        FreedMemory.releaseOnThread(after: 1)
    }

    /// Only the focused tile is heard, unless `--audio all`; a player in
    /// Picture in Picture is heard too.
    func updateAudibility() {
        // Together: the sound device hears the one fade out and the other in within one buffer.
        mixer.together {
            for (index, tile) in tiles.enumerated() {
                tile.player.isAudible = allAudible || tiles.count == 1 || index == focusedIndex || tile.isInPiP
            }
        }
    }

    /// The tiles or the focus changed: the window shows them, observers hear of it.
    private func showTiles() {
        screen?.show(tiles.map(\.view), focused: focusedIndex)
        onChange()
    }
}

extension TileSet {
    /// A video plays where it can be seen: in the main window while that is
    /// not minimized, or in a Picture in Picture window (mpv's
    /// stop-screensaver: paused, ended and audio-only players do not count).
    func playsVideoInSight(mainWindowVisible: Bool) -> Bool {
        tiles.contains { tile in
            (tile.isInPiP || mainWindowVisible) && !tile.ended && !tile.player.isPaused
                && tile.player.currentItem?.info?.hasVideo == true
        }
    }
}
