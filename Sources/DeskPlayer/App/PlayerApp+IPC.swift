import Foundation

/// The control socket's commands and properties, applied on the main thread
/// like keys are. Names and replies follow mpv's JSON IPC, so mpv clients and
/// scripts work unchanged; `pip-*`, `tile-*` and `tiles` are DeskPlayer's own.
extension PlayerApp {
    /// What a client watches with `observe_property`: sent again when it changes.
    struct Observation {
        let connection: Int
        let id: JSONValue
        let name: String
        var last: JSONValue?
    }

    /// Answers every request that arrived, then sends the events of this tick.
    func serveIPC(_ server: IPCServer, window: MainWindow) {
        for request in server.takeRequests() {
            let result: Result<JSONValue, IPCError>
            switch request.command {
            case .failure(let error):
                result = .failure(error)
            case .success(let parts):
                do { result = .success(try ipcCommand(parts, connection: request.connection, window: window)) } catch {
                    result = .failure(error)
                }
            }
            server.send(request.reply(result), to: request.connection)
        }
        if let focused = focusedTile {
            let paused = focused.player.isPaused
            if let last = lastReportedPause, last != paused { server.broadcast(ipcEvent(paused ? "pause" : "unpause")) }
            lastReportedPause = paused
        }
        for index in observations.indices {
            let value = try? property(observations[index].name, window: window)
            guard value != observations[index].last else { continue }
            observations[index].last = value
            server.send(ipcEvent("property-change", [("id", observations[index].id), ("name", .string(observations[index].name)),
                                                     ("data", value ?? .null)]), to: observations[index].connection)
        }
    }

    var focusedTile: Tile? { tiles.first { $0.view === mainWindow?.focusedView } ?? tiles.first }

