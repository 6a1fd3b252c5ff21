// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Playback
import UI

/// Every property DeskPlayer has, by mpv's name where mpv has one
/// (`content-mode`, `pip` and `tiles` are DeskPlayer's own). Values are
/// what mpv's JSON IPC gives: flags as booleans, times in seconds.
enum PropertyTable {
    /// mpv's other names for a property (`cycle sub` is `cycle sid`).
    static let aliases = ["sub": "sid", "audio": "aid", "loop": "loop-file"]

    static func named(_ name: String) -> Property? {
        let name = aliases[name] ?? name
        return all.first { $0.name == name }
    }

    /// An A-B loop point as mpv takes it: seconds (0 or more), or "no".
    static func loopPoint(_ value: JSONValue) throws(CommandError) -> MediaTime? {
        if value == .string("no") || value == .bool(false) { return nil }
        let seconds = try PropertyValue.number(value, in: 0...1e9)
        return MediaTime(seconds: seconds)
    }

    /// `loop-file`'s and `loop-playlist`'s values by meaning: yes, true and
    /// inf are "inf"; no, false and 0 are false; a count is a number.
    @Sendable static func loopMeaning(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string("inf"), .string("yes"), .string("true"), .bool(true): return .string("inf")
        case .string("no"), .string("false"), .bool(false): return .bool(false)
        default:
            guard let n = try? PropertyValue.number(value) else { return value }
            return n == 0 ? .bool(false) : .number(n)
        }
    }

    /// The current entry's index in the whole playlist, -1 with none.
    static func playlistPosition(_ t: PropertyTarget) throws(CommandError) -> Int {
        let queue = try t.requireTile().playlist
        return queue.currentItem == nil ? -1 : queue.history.count
    }

    /// Plays entry `index` of the playlist now (`set playlist-pos`); the
    /// pause state carries over, as in mpv.
    static func play(_ t: PropertyTarget, at index: Int) throws(CommandError) {
        let tile = try t.requireTile()
        guard tile.playlist.play(at: index) else { throw .propertyError }
        tile.ended = false
    }

    /// The app's own properties, then each feature's (`FeatureRegistry`).
    /// Polled (`Property.Changes`): the open menu's rows (the menu closes
    /// and moves in the window, no command), the desktop's parts (the UI
    /// scale follows the display) and every feature's values (its own
    /// threads' work: scans, measurements, a recording's time).
    static let all: [Property] = transport + sound + playlist + tracks + window + app
        + ZoomProperties.all + HardwareDecodingProperties.all + menuProperties.map { $0.polled() }
        + rotateProperties + DesktopProperties.all.map { $0.polled() } + FeatureRegistry.properties.map { $0.polled() }

    /// Whether observers read what `path` names at their own rate (`Property.Changes.polled`).
    static func isPolled(_ path: String) -> Bool {
        named(CommandController.split(path).name)?.changes == .polled
    }

    private static let transport: [Property] = [
        Property("pause", .flag, scope: .group, get: { t throws(CommandError) in .bool(try t.player().isPaused) },
                 set: { t, v throws(CommandError) in try PropertyValue.flag(v) ? try t.player().pause() : try t.player().play() }),
        // Polled (`Property.Changes`): the position and what is worked out
        // from it move with the clock, every turn a frame is shown.
        Property("time-pos", .number(0...Double.greatestFiniteMagnitude), format: .time, scope: .group, changes: .polled, get: { t throws(CommandError) in
            _ = try t.item()
            return .number(try t.player().currentTime.seconds)
        }, set: { t, v throws(CommandError) in
            _ = try t.item()
            try t.player().seek(to: MediaTime(seconds: max(0, try PropertyValue.seconds(v))))
        }),
        // mpv's playback-time: the position, within the file's length.
        Property("playback-time", .number(0...Double.greatestFiniteMagnitude), format: .time, scope: .group, changes: .polled, get: { t throws(CommandError) in
            let now = try t.player().currentTime.seconds
            guard let d = try t.item().duration?.seconds else { return .number(now) }
            return .number(min(max(0, now), d))
        }, set: { t, v throws(CommandError) in
            _ = try t.item()
            try t.player().seek(to: MediaTime(seconds: max(0, try PropertyValue.seconds(v))))
        }),
        Property("percent-pos", .number(0...100), format: .decimal(shown: 0), scope: .group, changes: .polled, get: { t throws(CommandError) in
            guard let d = try t.item().duration?.seconds, d > 0 else { throw .propertyUnavailable }
            return .number(min(100, try t.player().currentTime.seconds / d * 100))
        }, set: { t, v throws(CommandError) in
            guard let d = try t.item().duration?.seconds else { throw .propertyUnavailable }
            try t.player().seek(to: MediaTime(seconds: d * (try PropertyValue.number(v, in: 0...100)) / 100))
        }),
        // Polled: a stream's length is an estimate that can grow as it is read.
        Property("duration", format: .time, changes: .polled, get: { t throws(CommandError) in
            guard let d = try t.item().duration else { throw .propertyUnavailable }
            return .number(d.seconds)
        }),
        Property("time-remaining", format: .time, changes: .polled, get: { t throws(CommandError) in
            guard let d = try t.item().duration else { throw .propertyUnavailable }
            return .number(max(0, d.seconds - (try t.player().currentTime.seconds)))
        }),
        // The time left at the playback speed: what a wall clock will see.
        Property("playtime-remaining", format: .time, changes: .polled, get: { t throws(CommandError) in
            guard let d = try t.item().duration else { throw .propertyUnavailable }
            let player = try t.player()
            return .number(max(0, d.seconds - player.currentTime.seconds) / player.speed.value)
        }),
        Property("loop-file", .choice(["inf", "no"]), get: { t throws(CommandError) in
            guard let passes = try t.player().passesPerItem else { return .string("inf") }
            return passes <= 1 ? .bool(false) : .number(Double(passes - 1))
        }, set: { t, v throws(CommandError) in
            let player = try t.player()
            switch v {
            case .string("inf"), .bool(true), .string("yes"): player.passesPerItem = nil
            case .string("no"), .bool(false): player.passesPerItem = 1
            default:
                let n = try PropertyValue.number(v)
                guard n >= 0, n < 1e9 else { throw .propertyError }
                player.passesPerItem = Int(saturating: n) + 1
            }
        }, osd: { t in (try? t.player().passesPerItem) == 1 ? tr("Loop: off") : tr("Loop: on") },
           normalize: PropertyTable.loopMeaning),
        // One speed for a sync group (its tiles follow one clock).
        Property("speed", .number(PlaybackSpeed.range), scope: .group, get: { t throws(CommandError) in
            .number(try t.player().speed.value)
        }, set: { t, v throws(CommandError) in
            try t.player().speed.value = try PropertyValue.number(v, in: PlaybackSpeed.range)
        }, osd: { t in (try? t.player()).map { String(format: tr("Speed %.2f×"), locale: .display, $0.speed.value) } }),
        // mpv's play-dir: backward steps back through the frames, sound off (Player+Backward).
        Property("play-dir", .choice(PlayDirection.allCases.map(\.rawValue)), scope: .group, get: { t throws(CommandError) in
            .string(try t.player().playDirection.rawValue)
        }, set: { t, v throws(CommandError) in
            // mpv's other spellings: + and -.
            let word = v.plainText == "+" ? "forward" : v.plainText == "-" ? "backward" : v.plainText
            guard let direction = PlayDirection(rawValue: word) else { throw .invalidParameter }
            try t.player().playDirection = direction
        }, osd: { t in (try? t.player().playDirection) == .backward ? tr("Playing backward") : tr("Playing forward") }),
        Property("audio-pitch-correction", .flag, scope: .group, get: { t throws(CommandError) in
            .bool(try t.player().speed.keepsPitch)
        }, set: { t, v throws(CommandError) in
            try t.player().speed.keepsPitch = try PropertyValue.flag(v)
        }, osd: { t in (try? t.player().speed.keepsPitch) == false ? tr("Pitch correction: off") : tr("Pitch correction: on") }),
        Property("ab-loop-a", .value, format: .time, get: { t throws(CommandError) in
            try t.player().abLoop.a.map { .number($0.seconds) } ?? .string("no")
        }, set: { t, v throws(CommandError) in
            let player = try t.player()
            player.setABLoop(a: try PropertyTable.loopPoint(v), b: player.abLoop.b)
        }),
        Property("ab-loop-b", .value, format: .time, get: { t throws(CommandError) in
            try t.player().abLoop.b.map { .number($0.seconds) } ?? .string("no")
        }, set: { t, v throws(CommandError) in
            let player = try t.player()
            player.setABLoop(a: player.abLoop.a, b: try PropertyTable.loopPoint(v))
        }),
        // Polled: waiting for data, a seek under way and the end reached
        // come and go inside the player's tick.
        Property("paused-for-cache", changes: .polled, get: { t throws(CommandError) in .bool(try t.player().isWaitingForData) }),
        Property("eof-reached", changes: .polled, get: { t throws(CommandError) in .bool(try t.requireTile().ended) }),
        Property("seeking", changes: .polled, get: { t throws(CommandError) in .bool(try t.player().isSeeking) }),
        // mpv's core-idle: nothing moves (paused, waiting for data, seeking, ended or nothing loaded).
        Property("core-idle", changes: .polled, get: { t throws(CommandError) in
            guard let tile = t.tile, tile.player.currentItem != nil else { return .bool(true) }
            let player = tile.player
            return .bool(player.isPaused || player.isWaitingForData || player.isSeeking || tile.ended)
        }),
        Property("time-start", format: .time, get: { t throws(CommandError) in
            _ = try t.item()
            return .number(0)
        }),
        Property("seekable", get: { t throws(CommandError) in
            guard let info = try t.item().info else { throw .propertyUnavailable }
            return .bool(info.duration != nil && !info.isLive)
        }),
    ]

    private static let sound: [Property] = [
        Property("volume", .number(0...100), format: .decimal(shown: 0), get: { t throws(CommandError) in
            .number((Double(try t.player().volume) * 100).rounded())
        }, set: { t, v throws(CommandError) in
            try t.player().volume = Float(try PropertyValue.number(v, in: 0...100) / 100)
        }, osd: { t in (try? t.player()).map { String(format: tr("Volume %d %%"), locale: .display, Int(($0.volume * 100).rounded())) } }),
        Property("mute", .flag, get: { t throws(CommandError) in .bool(try t.player().isMuted) },
                 set: { t, v throws(CommandError) in try t.player().isMuted = try PropertyValue.flag(v) },
                 osd: { t in (try? t.player().isMuted) == true ? tr("Mute") : tr("Unmute") }),
        // DeskPlayer does not amplify: 100 is the most (mpv's default is 130).
        Property("volume-max", .number(100...100), format: .decimal(shown: 0), scope: .app, get: { _ throws(CommandError) in
            .number(100)
        }),
        // mpv's: the device by name, or auto; a switch keeps every player's time.
        Property("audio-device", scope: .app, get: { t throws(CommandError) in
            guard let audio = t.controller.audioOutput else { throw .propertyUnavailable }
            return .string(audio.wantedDevice)
        }, set: { t, v throws(CommandError) in
            guard let audio = t.controller.audioOutput else { throw .propertyUnavailable }
            let name = try PropertyValue.word(v)
            guard !name.isEmpty else { throw .invalidParameter }
            audio.setWantedDevice(name)
        }, osd: { t in t.controller.audioOutput.map { String(format: tr("Audio device: %@"), $0.wantedDevice) } }),
        // Polled: devices come and go with the desktop's sound server.
        Property("audio-device-list", scope: .app, changes: .polled, get: { t throws(CommandError) in
            guard let audio = t.controller.audioOutput else { throw .propertyUnavailable }
            return .array(audio.deviceList.map { .object([("name", .string($0.name)), ("description", .string($0.description))]) })
        }),
    ]

    private static let playlist: [Property] = [
        Property("playlist", get: { t throws(CommandError) in
            let queue = try t.requireTile().playlist
            let current = queue.currentItem
            return .array((queue.history + queue.items).map { item in
                item === current ? .object([("filename", .string(item.name)), ("current", .bool(true)), ("playing", .bool(true))])
                    : .object([("filename", .string(item.name))])
            })
        }),
        Property("playlist-pos", .number(-1...1e9), format: .integer, get: { t throws(CommandError) in
            .number(Double(try PropertyTable.playlistPosition(t)))
        }, set: { t, v throws(CommandError) in try PropertyTable.play(t, at: try PropertyValue.integer(v)) }),
        // The same, counted from 1 (0: none), as status lines show it.
        Property("playlist-pos-1", .number(0...1e9), format: .integer, get: { t throws(CommandError) in
            .number(Double(try PropertyTable.playlistPosition(t) + 1))
        }, set: { t, v throws(CommandError) in try PropertyTable.play(t, at: try PropertyValue.integer(v) - 1) }),
        Property("playlist-playing-pos", format: .integer, get: { t throws(CommandError) in
            .number(Double(try PropertyTable.playlistPosition(t)))
        }),
        Property("playlist-current-pos", format: .integer, get: { t throws(CommandError) in
            .number(Double(try PropertyTable.playlistPosition(t)))
        }),
        Property("playlist-count", format: .integer, get: { t throws(CommandError) in
            let queue = try t.requireTile().playlist
            return .number(Double(queue.history.count + queue.items.count))
        }),
        // Shuffling puts the entries after the current one in a random order; unshuffling puts them back.
        Property("shuffle", .flag, get: { t throws(CommandError) in .bool(try t.requireTile().playlist.isShuffled) },
                 set: { t, v throws(CommandError) in
                     let queue = try t.requireTile().playlist
                     try PropertyValue.flag(v) ? queue.shuffle() : queue.unshuffle()
                 }, osd: { t in (try? t.requireTile().playlist.isShuffled) == true ? tr("Shuffle: on") : tr("Shuffle: off") }),
        Property("loop-playlist", .choice(["inf", "no"]), get: { t throws(CommandError) in
            try t.requireTile().playlist.loopsQueue ? .string("inf") : .bool(false)
        }, set: { t, v throws(CommandError) in
            switch v {
            case .string("inf"), .bool(true), .string("yes"): try t.requireTile().playlist.loopsQueue = true
            case .string("no"), .bool(false): try t.requireTile().playlist.loopsQueue = false
            default: throw .invalidParameter
            }
        }, normalize: PropertyTable.loopMeaning),
        Property("filename", get: { t throws(CommandError) in .string(DisplayText.shortName(try t.item().name)) }),
        // mpv's sub-property of filename: the name without its last extension.
        Property("filename/no-ext", get: { t throws(CommandError) in
            let name = DisplayText.shortName(try t.item().name)
            let stem = (name as NSString).deletingPathExtension
            return .string(stem.isEmpty ? name : stem)
        }),
        Property("file-size", format: .integer, get: { t throws(CommandError) in
            let name = try t.item().name
            guard let size = (try? FileManager.default.attributesOfItem(atPath: name))?[.size] as? NSNumber else {
                throw .propertyUnavailable
            }
            return .number(size.doubleValue)
        }),
        // Packets the decoders could not decode (FFmpeg conceals them and playback goes on).
        // Polled: a count the decode threads keep.
        Property("decode-errors", format: .integer, changes: .polled, get: { t throws(CommandError) in .number(Double(try t.item().decodeErrors)) }),
        Property("path", get: { t throws(CommandError) in .string(try t.item().name) }),
        // The title tag, else the file's name (mpv's media-title).
        Property("media-title", get: { t throws(CommandError) in
            let item = try t.item()
            if let title = item.info?.tags["title"], !title.isEmpty { return .string(title) }
            return .string(DisplayText.shortName(item.name))
        }),
        Property("metadata", get: { t throws(CommandError) in
            guard let info = try t.item().info else { throw .propertyUnavailable }
            return .object(info.tags.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        }),
        Property("file-format", get: { t throws(CommandError) in
            guard let info = try t.item().info else { throw .propertyUnavailable }
            return .string(info.formatName)
        }),
    ]

    private static let tracks: [Property] = [
        // Polled, with sid: a subtitle file loads on a thread of its own
        // and selects itself, with no event.
        Property("track-list", changes: .polled, get: { t throws(CommandError) in .array(TrackProperties.list(try t.item())) }),
        Property("aid", .value, get: { t throws(CommandError) in TrackProperties.selected("audio", in: try t.item()) },
                 set: { t, v throws(CommandError) in try TrackProperties.select("audio", v, player: try t.player()) },
                 cycle: { t, down throws(CommandError) in try TrackProperties.cycleAudio(t) }),
        Property("sid", .value, changes: .polled, get: { t throws(CommandError) in TrackProperties.selected("sub", in: try t.item()) },
                 set: { t, v throws(CommandError) in try TrackProperties.select("sub", v, player: try t.player()) },
                 cycle: { t, down throws(CommandError) in try TrackProperties.cycleSubtitles(t, forward: !down) }),
        Property("sub-delay", .number(-36000...36000), format: .milliseconds, get: { t throws(CommandError) in .number(try t.item().subtitleDelay) },
                 set: { t, v throws(CommandError) in
                     let item = try t.item()
                     item.subtitleDelay = (try PropertyValue.number(v, in: -36000...36000) * 1000).rounded() / 1000
                     try t.player().subtitlesChanged()
                 }, osd: { t in (try? t.item()).map { String(format: tr("Subtitle delay: %d ms"), locale: .display, Int(saturating: ($0.subtitleDelay * 1000).rounded())) } }),
        Property("sub-visibility", .flag, get: { t throws(CommandError) in
            .bool(try t.player().currentItem?.subtitlesVisible ?? true)
        }, set: { t, v throws(CommandError) in
            try t.item().subtitlesVisible = try PropertyValue.flag(v)
            try t.player().subtitlesChanged()
        }, osd: { t in (try? t.item().subtitlesVisible) == false ? tr("Subtitles hidden") : tr("Subtitles visible") }),
        Property("sub-text", changes: .polled, get: { t throws(CommandError) in .string(TrackProperties.shownText(try t.player())) }),
    // Polled: they follow the decoded frames (a size or format change
    // mid-stream, frame counts).
    ] + MediaProperties.all.map { $0.polled() }

    private static let window: [Property] = [
        // For screen tests and scripts: a present to wait for after a change,
        // and whether the window has nothing more to draw until the next one.
        // Polled, as every property of the window's own state here (its
        // presents, the pointer, the window manager's fullscreen, the
        // screen saver) and the tiles' list (a mini window closed by the
        // window manager): they change without a command.
        Property("window-presents", format: .integer, scope: .app, changes: .polled, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .number(Double(screen.presents))
        }),
        Property("window-settled", .flag, scope: .app, changes: .polled, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .bool(screen.isSettled)
        }),
        // What keeps it from settling ("an OSD line", "tile 2: player seeking"); "" when settled.
        Property("window-unsettled-by", scope: .app, changes: .polled, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .string(screen.unsettledBy ?? "")
        }),
        Property("fullscreen", .flag, scope: .app, changes: .polled, get: { t throws(CommandError) in
            .bool(t.controller.screen?.isFullscreen ?? false)
        }, set: { t, v throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            screen.isFullscreen = try PropertyValue.flag(v)
        }),
        Property("content-mode", .choice(ContentMode.allCases.map(\.rawValue)), get: { t throws(CommandError) in
            .string(try t.requireTile().view.contentMode.rawValue)
        }, set: { t, v throws(CommandError) in
            guard let mode = ContentMode(rawValue: try PropertyValue.word(v)) else { throw .invalidParameter }
            let view = try t.requireTile().view
            view.contentMode = mode
            view.resetPicture()
        }, osd: { t in (try? t.requireTile()).map { String(format: tr("Content mode: %@"), $0.view.contentMode.rawValue) } }),
        // mpv's deinterlace: auto follows what the stream or frame says.
        Property("deinterlace", .choice(DeinterlaceMode.allCases.map(\.rawValue)), get: { t throws(CommandError) in
            .string(try t.player().deinterlace.rawValue)
        }, set: { t, v throws(CommandError) in
            let word: String
            switch v {
            case .bool(let b): word = b ? "yes" : "no"
            default: word = try PropertyValue.word(v)
            }
            guard let mode = DeinterlaceMode(rawValue: word) else { throw .invalidParameter }
            try t.player().deinterlace = mode
        }, osd: { t in (try? t.player()).map { String(format: tr("Deinterlace: %@"), $0.deinterlace.rawValue) } }),
        // Seek-bar thumbnails (--thumbnails).
        Property("thumbnails", .flag, scope: .app, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .bool(screen.showsThumbnails)
        }, set: { t, v throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            screen.showsThumbnails = try PropertyValue.flag(v)
        }, osd: { t in t.controller.screen?.showsThumbnails == false ? tr("Thumbnails: off") : tr("Thumbnails: on") }),
        Property("cursor-visible", scope: .app, changes: .polled, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .bool(screen.pointerVisible)
        }),
        Property("stop-screensaver-active", scope: .app, changes: .polled, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .bool(screen.holdsOffScreenSaver)
        }),
        Property("tiles", scope: .app, changes: .polled, get: { t throws(CommandError) in
            let set = t.controller.tiles
            return .array(set.tiles.enumerated().map { index, tile in
                .object([("index", .number(Double(index))), ("filename", tile.player.currentItem.map { .string($0.name) } ?? .null),
                         ("focused", .bool(index == set.focusedIndex)), ("pip", .bool(tile.isInPiP)),
                         ("pause", .bool(tile.player.isPaused))])
            })
        }),
    ]

    private static let app: [Property] = [
        Property("idle-active", scope: .app, get: { t throws(CommandError) in
            .bool(t.controller.tiles.focused?.player.currentItem == nil)
        }),
        Property("property-list", scope: .app, get: { _ throws(CommandError) in .array(all.map { .string($0.name) }) }),
        Property("command-list", scope: .app, get: { _ throws(CommandError) in CommandSpec.commandList }),
        Property("mpv-version", scope: .app, get: { _ throws(CommandError) in .string("DeskPlayer \(DeskPlayerCommand.version)") }),
        Property("pid", format: .integer, scope: .app, get: { _ throws(CommandError) in
            .number(Double(ProcessInfo.processInfo.processIdentifier))
        }),
        Property("working-directory", scope: .app, get: { _ throws(CommandError) in
            .string(FileManager.default.currentDirectoryPath)
        }),
    ]
}
