// SPDX-License-Identifier: GPL-3.0-or-later
import Output
import Control
import Foundation
import Media
import Playback
import UI

/// The commands that open and write files: loading media, screenshots,
/// the resume positions. Their bodies, by topic, out of the dispatch.
extension CommandController {

    /// Plays `path` in `tile` now (its queue's current item is replaced).
    func play(_ path: String, in tile: Tile) {
        tile.playlist.replaceCurrentItem(with: factory.item(path))
        tile.ended = false
        tile.player.play()
    }

    /// `loadfile`: replace plays the file now in `tile` (a new tile when
    /// there is none); append adds it to that tile's queue. Of the options,
    /// `start` is where the file starts (seconds, a clock, or N% of its
    /// length); the others are properties, set on
    /// the tile when the file starts now (they stay set after it, where mpv
    /// puts them back).
    func load(_ path: String, mode: Command.LoadMode = .replace, options: [Command.LoadOption] = [],
              in tile: Tile?) throws(CommandError) {
        var start: MediaTime?, startPercent: Double?
        for option in options {
            if option.name == "start", option.value.hasSuffix("%") {
                guard let percent = Double(option.value.dropLast()), (0...100).contains(percent) else { throw .invalidParameter }
                startPercent = percent
            } else if option.name == "start" {
                guard let seconds = PropertyValue.seconds(option.value), seconds >= 0 else { throw .invalidParameter }
                start = MediaTime(seconds: seconds)
            } else if PropertyTable.named(option.name)?.set == nil {
                throw .invalidParameter
            }
        }
        let item = start != nil || startPercent != nil
            ? PlayerItem(path, preferences: factory.preferences, start: start ?? .zero, startPercent: startPercent)
            : factory.item(path)
        let startsNow: Bool
        switch (tile, mode) {
        case (nil, _):
            // The pause state carries over from --pause, as mpv's pause property would.
            tiles.add(factory.tile([item]), focus: true, paused: factory.options.pause)
            startsNow = true
        case (let tile?, .replace):
            // The pause state carries over, as in mpv.
            tile.playlist.replaceCurrentItem(with: item)
            tile.ended = false
            startsNow = true
        case (let tile?, .append), (let tile?, .appendPlay):
            tile.playlist.insert(item, after: nil)
            startsNow = tile.playlist.currentItem === item
            if mode == .appendPlay && (tile.ended || startsNow) {
                tile.ended = false
                tile.player.play()
            }
        }
        guard startsNow else { return }
        let target: CommandTarget = tile.map { .tile($0) } ?? .focused
        for option in options where option.name != "start" {
            try apply(.set(property: option.name, value: .string(option.value)), to: target, from: .socket)
        }
    }

    /// `s`/`S` take the picture in the background and say where it went;
    /// `screenshot-to-file` is a file job (`FileWorker`), replied to once written.
    func screenshot(_ kind: Command.ScreenshotKind, _ target: CommandTarget, to url: URL? = nil) throws(CommandError) {
        if kind == .window {
            guard let screen else { throw .commandFailed }
            guard let url else { return screenshots.takeWindow(screen) }
            // The window's pixels are read here (its renderer is this thread's); the PNG is made off it.
            let picture: PictureBuffer
            do { picture = try screen.capture() } catch { return try failed("screenshot", error) }
            return try startFileJob("screenshot") { () throws(MediaError) in
                try Screenshots.writePicture(picture, to: url)
                return FileWorker.Outcome()
            }
        }
        let player = try resolve(target)[0].player
        guard let item = player.currentItem, item.info?.hasVideo == true else {
            if url == nil { osd(tr("No video to take a screenshot of"), seconds: 2) }
            throw .propertyUnavailable
        }
        let time = MediaTime(seconds: player.shownFrameInterval?.start ?? player.currentTime.seconds)
        // Filtered as it plays: turned upright, deinterlaced as the player does now.
        var settings = item.preferences.video
        settings.deinterlace = player.deinterlace
        guard let url else { return screenshots.takeVideo(item.name, at: time, settings: settings) }
        let (name, filters) = (item.name, settings)
        try startFileJob("screenshot") { () throws(MediaError) in
            try Screenshots.writeVideo(name, at: time, settings: filters, to: url)
            return FileWorker.Outcome()
        }
    }

    /// A command that could not be carried out: one line on stderr, mpv's error to the caller.
    func failed(_ what: String, _ error: MediaError) throws(CommandError) {
        PlayerApp.printError("\(what): \(error)")
        throw .commandFailed
    }

    /// Remembers where each tile's file is (mpv's watch later). A file near
    /// its end is forgotten instead: next time it starts over.
    func saveResumePositions() {
        var positions: [(name: String, seconds: Double?)] = []
        for tile in tiles.tiles {
            guard let item = tile.player.currentItem, item.composition == nil else { continue }
            let position = tile.player.currentTime.seconds
            let nearEnd = item.duration.map { position > $0.seconds - 1 } ?? false
            positions.append((item.name, nearEnd ? nil : position))
        }
        // Another player's entries stay, even one that quits at the same moment.
        do { try ResumeStore.update { store in for entry in positions { store.set(entry.seconds, for: entry.name) } } } catch {
            PlayerApp.printError("\(error)")
            osd("\(error)")
        }
    }
}