    private func ipcCommand(_ parts: [JSONValue], connection: Int, window: MainWindow) throws(IPCError) -> JSONValue {
        let name = parts.first?.string ?? ""
        let args = Array(parts.dropFirst())
        func arg(_ i: Int) throws(IPCError) -> JSONValue {
            guard args.indices.contains(i) else { throw .invalidParameter }
            return args[i]
        }
        func text(_ i: Int) throws(IPCError) -> String {
            let v = try arg(i)
            if let s = v.string { return s }
            if case .number = v { return v.text }
            throw .invalidParameter
        }
        switch name {
        case "get_property":
            return try property(try text(0), window: window)
        case "get_property_string":
            let value = try property(try text(0), window: window)
            if case .string(let s) = value { return .string(s) }
            if case .bool(let b) = value { return .string(b ? "yes" : "no") }
            return .string(value.text)
        case "set_property":
            try setProperty(try text(0), to: try arg(1), window: window)
        case "set":
            try setProperty(try text(0), to: try arg(1), window: window)
        case "cycle":
            let property = try text(0)
            guard case .bool(let on) = try self.property(property, window: window) else { throw .invalidParameter }
            try setProperty(property, to: .bool(!on), window: window)
        case "add":
            let property = try text(0)
            guard let value = try self.property(property, window: window).number else { throw .invalidParameter }
            let delta = args.count > 1 ? (Double(try text(1)) ?? .nan) : 1
            guard delta.isFinite else { throw .invalidParameter }
            try setProperty(property, to: .number(value + delta), window: window)
        case "observe_property":
            let watched = try text(1)
            _ = try property(watched, window: window)  // an unknown name is an error now, not silence later
            observations.append(Observation(connection: connection, id: try arg(0), name: watched, last: nil))
        case "unobserve_property":
            let id = try arg(0)
            observations.removeAll { $0.connection == connection && $0.id == id }
        case "seek":
            guard let tile = focusedTile, let amount = Double(try text(0)) else { throw .invalidParameter }
            let mode = args.count > 1 ? try text(1) : "relative"
            let duration = tile.player.currentItem?.duration?.seconds
            switch mode {
            case "relative", "relative+exact", "relative+keyframes":
                apply(.seek(amount), scope: .focused, window: window)
            case "absolute", "absolute+exact", "absolute+keyframes":
                apply(.seekTo(max(0, amount < 0 ? (duration ?? 0) + amount : amount)), scope: .focused, window: window)
            case "absolute-percent", "absolute-percent+exact":
                guard let duration else { throw .propertyUnavailable }
                apply(.seekTo(duration * min(max(amount, 0), 100) / 100), scope: .focused, window: window)
            default:
                throw .invalidParameter
            }
        case "loadfile":
            let path = try text(0)
            let mode = args.count > 1 ? try text(1) : "replace"
            try load(path, mode: mode, window: window)
        case "playlist-next":
            apply(.playlistNext, scope: .focused, window: window)
        case "playlist-prev":
            apply(.playlistPrevious, scope: .focused, window: window)
        case "frame-step":
            apply(.frameStep, scope: .focused, window: window)
        case "quit":
            quitRequested = true
        case "quit-watch-later":
            apply(.quitWatchLater, scope: .focused, window: window)
        case "screenshot-to-file":
            let url = URL(fileURLWithPath: try text(0))
            let flags = args.count > 1 ? try text(1) : "video"
            do {
                switch flags {
                case "window":
                    try Screenshots.writeWindow(window.window, to: url)
                case "video", "subtitles":
                    guard let player = focusedTile?.player, let item = player.currentItem, item.info?.hasVideo == true
                    else { throw IPCError.propertyUnavailable }
                    let time = player.shownFrameInterval?.start ?? player.currentTime.seconds
                    try Screenshots.writeVideo(item.name, at: MediaTime(seconds: time), to: url)
                default:
                    throw IPCError.invalidParameter
                }
            } catch let error as IPCError { throw error } catch {
                PlayerApp.printError("screenshot: \(error)")
                throw .commandFailed
            }
        case "write-watch-later-config":
            saveResumePositions(window: window)
        case "sub-add":
            guard let item = focusedTile?.player.currentItem else { throw .propertyUnavailable }
            item.addSubtitleFile(try text(0))
        case "pip-start":
            guard let tile = try tileArgument(args, window: window) else { throw .propertyUnavailable }
            startPiP(for: tile, window: window)
            guard pips.contains(where: { $0.tile === tile }) else { throw .commandFailed }
        case "pip-restore", "pip-close":
            // The given tile's mini window, or the one opened last.
            let tile = try tileArgument(args, window: window)
            guard let index = pips.lastIndex(where: { tile == nil || $0.tile === tile }) else { throw .propertyUnavailable }
            apply(name == "pip-restore" ? .restore : .close, toPiP: index, window: window)
        case "tile-focus":
            let target = try text(0)
            if target == "next" {
                apply(.focusNext, scope: .focused, window: window)
            } else {
                guard let index = Int(target), tiles.indices.contains(index) else { throw .invalidParameter }
                window.focus(index)
                updateAudibility(window)
            }
        case "tile-close":
            guard let tile = try tileArgument(args, window: window) else { throw .propertyUnavailable }
            window.focus(tiles.firstIndex { $0 === tile } ?? 0)
            apply(.closeTile, scope: .focused, window: window)
        case "client_name":
            return .string("ipc-\(connection)")
        case "get_version":
            return .string(DeskPlayerCommand.version)
        default:
            throw .invalidParameter
        }
        return .null
    }

    /// The tile an optional index argument names, else the focused one.
    private func tileArgument(_ args: [JSONValue], window: MainWindow) throws(IPCError) -> Tile? {
        guard let first = args.first else { return focusedTile }
        guard let index = first.number.map({ Int($0) }) ?? first.string.flatMap({ Int($0) }),
              tiles.indices.contains(index) else { throw .invalidParameter }
        return tiles[index]
    }

    /// `loadfile`: replace plays the file now in the focused tile (a new tile
    /// when there is none); append adds it to that tile's queue.
    private func load(_ path: String, mode: String, window: MainWindow) throws(IPCError) {
        guard ["replace", "append", "append-play"].contains(mode) else { throw .invalidParameter }
        guard mode != "replace", let tile = focusedTile else {
            load(path, window: window)  // plays now (in a new tile when none is left)
            return
        }
        tile.playlist.insert(PlayerItem(path, preferences: itemPreferences), after: nil)
        if mode == "append-play" && tile.ended {
            tile.ended = false
            tile.player.play()
        }
    }

