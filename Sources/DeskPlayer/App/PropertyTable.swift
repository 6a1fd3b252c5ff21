import Foundation

/// Every property DeskPlayer has, by mpv's name where mpv has one
/// (`content-mode`, `pip` and `tiles` are DeskPlayer's own). Values are
/// what mpv's JSON IPC gives: flags as booleans, times in seconds.
enum PropertyTable {
    /// mpv's other names for a property (`cycle sub` is `cycle sid`).
    static let aliases = ["sub": "sid", "audio": "aid"]

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

    static let all: [Property] = transport + chapters + sound + playlist + tracks + window + app + CompareProperties.all

    private static let transport: [Property] = [
        Property("pause", .flag, scope: .group, get: { t throws(CommandError) in .bool(try t.player().isPaused) },
                 set: { t, v throws(CommandError) in try PropertyValue.flag(v) ? try t.player().pause() : try t.player().play() }),
        Property("time-pos", .number(0...Double.greatestFiniteMagnitude), scope: .group, get: { t throws(CommandError) in
            _ = try t.item()
            return .number(try t.player().currentTime.seconds)
        }, set: { t, v throws(CommandError) in
            _ = try t.item()
            try t.player().seek(to: MediaTime(seconds: max(0, try PropertyValue.number(v))))
        }),
        Property("percent-pos", .number(0...100), scope: .group, get: { t throws(CommandError) in
            guard let d = try t.item().duration?.seconds, d > 0 else { throw .propertyUnavailable }
            return .number(min(100, try t.player().currentTime.seconds / d * 100))
        }, set: { t, v throws(CommandError) in
            guard let d = try t.item().duration?.seconds else { throw .propertyUnavailable }
            try t.player().seek(to: MediaTime(seconds: d * (try PropertyValue.number(v, in: 0...100)) / 100))
        }),
        Property("duration", get: { t throws(CommandError) in
            guard let d = try t.item().duration else { throw .propertyUnavailable }
            return .number(d.seconds)
        }),
        Property("time-remaining", get: { t throws(CommandError) in
            guard let d = try t.item().duration else { throw .propertyUnavailable }
            return .number(max(0, d.seconds - (try t.player().currentTime.seconds)))
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
                player.passesPerItem = Int(n) + 1
            }
        }, osd: { t in (try? t.player().passesPerItem) == 1 ? "Loop: off" : "Loop: on" }),
        // One speed for a sync group (its tiles follow one clock).
        Property("speed", .number(PlaybackSpeed.range), scope: .group, get: { t throws(CommandError) in
            .number(try t.player().speed.value)
        }, set: { t, v throws(CommandError) in
            try t.player().speed.value = try PropertyValue.number(v, in: PlaybackSpeed.range)
        }, osd: { t in (try? t.player()).map { String(format: "Speed %.2f×", $0.speed.value) } }),
        Property("audio-pitch-correction", .flag, scope: .group, get: { t throws(CommandError) in
            .bool(try t.player().speed.keepsPitch)
        }, set: { t, v throws(CommandError) in
            try t.player().speed.keepsPitch = try PropertyValue.flag(v)
        }, osd: { t in (try? t.player().speed.keepsPitch) == false ? "Pitch correction: off" : "Pitch correction: on" }),
        Property("ab-loop-a", .value, get: { t throws(CommandError) in
            try t.player().abLoop.a.map { .number($0.seconds) } ?? .string("no")
        }, set: { t, v throws(CommandError) in
            let player = try t.player()
            player.setABLoop(a: try PropertyTable.loopPoint(v), b: player.abLoop.b)
        }),
        Property("ab-loop-b", .value, get: { t throws(CommandError) in
            try t.player().abLoop.b.map { .number($0.seconds) } ?? .string("no")
        }, set: { t, v throws(CommandError) in
            let player = try t.player()
            player.setABLoop(a: player.abLoop.a, b: try PropertyTable.loopPoint(v))
        }),
        Property("paused-for-cache", get: { t throws(CommandError) in .bool(try t.player().isWaitingForData) }),
        Property("eof-reached", get: { t throws(CommandError) in .bool(try t.requireTile().ended) }),
    ]

    private static let chapters: [Property] = [
        // A seek, so the whole sync group moves (to the leader's chapter start).
        Property("chapter", .number(-1...1e9), scope: .group, get: { t throws(CommandError) in
            .number(Double(try IPCChapters.current(t)))
        }, set: { t, v throws(CommandError) in try IPCChapters.seek(t, to: v) },
           add: { t, delta throws(CommandError) in try IPCChapters.step(t, by: delta) },
           osd: { t in IPCChapters.osd(t) }),
        Property("chapters", get: { t throws(CommandError) in
            guard let info = try t.item().info else { throw .propertyUnavailable }
            return .number(Double(info.chapters.count))
        }),
        Property("chapter-list", get: { t throws(CommandError) in try IPCChapters.list(t) }),
    ]

    private static let sound: [Property] = [
        Property("volume", .number(0...100), get: { t throws(CommandError) in
            .number((Double(try t.player().volume) * 100).rounded())
        }, set: { t, v throws(CommandError) in
            try t.player().volume = Float(try PropertyValue.number(v, in: 0...100) / 100)
        }, osd: { t in (try? t.player()).map { "Volume \(Int(($0.volume * 100).rounded())) %" } }),
        Property("mute", .flag, get: { t throws(CommandError) in .bool(try t.player().isMuted) },
                 set: { t, v throws(CommandError) in try t.player().isMuted = try PropertyValue.flag(v) },
                 osd: { t in (try? t.player().isMuted) == true ? "Mute" : "Unmute" }),
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
        Property("playlist-pos", .number(-1...1e9), get: { t throws(CommandError) in
            let queue = try t.requireTile().playlist
            return .number(queue.currentItem == nil ? -1 : Double(queue.history.count))
        }, set: { t, v throws(CommandError) in
            let tile = try t.requireTile()
            let n = try PropertyValue.number(v)
            guard n == n.rounded(), tile.playlist.play(at: Int(n)) else { throw .propertyError }
            tile.ended = false
            tile.player.play()
        }),
        Property("playlist-count", get: { t throws(CommandError) in
            let queue = try t.requireTile().playlist
            return .number(Double(queue.history.count + queue.items.count))
        }),
        Property("loop-playlist", .choice(["inf", "no"]), get: { t throws(CommandError) in
            try t.requireTile().playlist.loopsQueue ? .string("inf") : .bool(false)
        }, set: { t, v throws(CommandError) in
            switch v {
            case .string("inf"), .bool(true), .string("yes"): try t.requireTile().playlist.loopsQueue = true
            case .string("no"), .bool(false): try t.requireTile().playlist.loopsQueue = false
            default: throw .invalidParameter
            }
        }),
        Property("filename", get: { t throws(CommandError) in .string(DisplayText.shortName(try t.item().name)) }),
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
        Property("track-list", get: { t throws(CommandError) in .array(IPCTracks.list(try t.item())) }),
        Property("aid", .value, get: { t throws(CommandError) in IPCTracks.selected("audio", in: try t.item()) },
                 set: { t, v throws(CommandError) in try IPCTracks.select("audio", v, player: try t.player()) },
                 cycle: { t, down throws(CommandError) in try IPCTracks.cycleAudio(t) }),
        Property("sid", .value, get: { t throws(CommandError) in IPCTracks.selected("sub", in: try t.item()) },
                 set: { t, v throws(CommandError) in try IPCTracks.select("sub", v, player: try t.player()) },
                 cycle: { t, down throws(CommandError) in try IPCTracks.cycleSubtitles(t, forward: !down) }),
        Property("sub-delay", .number(-36000...36000), get: { t throws(CommandError) in .number(try t.item().subtitleDelay) },
                 set: { t, v throws(CommandError) in
                     let item = try t.item()
                     item.subtitleDelay = (try PropertyValue.number(v, in: -36000...36000) * 1000).rounded() / 1000
                     try t.player().subtitlesChanged()
                 }, osd: { t in (try? t.item()).map { "Subtitle delay: \(Int(($0.subtitleDelay * 1000).rounded())) ms" } }),
        Property("sub-visibility", .flag, get: { t throws(CommandError) in
            .bool(try t.player().currentItem?.subtitlesVisible ?? true)
        }, set: { t, v throws(CommandError) in
            try t.item().subtitlesVisible = try PropertyValue.flag(v)
            try t.player().subtitlesChanged()
        }, osd: { t in (try? t.item().subtitlesVisible) == false ? "Subtitles hidden" : "Subtitles visible" }),
        Property("sub-text", get: { t throws(CommandError) in .string(IPCTracks.shownText(try t.player())) }),
    ]

    private static let window: [Property] = [
        Property("fullscreen", .flag, scope: .app, get: { t throws(CommandError) in
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
        }, osd: { t in (try? t.requireTile()).map { "Content mode: \($0.view.contentMode.rawValue)" } }),
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
        }, osd: { t in (try? t.player()).map { "Deinterlace: \($0.deinterlace.rawValue)" } }),
        Property("pip", .flag, get: { t throws(CommandError) in .bool(try t.requireTile().isInPiP) },
                 set: { t, v throws(CommandError) in
                     let tile = try t.requireTile()
                     if try PropertyValue.flag(v) {
                         try t.controller.apply(.pipStart(t.controller.tiles.index(of: tile)), from: .socket)
                     } else if tile.isInPiP {
                         t.controller.pips?.restore(tile)
                     }
                 }),
        Property("cursor-visible", scope: .app, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .bool(screen.pointerVisible)
        }),
        Property("stop-screensaver-active", scope: .app, get: { t throws(CommandError) in
            guard let screen = t.controller.screen else { throw .propertyUnavailable }
            return .bool(screen.holdsOffScreenSaver)
        }),
        Property("tiles", scope: .app, get: { t throws(CommandError) in
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
    ]
}
