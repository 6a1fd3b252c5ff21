// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Playback
import UI

/// What the players' events mean for the app: the OSD and stderr lines, the
/// control socket's mpv events (start-file, end-file, seek,
/// playback-restart, idle), the statistics and the window's first fit.
extension PlayerApp {
    func handleEvents(of tile: Tile, window: MainWindow, tick: UInt64) {
        let player = tile.player
        for event in tile.playlist.takeEvents() {
            switch event {
            case .readyToPlay:
                announceStart(of: tile)
                socket?.broadcast("file-loaded")
                if let name = player.currentItem?.name, player.currentItem?.composition == nil { MediaOpener.rememberRecent(name) }
                if let variant = player.currentItem?.variant { window.showMessage(String(format: tr("HLS variant: %@"), variant.label), seconds: 3) }
                anyPlayed = true
                tile.ended = false
                if playingSince == nil { playingSince = tick }
                fitWindowOnce(to: player.currentItem?.info, window)
                CompareSession.itemReady(controller)
            case .itemFailed(let item, let error):
                let line = "\(item.name): \(error)"
                PlayerApp.printError(line)
                socket?.broadcast("end-file", [("reason", .string("error")), ("file_error", .string("\(error)"))])
                if item === tile.shownItem { tile.announcedEnd = true }
                stats.record(item, PlayerStats())
                if tile.playlist.currentItem != nil {
                    // Playback moves on: keep the error in sight a moment.
                    window.showMessage("\(item.name): \(shownDescription(of: error))", seconds: 4)
                } else {
                    // Nothing left in this tile: it shows the error; the others go on.
                    player.replaceCurrentItem(with: item)
                    tile.ended = true
                    tile.recorded = true
                }
            case .warning(let text):
                let line = "\(player.currentItem?.name ?? "?"): \(text)"
                PlayerApp.printError(line)
                window.showMessage(line, seconds: 3)
            case .advanced(let from, let itemStats):
                stats.record(from, itemStats)
                PlayerApp.rememberWatched(from)
                socket?.broadcast("end-file", [("reason", .string("eof"))])
                if from === tile.shownItem { tile.announcedEnd = true }
            case .didPlayToEnd:
                socket?.broadcast("end-file", [("reason", .string("eof"))])
                if let item = player.currentItem { PlayerApp.rememberWatched(item) }
                tile.announcedEnd = true
                recordOnce(tile)
                tile.ended = true
            case .seekStarted:
                socket?.broadcast("seek")
            case .playbackRestarted:
                announceStart(of: tile)
                socket?.broadcast("playback-restart")
            case .failed:
                break  // QueuePlayer reports it as itemFailed
            }
        }
        announceStart(of: tile)
    }

    /// Another item became current in `tile`: the socket's clients hear
    /// the old one end (reason stop, when nothing said why) and the new
    /// one start, or the player go idle, in mpv's order.
    private func announceStart(of tile: Tile) {
        let current = tile.player.currentItem
        guard current !== tile.shownItem else { return }
        if tile.shownItem != nil && !tile.announcedEnd {
            socket?.broadcast("end-file", [("reason", .string("stop"))])
        }
        tile.shownItem = current
        tile.recorded = false
        tile.announcedEnd = false
        socket?.broadcast(current == nil ? "idle" : "start-file")
    }

    /// One file playing in a window of the default size (no --geometry, no
    /// tiles): the window takes the first video's display aspect (turned
    /// upright) within that size, as mpv sizes its window to the video.
    private func fitWindowOnce(to info: MediaInfo?, _ window: MainWindow) {
        guard !fittedToVideo else { return }
        fittedToVideo = true
        guard options.geometry == nil, !usesRememberedWindow, options.layout == nil, !options.sync, options.compare == nil,
              tiles.tiles.count == 1, let info, info.hasVideo else { return }
        window.fitAspect(videoWidth: info.displayWidth, videoHeight: info.displayHeight)
    }

    /// Adds the tile's current item to the stats report, once. (A failed item
    /// was reported when it failed.)
    /// A file played to its end: recorded for the camera roll's mark, on
    /// a thread of its own (the store is read and written whole, under a
    /// lock another player may hold: the loop does not wait on it).
    static func rememberWatched(_ item: PlayerItem) {
        guard item.composition == nil, item.error == nil else { return }
        let name = item.name
        let thread = Thread {
            do { try WatchedStore.add(name) } catch { PlayerApp.printError("\(error)") }
        }
        thread.name = "deskplayer.watched"
        thread.start()
    }

    func recordOnce(_ tile: Tile) {
        guard !tile.recorded, let item = tile.player.currentItem, item.error == nil else { return }
        stats.record(item, tile.player.stats)
        tile.recorded = true
    }

    /// How far any synced tile's picture is from the one due on the group clock.
    func measureSync(_ master: Player, at now: UInt64) {
        let t = master.clock.time(at: now)
        var worst = stats.maxSyncErrorMs ?? 0
        for tile in tiles.syncGroup {
            // A tile past its end holds its last frame by design.
            guard !tile.ended, let shown = tile.player.shownFrameInterval else { continue }
            // Lateness: a frame still on screen after its interval ended. (The
            // first frame after a start or seek is shown early on purpose,
            // while the audio fills; that is not counted.)
            let error = max(0, t + tile.player.syncOffset - shown.end)
            worst = max(worst, error * 1000)
        }
        stats.maxSyncErrorMs = (worst * 100).rounded() / 100
    }
}