    func property(_ name: String, window: MainWindow) throws(IPCError) -> JSONValue {
        if name == "tiles" {
            return .array(tiles.enumerated().map { index, tile in
                .object([("index", .number(Double(index))), ("filename", tile.player.currentItem.map { .string($0.name) } ?? .null),
                         ("focused", .bool(tile.view === window.focusedView)),
                         ("pip", .bool(pips.contains { $0.tile === tile })), ("pause", .bool(tile.player.isPaused))])
            })
        }
        if name == "fullscreen" { return .bool(window.window.isFullscreen) }
        guard ["pause", "time-pos", "duration", "volume", "mute", "loop-file", "playlist", "playlist-pos",
               "playlist-count", "filename", "path", "pip", "idle-active", "eof-reached",
               "track-list", "aid", "sid", "sub-delay", "sub-visibility", "sub-text", "paused-for-cache"].contains(name) else {
            throw .propertyNotFound
        }
        guard let tile = focusedTile else {
            if name == "idle-active" { return .bool(true) }
            throw .propertyUnavailable
        }
        let player = tile.player
        switch name {
        case "pause": return .bool(player.isPaused)
        case "time-pos":
            guard player.currentItem != nil else { throw .propertyUnavailable }
            return .number(player.currentTime.seconds)
        case "duration":
            guard let d = player.currentItem?.duration else { throw .propertyUnavailable }
            return .number(d.seconds)
        case "volume": return .number((Double(player.volume) * 100).rounded())
        case "mute": return .bool(player.isMuted)
        case "loop-file":
            guard let passes = player.passesPerItem else { return .string("inf") }
            return passes <= 1 ? .bool(false) : .number(Double(passes - 1))
        case "playlist":
            let current = tile.playlist.currentItem
            return .array((tile.playlist.history + tile.playlist.items).map { item in
                item === current ? .object([("filename", .string(item.name)), ("current", .bool(true)), ("playing", .bool(true))])
                    : .object([("filename", .string(item.name))])
            })
        case "playlist-pos":
            return .number(tile.playlist.currentItem == nil ? -1 : Double(tile.playlist.history.count))
        case "playlist-count": return .number(Double(tile.playlist.history.count + tile.playlist.items.count))
        case "filename":
            guard let item = player.currentItem else { throw .propertyUnavailable }
            return .string(DisplayText.shortName(item.name))
        case "path":
            guard let item = player.currentItem else { throw .propertyUnavailable }
            return .string(item.name)
        case "pip": return .bool(pips.contains { $0.tile === tile })
        case "idle-active": return .bool(player.currentItem == nil)
        case "eof-reached": return .bool(tile.ended)
        case "paused-for-cache": return .bool(player.isWaitingForData)
        case "track-list":
            guard let item = player.currentItem else { throw .propertyUnavailable }
            return .array(ipcTracks(item).map { entry in
                let t = entry.track
                var fields: [(String, JSONValue)] = [("id", .number(Double(entry.id))), ("type", .string(entry.type)),
                                                     ("codec", .string(t.codec)), ("default", .bool(t.isDefault)),
                                                     ("forced", .bool(t.isForced)), ("external", .bool(t.externalPath != nil)),
                                                     ("selected", .bool(entry.selected))]
                if t.externalPath == nil { fields.append(("src-id", .number(Double(t.id)))) }
                if let lang = t.language { fields.append(("lang", .string(lang))) }
                if let title = t.title { fields.append(("title", .string(title))) }
                if let path = t.externalPath { fields.append(("external-filename", .string(path))) }
                return .object(fields)
            })
        case "aid", "sid":
            guard let item = player.currentItem else { throw .propertyUnavailable }
            let type = name == "aid" ? "audio" : "sub"
            guard let selected = ipcTracks(item).first(where: { $0.type == type && $0.selected }) else { return .bool(false) }
            return .number(Double(selected.id))
        case "sub-delay":
            guard let item = player.currentItem else { throw .propertyUnavailable }
            return .number(item.subtitleDelay)
        case "sub-visibility":
            return .bool(player.currentItem?.subtitlesVisible ?? true)
        case "sub-text":
            guard let item = player.currentItem, let subtitles = item.pipeline?.subtitles,
                  let shown = player.shownFrameInterval else { return .string("") }
            // The lines on the frame on screen, without their ASS tags.
            let lines = subtitles.activeText(at: MediaTime(seconds: shown.start) - player.currentPassStart)
            return .string(lines.map { $0.replacingOccurrences(of: "\\{[^}]*\\}", with: "", options: .regularExpression)
                .replacingOccurrences(of: "\\N", with: "\n") }.joined(separator: "\n"))
        default: throw .propertyNotFound
        }
    }

