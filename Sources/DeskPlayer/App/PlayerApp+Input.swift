// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Playback
import UI

/// What the user does in the windows, as commands: the main window's
/// keys, clicks, buttons, drops and panel, and the Picture in Picture
/// windows' keys and buttons.
extension PlayerApp {
    /// What the user did in the main window, as commands.
    func handle(_ action: WindowAction) {
        switch action {
        case .key(let name):
            run { () throws(CommandError) in try controller.handleKey(name) }
        case .focus(let index):
            run { () throws(CommandError) in try controller.apply(.tileFocus(.index(index)), from: .mouse) }
        case .playButton(let index):
            run { () throws(CommandError) in
                try controller.apply(.tileFocus(.index(index)), from: .mouse)
                try controller.apply(.cycle(property: "pause", down: false), from: .mouse)
            }
        case .seekBar(let index, let fraction, let exact):
            run { () throws(CommandError) in
                try controller.apply(.tileFocus(.index(index)), from: .mouse)
                try controller.apply(.seek(fraction * 100, .absolutePercent, keyframes: !exact), from: .mouse)
            }
        case .volumeBar(let index, let percent):
            run { () throws(CommandError) in
                try controller.apply(.tileFocus(.index(index)), from: .mouse)
                try controller.apply(.set(property: "volume", value: .number(Double(percent))), from: .mouse)
            }
        case .pipButton(let index):
            run { () throws(CommandError) in
                try controller.apply(.tileFocus(.index(index)), from: .mouse)
                try controller.apply(.pipStart(index), from: .mouse)
            }
        case .drop(let path, let index):
            drop(path, on: index.flatMap { tiles.tiles.indices.contains($0) ? tiles.tiles[$0] : nil })
        case .zoom(let index, let zoom):
            // The tile under the pointer (and its sync group), through the properties keys and the socket set.
            guard tiles.tiles.indices.contains(index) else { return }
            let tile = tiles.tiles[index]
            run { () throws(CommandError) in
                try controller.apply(.set(property: "video-zoom", value: .number(zoom.log2)), to: .tile(tile), from: .mouse)
                try controller.apply(.set(property: "video-pan-x", value: .number(zoom.panX)), to: .tile(tile), from: .mouse)
                try controller.apply(.set(property: "video-pan-y", value: .number(zoom.panY)), to: .tile(tile), from: .mouse)
            }
        case .compare(.wipe(let position)):
            run { () throws(CommandError) in
                try controller.apply(.set(property: "compare-wipe", value: .number(position)), from: .mouse)
            }
        case .compare(.zoom(let zoom)):
            // One zoom for every side (ZoomProperties), set as the keys and the socket set it.
            run { () throws(CommandError) in
                try controller.apply(.set(property: "video-zoom", value: .number(zoom.log2)), from: .mouse)
                try controller.apply(.set(property: "video-pan-x", value: .number(zoom.panX)), from: .mouse)
                try controller.apply(.set(property: "video-pan-y", value: .number(zoom.panY)), from: .mouse)
            }
        case .barButton(let index, let button):
            run { () throws(CommandError) in
                try controller.apply(.tileFocus(.index(index)), from: .mouse)
                try controller.apply(PlayerApp.command(for: button), from: .mouse)
            }
        case .playlist(let action):
            run { () throws(CommandError) in try controller.apply(PlayerApp.command(for: action), from: .mouse) }
        case .list(let action):
            controller.opener?.listAction(action)
        case .library(let action):
            controller.library?.handle(action)
        case .menu(let text):
            // The item's command, exactly as a key bound to the same text runs it.
            run { () throws(CommandError) in try controller.apply(try Command(parsing: text), from: .mouse) }
        case .trackButton(let index, let audio):
            run { () throws(CommandError) in
                try controller.apply(.tileFocus(.index(index)), from: .mouse)
                try controller.apply(.contextMenu(audio ? "Audio" : "Subtitles"), from: .mouse)
            }
        case .minimized:
            controller.autoPiP?.windowMinimized()
        case .restored:
            controller.autoPiP?.windowRestored()
        }
    }

    /// A command from the user that fails says why on the OSD (the socket's
    /// get the error in their reply instead).
    func run(_ body: () throws(CommandError) -> Void) { controller.runFromUser(body) }

    /// A subtitle file goes to the tile it lands on (or the focused one); a
    /// media file plays there, or in a new tile when dropped elsewhere.
    private func drop(_ path: String, on tile: Tile?) {
        if SubtitleFile.isSubtitleFile(path) {
            run { () throws(CommandError) in try controller.apply(.subAdd(path), to: tile.map { .tile($0) } ?? .focused, from: .mouse) }
        } else {
            run { () throws(CommandError) in
                try controller.apply(.loadfile(path, .replace), to: tile.map { .tile($0) } ?? .newTile, from: .mouse)
            }
        }
    }

    /// What a control bar button does.
    static func command(for button: BarButton) -> Command {
        switch button {
        case .play: return .cycle(property: "pause", down: false)
        case .audio: return .contextMenu("Audio")
        case .subtitles: return .contextMenu("Subtitles")
        case .previous: return .playlistPrev(force: false)
        case .next: return .playlistNext(force: false)
        case .record: return .record
        case .camera: return .camera(nil)
        case .playlist: return .playlistPanel
        case .fullscreen: return .cycle(property: "fullscreen", down: false)
        }
    }

    /// What the playlist panel asked for, for the focused tile's playlist.
    static func command(for action: PlaylistPanel.Action) -> Command {
        switch action {
        case .play(let index): return .playlistPlayIndex(index)
        case .move(let from, let to): return .playlistMove(from: from, to: to)
        case .remove(let index): return .playlistRemove(index)
        // Played at once when nothing plays (mpv's append-play).
        case .append(let path): return .loadfile(path, .appendPlay)
        case .close: return .set(property: "playlist-panel", value: .bool(false))
        }
    }

    /// The focused tile's playlist as the panel lists it.
    static func panelEntries(of tile: Tile?) -> [PlaylistPanel.Entry] {
        guard let queue = tile?.playlist else { return [] }
        let current = queue.currentItem
        return queue.entries.map { item in
            PlaylistPanel.Entry(name: item.name, title: item.info?.tags["title"].flatMap { $0.isEmpty ? nil : DisplayText.bounded($0) },
                                duration: item.duration?.seconds, isCurrent: item === current)
        }
    }
}