    /// The item's tracks as mpv numbers them: from 1 within each type.
    private func ipcTracks(_ item: PlayerItem) -> [(id: Int, type: String, track: MediaTrack, selected: Bool)] {
        var counts: [String: Int] = [:]
        let audio = item.selectedAudioTrack, sub = item.selectedSubtitleTrack
        return item.tracks.compactMap { track in
            let type: String
            switch track.kind {
            case .video: type = "video"
            case .audio: type = "audio"
            case .subtitle: type = "sub"
            case .data, .attachment: return nil
            }
            counts[type, default: 0] += 1
            let selected = type == "audio" ? track.id == audio : type == "sub" ? track.id == sub : true
            return (counts[type] ?? 1, type, track, selected)
        }
    }

    private func setProperty(_ name: String, to value: JSONValue, window: MainWindow) throws(IPCError) {
        func flag() throws(IPCError) -> Bool {
            switch value {
            case .bool(let b): return b
            case .string("yes"): return true
            case .string("no"): return false
            default: throw .invalidParameter
            }
        }
        func number() throws(IPCError) -> Double {
            if let n = value.number ?? value.string.flatMap(Double.init), n.isFinite { return n }
            throw .invalidParameter
        }
        if name == "fullscreen" {
            window.window.setFullscreen(try flag())
            return
        }
        _ = try property(name, window: window)  // unknown: not found; no player: unavailable
        guard let player = focusedTile?.player else { throw .propertyUnavailable }
        switch name {
        case "pause": try flag() ? player.pause() : player.play()
        case "volume":
            player.volume = Float(min(max(try number(), 0), 100) / 100)
        case "mute": player.isMuted = try flag()
        case "time-pos": apply(.seekTo(max(0, try number())), scope: .focused, window: window)  // a sync group moves together
        case "loop-file":
            switch value {
            case .string("inf"), .bool(true): player.passesPerItem = nil
            case .string("no"), .bool(false): player.passesPerItem = 1
            default:
                let n = try number()
                guard n >= 0 else { throw .invalidParameter }
                player.passesPerItem = Int(n) + 1
            }
        case "aid", "sid":
            guard let item = player.currentItem else { throw .propertyUnavailable }
            let type = name == "aid" ? "audio" : "sub"
            let off: Bool
            switch value {
            case .bool(false), .string("no"): off = true
            default: off = false
            }
            if off && type == "sub" {
                item.selectSubtitleTrack(nil)
            } else {
                let id = Int(try number())
                guard let entry = ipcTracks(item).first(where: { $0.type == type && $0.id == id }) else { throw .invalidParameter }
                let done = type == "audio" ? player.selectAudioTrack(entry.track.id) : item.selectSubtitleTrack(entry.track.id)
                guard done else { throw .invalidParameter }
            }
            player.subtitlesChanged()
        case "sub-delay":
            player.currentItem?.subtitleDelay = try number()
            player.subtitlesChanged()
        case "sub-visibility":
            player.currentItem?.subtitlesVisible = try flag()
            player.subtitlesChanged()
        default: throw .invalidParameter  // read-only
        }
    }
}
