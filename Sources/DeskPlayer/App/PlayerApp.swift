import CSDL2
import Foundation

/// Sets up SDL, the audio device and the window, plays the command line's
/// files (as one queue, or one tile each with `--layout`), and applies every
/// command. Main thread only.
final class PlayerApp {
    let options: DeskPlayerCommand
    private let files: [String]
    private var stats: StatsReport
    private var anyPlayed = false
    var quitRequested = false

    init(options: DeskPlayerCommand) {
        self.options = options
        files = options.files
        stats = StatsReport(renderer: "none")
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data("deskplayer: \(line)\n".utf8))
    }

    /// Runs until everything has played, the window closes or `q`. Returns the exit code.
    func run() -> Int32 {
        guard !files.isEmpty || options.composition != nil else {
            PlayerApp.printError("no files given")
            print("Usage: " + DeskPlayerCommand.usageString())
            return 1
        }
        FFmpegLog.configure(verbose: options.verbose)
        if options.isComposition {
            guard let built = buildComposition() else { return 1 }
            if let out = options.exportAudio { return export(built, to: out) }
            composition = built
        }
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        // Pictures arrive already scaled to the size shown, so drawing is a
        // 1:1 copy: SDL's plain software renderer pushing the window with
        // XShm does that cheapest (a GL renderer on a software GL, as under
        // Xvfb, costs three times the CPU). SDL_RENDER_DRIVER and
        // SDL_FRAMEBUFFER_ACCELERATION in the environment still override.
        SDL_SetHintWithPriority(SDL_HINT_RENDER_DRIVER, "software", SDL_HINT_DEFAULT)
        SDL_SetHintWithPriority(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0", SDL_HINT_DEFAULT)
        guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_AUDIO | SDL_INIT_EVENTS) == 0 else {
            PlayerApp.printError(SDLError("cannot start SDL").message)
            return 1
        }
        defer { SDL_Quit() }
        let code = play()
        return code
    }

    // MARK: Compositions

    /// The command line's composition, its sources checked; nil (after
    /// saying why) when it cannot be played.
    private func buildComposition() -> Composition? {
        do {
            if let path = options.composition {
                let (built, skipped) = try CompositionFile.load(path, skipBad: options.skipBad,
                                                                duration: CompositionSource.duration(of:))
                for source in skipped { PlayerApp.printError("\(source): cannot be opened; left out (--skip-bad)") }
                return built
            }
            var sources: [(name: String, duration: Double)] = []
            for file in files {
                do { sources.append((file, try CompositionSource.duration(of: file))) } catch {
                    guard options.skipBad else { throw error }
                    PlayerApp.printError("\(error); left out (--skip-bad)")
                }
            }
            guard !sources.isEmpty else { throw MediaError("no source could be opened") }
            let built = try Composition.crossfade(sources, clip: options.clip, fade: options.crossfade ?? 0,
                                                  curve: options.crossfadeCurve)
            if let problem = built.problems().first { throw MediaError(problem.message) }
            return built
        } catch {
            PlayerApp.printError("\(error)")
            return nil
        }
    }

    /// `--export-audio`: renders offline with a progress bar, no window.
    private func export(_ composition: Composition, to path: String) -> Int32 {
        let started = HostTime.now()
        let terminal = isatty(STDERR_FILENO) != 0
        do {
            let warnings = try AudioExport(composition).write(to: URL(fileURLWithPath: path)) { done in
                guard terminal else { return }
                let width = 30, filled = Int(done * Double(width))
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
                FileHandle.standardError.write(Data(String(format: "\rExporting [%@] %3d %%", bar, Int(done * 100)).utf8))
            }
            if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
            for w in warnings { PlayerApp.printError(w) }
        } catch {
            if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
            PlayerApp.printError("\(error)")
            return 1
        }
        let seconds = Double(HostTime.now() - started) / 1e9
        FileHandle.standardError.write(Data(String(format: "Wrote %@: %.2f s of audio in %.2f s (%.0f× real time)\n",
                                                   path, composition.duration, seconds,
                                                   composition.duration / max(seconds, 1e-6)).utf8))
        return 0
    }

    /// One player in the window: its queue, its view, and what the App
    /// has reported of it.
    final class Tile {
        let playlist: QueuePlayer
        let view: PlayerView
        var ended = false
        var recorded = false
        var shownItem: PlayerItem?
        var player: Player { playlist.player }

        init(_ playlist: QueuePlayer, contentMode: ContentMode) {
            self.playlist = playlist
            view = PlayerView(player: playlist.player, contentMode: contentMode)
        }
    }

    var tiles: [Tile] = []
    /// What `--crossfade`/`--clip`/`--composition` built, played as one item.
    private var composition: Composition?
    /// Active Picture in Picture windows, each showing one tile's player.
    var pips: [(controller: PiPController, window: PiPWindow, tile: Tile)] = []
    let mixer = Mixer()
    private var background: Tile?
    /// The control socket (`--input-ipc-server`) and what its clients watch.
    private var ipc: IPCServer?
    lazy var screenshots = Screenshots(directory: options.screenshotDir)
    /// The desktop's file dialog while it is open, and what the built-in list shows.
    var dialog: FileDialog?
    var listMode: ListMode?
    /// Shift+Q's positions (nil with --no-resume).
    var resume: ResumeStore?
    var observations: [Observation] = []
    var lastReportedPause: Bool?
    private(set) weak var mainWindow: MainWindow?

    func makeTile(_ names: [String], start: MediaTime?, passes: Int?, decoderThreads: Int = 0) -> Tile {
        var preferences = itemPreferences
        preferences.videoDecoderThreads = decoderThreads
        var items = names.map { PlayerItem($0, preferences: preferences) }
        var start = start
        if start == nil, let first = names.first, let seconds = resume?.position(of: first) {
            // Resumed once, as mpv does: the entry goes.
            start = MediaTime(seconds: seconds)
            resume?.set(nil, for: first)
            do { try resume?.save() } catch { PlayerApp.printError("\(error)") }
            mainWindow?.showMessage("Resuming \(DisplayText.shortName(first)) at \(DisplayText.clock(seconds))", seconds: 3)
        }
        if let start, let first = items.first {
            items[0] = PlayerItem(first.name, preferences: preferences, start: start)
        }
        return makeTile(items, passes: passes)
    }

    func makeTile(_ items: [PlayerItem], passes: Int?) -> Tile {
        let player = Player()
        player.volume = Float(options.volume) / 100
        player.isMuted = options.mute
        player.passesPerItem = passes
        let playlist = QueuePlayer(player: player, items: items) { $0.reopened() }
        playlist.loopsQueue = options.playlistLoop
        return Tile(playlist, contentMode: options.contentMode)
    }

    private func play() -> Int32 {
        let device: AudioDevice?
        do { device = try AudioDevice(mixer: mixer) } catch {
            PlayerApp.printError("\(error); playing without sound")
            device = nil
        }
        let geometry = options.geometry
        let window: MainWindow
        do {
            window = try MainWindow(title: "DeskPlayer", width: geometry?.width ?? 1280, height: geometry?.height ?? 720,
                                    position: geometry.flatMap { g in g.x.map { ($0, g.y ?? 0) } })
        } catch {
            PlayerApp.printError("\(error)")
            return 1
        }
        stats = StatsReport(renderer: window.window.rendererName)
        mainWindow = window
        if !options.noResume {
            var store = ResumeStore()
            if let problem = store.load() { PlayerApp.printError(problem) }
            resume = store
        }
        if !options.noConfig, let (path, text) = ConfigFiles.read("input.conf") {
            let (table, problems) = KeyBindings.applying(inputConf: text, file: path, to: window.bindings)
            window.bindings = table
            for problem in problems {
                PlayerApp.printError(problem + "; line skipped")
                window.showMessage(problem, seconds: 4)
            }
        }
        if let path = options.inputIPCServer {
            do { ipc = try IPCServer(path: path) } catch {
                PlayerApp.printError("\(error)")
                return 1
            }
        }
        defer { ipc = nil }  // removes the socket file
        window.layout = options.layout ?? .grid

        // With a layout (or sync) every file is a tile; otherwise one tile plays them as a queue.
        let start = options.start.map { MediaTime(seconds: $0) }
        let synced = options.sync || options.compare != nil
        window.wipe = options.compare == .wipe
        let tileMode = options.layout != nil || synced
        // Many tiles share the cores better with one decoder thread each.
        let threads = tileMode && files.count >= 4 ? 1 : 0
        if let composition {
            let name = options.composition ?? "Crossfade of \(composition.tracks.count) files"
            tiles = [makeTile([PlayerItem(composition: composition, name: name, start: start ?? .zero)], passes: passes)]
        } else {
            tiles = tileMode ? files.map { makeTile([$0], start: start, passes: passes, decoderThreads: threads) }
                : [makeTile(files, start: start, passes: passes)]
        }
        if let file = options.background {
            let tile = makeTile([file], start: nil, passes: nil, decoderThreads: 1)
            tile.view.contentMode = .fill
            tile.player.isAudible = false
            background = tile
            window.background = tile.view
            mixer.add(tile.player.audio)
            tile.player.play()
        }
        if synced, let master = tiles.first?.player {
            // One clock for the group: the first tile's; the others' pictures follow it.
            for tile in tiles.dropFirst() { tile.player.syncClock = master.clock }
        }
        for tile in tiles {
            mixer.add(tile.player.audio)
            window.add(tile.view)
            if options.pause { tile.player.pause() } else { tile.player.play() }
        }
        updateAudibility(window)
        window.onCommand = { [unowned self, unowned window] command, scope in
            self.apply(command, scope: scope, window: window)
        }
        window.onListAction = { [unowned self, unowned window] action in self.listAction(action, window: window) }
        window.onDrop = { [unowned self, unowned window] path, index in
            // A subtitle file goes to the tile it lands on (or the focused one).
            if SubtitleFile.isSubtitleFile(path),
               let tile = index.flatMap({ self.tiles.indices.contains($0) ? self.tiles[$0] : nil }) ?? self.focusedTile,
               let item = tile.player.currentItem {
                item.addSubtitleFile(path)
                window.showMessage("Loading subtitles: \((path as NSString).lastPathComponent)", seconds: 2)
                return
            }
            // On a tile: it plays there; elsewhere (or no tile): a new tile.
            if let index, self.tiles.indices.contains(index) {
                self.play(path, in: self.tiles[index])
            } else {
                self.addTile(self.makeTile([path], start: nil, passes: self.passes), window: window)
            }
        }
        window.onOtherWindowEvent = { [unowned self, unowned window] id, event in
            guard let index = self.pips.firstIndex(where: { $0.window.id == id }),
                  let action = self.pips[index].window.handle(event) else { return }
            self.apply(action, toPiP: index, window: window)
        }
        if options.pip, let first = tiles.first { startPiP(for: first, window: window) }
        var frameLog: [(MediaTime, UInt64)] = []
        if options.frameLog != nil, let first = tiles.first {
            frameLog.reserveCapacity(1 << 16)
            first.player.onFramePresented = { frameLog.append(($0, $1)) }
        }
        // A scripted player stays open for its client's next command.
        let keepOpen = options.keepOpen || ipc != nil
        let started = HostTime.now()
        var playingSince: UInt64?
        var failureShownUntil: UInt64?

        while !quitRequested {
            let now = HostTime.now()
            var due = background?.player.timeUntilNextFrame(at: now)
            for tile in tiles {
                if let t = tile.player.timeUntilNextFrame(at: now) { due = min(due ?? t, t) }
            }
            // Wake when the next frame is due (rounded up: early is worse than
            // a fraction of a millisecond late), and at least every 10 ms.
            let wait = due.map { Int32(max(0, min(($0 * 1000).rounded(.up), 10))) } ?? 10
            if !window.pumpEvents(timeoutMs: wait) { break }
            let tick = HostTime.now()
            window.refresh(at: tick)
            let fullscreen = window.window.isFullscreen ? window.window : nil
            for pip in pips {
                pip.window.stayAbove(fullscreen: fullscreen)
                pip.window.refresh(at: tick, text: window.text)
            }
            if let ipc { serveIPC(ipc, window: window) }
            if let chosen = dialog?.takeResult() {
                dialog = nil
                open(chosen, window: window)
            }
            for problem in FFmpegLog.takeStreamProblems() {
                // A segment that could not be read is skipped (a short gap): say so.
                let line = "stream: " + problem
                PlayerApp.printError(line)
                window.showMessage(line, seconds: 3)
            }
            for result in screenshots.takeFinished() {
                switch result {
                case .success(let url):
                    print("Screenshot: \(url.path)")
                    window.showMessage("Screenshot: \(url.path)", seconds: 3)
                case .failure(let error):
                    PlayerApp.printError("screenshot: \(error)")
                    window.showMessage("Screenshot: \(error)", seconds: 3)
                }
            }
            if synced, let master = tiles.first?.player, !master.isPaused { measureSync(master, at: tick) }
            _ = background?.playlist.takeEvents()
            for tile in tiles {
                handleEvents(of: tile, window: window, tick: tick, playingSince: &playingSince)
            }
            if !tiles.isEmpty, tiles.allSatisfy({ $0.ended }) {
                if !keepOpen {
                    if anyPlayed { break }
                    // Nothing could be played: leave the error on screen a moment.
                    failureShownUntil = failureShownUntil ?? tick + 3_000_000_000
                }
            }
            if tiles.isEmpty && !keepOpen { break }
            if let until = failureShownUntil, tick >= until { break }
            if let limit = options.quitAfter {
                let since = playingSince ?? started
                if Double(tick &- since) / 1e9 >= limit { break }
            }
        }
        for tile in tiles { recordOnce(tile) }
        pips.removeAll()
        for tile in tiles + [background].compactMap({ $0 }) {
            mixer.remove(tile.player.audio)
            tile.playlist.removeAllItems()
        }
        // The views own textures of this window's renderer: free them while it
        // and SDL still exist.
        tiles.removeAll()
        background = nil
        withExtendedLifetime(device) {}  // sound until here
        if let path = options.statsJSON {
            do { try stats.write(to: path) } catch { PlayerApp.printError("cannot write \(path): \(error)") }
        }
        if let path = options.frameLog {
            let origin = frameLog.first?.1 ?? 0
            let lines = frameLog.map { String(format: "%.6f,%.3f", $0.0.seconds, Double($0.1 &- origin) / 1e6) }
            let text = "pts_s,presented_ms\n" + lines.joined(separator: "\n") + "\n"
            do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
                PlayerApp.printError("cannot write \(path): \(error)")
            }
        }
        return anyPlayed ? 0 : 1
    }

    private func handleEvents(of tile: Tile, window: MainWindow, tick: UInt64, playingSince: inout UInt64?) {
        let player = tile.player
        for event in tile.playlist.takeEvents() {
            switch event {
            case .readyToPlay:
                ipc?.broadcast(ipcEvent("file-loaded"))
                if let name = player.currentItem?.name, player.currentItem?.composition == nil { rememberRecent(name) }
                if let variant = player.currentItem?.variant { window.showMessage("HLS variant: \(variant.label)", seconds: 3) }
                anyPlayed = true
                tile.ended = false
                if playingSince == nil { playingSince = tick }
            case .itemFailed(let item, let error):
                let line = "\(item.name): \(error)"
                PlayerApp.printError(line)
                ipc?.broadcast(ipcEvent("end-file", [("reason", .string("error")), ("file_error", .string("\(error)"))]))
                stats.record(item, PlayerStats())
                if tile.playlist.currentItem != nil {
                    // Playback moves on: keep the error in sight a moment.
                    window.showMessage(line, seconds: 4)
                } else {
                    // Nothing left in this tile: it shows the error; the others go on.
                    player.replaceCurrentItem(with: item)
                    tile.ended = true
                    tile.recorded = true
                }
            case .warning(let text):
                let line = "\(player.currentItem?.name ?? "?"): \(text)"
                PlayerApp.printError(line)
                window.showMessage(line)
            case .advanced(let from, let itemStats):
                stats.record(from, itemStats)
                ipc?.broadcast(ipcEvent("end-file", [("reason", .string("eof"))]))
            case .didPlayToEnd:
                ipc?.broadcast(ipcEvent("end-file", [("reason", .string("eof"))]))
                recordOnce(tile)
                tile.ended = true
            case .failed:
                break
            }
        }
        if player.currentItem !== tile.shownItem {
            tile.shownItem = player.currentItem
            tile.recorded = false
            if tiles.count == 1, let name = tile.shownItem?.name {
                window.window.setTitle("\(DisplayText.shortName(name)) - DeskPlayer")
            }
        }
    }

    /// Adds the tile's current item to the stats report, once. (A failed item
    /// was reported when it failed.)
    private func recordOnce(_ tile: Tile) {
        guard !tile.recorded, let item = tile.player.currentItem, item.error == nil else { return }
        stats.record(item, tile.player.stats)
        tile.recorded = true
    }

    /// How far any synced tile's picture is from the one due on the group clock.
    private func measureSync(_ master: Player, at now: UInt64) {
        let t = master.clock.time(at: now)
        var worst = stats.maxSyncErrorMs ?? 0
        for tile in tiles {
            // A tile past its end holds its last frame by design.
            guard !tile.ended, let shown = tile.player.shownFrameInterval else { continue }
            // Lateness: a frame still on screen after its interval ended. (The
            // first frame after a start or seek is shown early on purpose,
            // while the audio fills; that is not counted.)
            let error = max(0, t - shown.end)
            worst = max(worst, error * 1000)
        }
        stats.maxSyncErrorMs = (worst * 100).rounded() / 100
    }

    /// Only the focused tile is heard, unless `--audio all`.
    func updateAudibility(_ window: MainWindow) {
        for tile in tiles {
            tile.player.isAudible = options.audio == .all || tiles.count == 1 || tile.view === window.focusedView
                || pips.contains { $0.tile === tile }
        }
    }

    func apply(_ command: Command, scope: CommandScope, window: MainWindow) {
        let transport: Bool
        switch command {
        case .togglePause, .seek, .seekTo, .frameStep: transport = true
        default: transport = false
        }
        // A sync group moves together.
        let synced = options.sync || options.compare != nil
        let targets = scope == .all || (synced && transport) ? tiles
            : tiles.filter { $0.view === window.focusedView }
        if synced, case .togglePause = command, let master = tiles.first?.player {
            let play = master.isPaused
            for tile in targets { play ? tile.player.play() : tile.player.pause() }
            return
        }
        if synced, case .seek(let seconds) = command, let master = tiles.first?.player {
            let target = MediaTime(seconds: max(0, master.currentTime.seconds + seconds))
            for tile in targets { tile.player.seek(to: target) }
            return
        }
        if synced, case .seekTo(let seconds) = command {
            for tile in targets { tile.player.seek(to: MediaTime(seconds: max(0, seconds))) }
            return
        }
        switch command {
        case .focusNext:
            window.focus(tiles.isEmpty ? 0 : (window.focusedIndex + 1) % tiles.count)
            updateAudibility(window)
            return
        case .toggleFullscreen:
            window.window.setFullscreen(!window.window.isFullscreen)
            return
        case .leaveFullscreen:
            window.window.setFullscreen(false)
            return
        case .quit:
            quitRequested = true
            return
        case .quitWatchLater:
            saveResumePositions(window: window)
            quitRequested = true
            return
        case .toggleHelp:
            window.showsHelp.toggle()
            return
        case .screenshotWindow:
            screenshots.takeWindow(window.window)
            return
        case .openFiles:
            openFiles(window: window)
            return
        case .recentFiles:
            showRecentFiles(window: window)
            return
        default:
            break
        }
        for tile in targets { apply(command, to: tile, window: window) }
    }

    private func apply(_ command: Command, to tile: Tile, window: MainWindow) {
        let player = tile.player
        switch command {
        case .playlistNext:
            tile.playlist.advanceToNextItem()
            player.play()
        case .playlistPrevious:
            tile.playlist.playPrevious()
            player.play()
        case .togglePause:
            player.togglePause()
        case .seek(let seconds):
            player.seek(by: seconds)
        case .seekTo(let seconds):
            player.seek(to: MediaTime(seconds: max(0, seconds)))
        case .setVolume(let percent):
            player.volume = Float(min(max(percent, 0), 100)) / 100
        case .adjustVolume(let delta):
            let percent = min(100, max(0, Int((player.volume * 100).rounded()) + delta))
            player.volume = Float(percent) / 100
            window.showMessage("Volume \(percent) %", seconds: 1.5, topic: "Volume")
        case .toggleMute:
            player.isMuted.toggle()
            window.showMessage(player.isMuted ? "Mute" : "Unmute", seconds: 1.5, topic: player.isMuted ? "Unmute" : "Mute")
        case .toggleLoop:
            player.passesPerItem = player.passesPerItem == nil ? 1 : nil
            window.showMessage(player.passesPerItem == nil ? "Loop: on" : "Loop: off", seconds: 1.5, topic: "Loop")
        case .frameStep:
            player.stepFrame()
        case .cycleContentMode:
            let all = ContentMode.allCases
            tile.view.contentMode = all[((all.firstIndex(of: tile.view.contentMode) ?? 0) + 1) % all.count]
            tile.view.resetPicture()
            window.showMessage("Content mode: \(tile.view.contentMode.rawValue)", seconds: 1.5, topic: "Content mode")
        case .closeTile:
            close(tile, window: window)
        case .startPiP:
            startPiP(for: tile, window: window)
        case .screenshot:
            guard let item = player.currentItem, item.info?.hasVideo == true else {
                window.showMessage("No video to take a screenshot of", seconds: 2)
                return
            }
            screenshots.takeVideo(item.name, at: MediaTime(seconds: player.shownFrameInterval?.start ?? player.currentTime.seconds))
        case .cycleSubtitles(let forward):
            cycleSubtitles(forward: forward, in: tile, window: window)
        case .cycleAudio:
            cycleAudio(in: tile, window: window)
        case .adjustSubtitleDelay(let seconds):
            guard let item = player.currentItem else { return }
            item.subtitleDelay = ((item.subtitleDelay + seconds) * 1000).rounded() / 1000
            player.subtitlesChanged()
            window.showMessage("Subtitle delay: \(Int((item.subtitleDelay * 1000).rounded())) ms", seconds: 1.5, topic: "Subtitle delay")
        case .toggleSubtitles:
            guard let item = player.currentItem else { return }
            item.subtitlesVisible.toggle()
            player.subtitlesChanged()
            window.showMessage(item.subtitlesVisible ? "Subtitles visible" : "Subtitles hidden", seconds: 1.5, topic: "Subtitles")
        case .focusNext, .toggleFullscreen, .leaveFullscreen, .toggleHelp, .screenshotWindow, .openFiles, .recentFiles,
             .quit, .quitWatchLater:
            break
        }
    }

    /// Subtitle tracks in order, then none (mpv's j / J).
    private func cycleSubtitles(forward: Bool, in tile: Tile, window: MainWindow) {
        guard let item = tile.player.currentItem else { return }
        let tracks = item.tracks.filter { $0.kind == .subtitle }
        guard !tracks.isEmpty else {
            window.showMessage("No subtitles", seconds: 1.5)
            return
        }
        let choices: [Int?] = tracks.map(\.id) + [nil]
        let now = choices.firstIndex(of: item.selectedSubtitleTrack) ?? choices.count - 1
        let next = choices[(now + (forward ? 1 : choices.count - 1)) % choices.count]
        item.selectSubtitleTrack(next)
        tile.player.subtitlesChanged()
        if let i = tracks.firstIndex(where: { $0.id == next }) {
            window.showMessage("Subtitles \(i + 1)/\(tracks.count): \(tracks[i].label)", seconds: 2, topic: "Subtitles")
        } else {
            window.showMessage("Subtitles: off", seconds: 1.5, topic: "Subtitles")
        }
    }

    /// The next audio track (mpv's #).
    private func cycleAudio(in tile: Tile, window: MainWindow) {
        guard let item = tile.player.currentItem else { return }
        let tracks = item.tracks.filter { $0.kind == .audio }
        guard tracks.count > 1, let now = tracks.firstIndex(where: { $0.id == item.selectedAudioTrack }) else {
            window.showMessage(tracks.isEmpty ? "No audio" : "Audio: one track only", seconds: 1.5)
            return
        }
        let next = (now + 1) % tracks.count
        if tile.player.selectAudioTrack(tracks[next].id) {
            window.showMessage("Audio \(next + 1)/\(tracks.count): \(tracks[next].label)", seconds: 2, topic: "Audio")
        } else {
            window.showMessage("Audio \(next + 1)/\(tracks.count) cannot play", seconds: 2)
        }
    }

    /// Remembers where each tile's file is (mpv's watch later). A file near
    /// its end is forgotten instead: next time it starts over.
    func saveResumePositions(window: MainWindow) {
        var store = ResumeStore()
        _ = store.load()  // another player's entries stay
        for tile in tiles {
            guard let item = tile.player.currentItem, item.composition == nil else { continue }
            let position = tile.player.currentTime.seconds
            let nearEnd = item.duration.map { position > $0.seconds - 1 } ?? false
            store.set(nearEnd ? nil : position, for: item.name)
        }
        do { try store.save() } catch {
            PlayerApp.printError("\(error)")
            window.showMessage("\(error)")
        }
    }

    /// A tile opened after start (the control socket's `loadfile` with no tile left).
    func addTile(_ tile: Tile, window: MainWindow) {
        tiles.append(tile)
        mixer.add(tile.player.audio)
        window.add(tile.view)
        window.focus(tiles.count - 1)
        tile.player.play()
        updateAudibility(window)
    }

    /// A closed tile stops: its decoders, threads and buffers are freed.
    private func close(_ tile: Tile, window: MainWindow) {
        recordOnce(tile)
        window.remove(tile.view)
        mixer.remove(tile.player.audio)
        tile.playlist.removeAllItems()
        tiles.removeAll { $0 === tile }
        updateAudibility(window)
        FreedMemory.release()
    }

    // MARK: Picture in Picture

    func startPiP(for tile: Tile, window: MainWindow) {
        guard !pips.contains(where: { $0.tile === tile }) else { return }
        guard pips.count < options.maxPip else {
            window.showMessage("At most \(options.maxPip) Picture in Picture windows", seconds: 2)
            return
        }
        let controller = PiPController(player: tile.player)
        var opened: PiPWindow?
        controller.start {
            let info = tile.player.currentItem?.info
            let aspect = info.map { Double($0.displayWidth) / Double(max($0.displayHeight, 1)) } ?? 16.0 / 9
            opened = try PiPWindow(player: tile.player, aspect: info?.hasVideo == true ? aspect : 16.0 / 9,
                                   title: "\(DisplayText.shortName(tile.player.currentItem?.name ?? "")) - PiP")
        }
        report(controller.takeEvents(), window: window)
        guard let pipWindow = opened else { return }
        // Not reopened, not reseeked: the player keeps playing; only its
        // pictures now go to the mini window's view.
        tile.view.isDetached = true
        pips.append((controller, pipWindow, tile))
        updateAudibility(window)
    }

    func apply(_ action: PiPWindow.Action, toPiP index: Int, window: MainWindow) {
        let pip = pips[index]
        switch action {
        case .togglePause:
            pip.tile.player.togglePause()
        case .restore:
            pip.controller.stop(restore: true) { pips.remove(at: index) }
            restore(pip.tile, window: window)
            report(pip.controller.takeEvents(), window: window)
        case .close:
            pip.controller.stop(restore: false) { pips.remove(at: index) }
            close(pip.tile, window: window)
            report(pip.controller.takeEvents(), window: window)
        case .play(let path):
            play(path, in: pip.tile)
        }
    }

    /// The PiP player goes back into the main window in the focused tile's
    /// place; the player that was there stops and frees its resources.
    private func restore(_ tile: Tile, window: MainWindow) {
        tile.view.isDetached = false
        if let focused = tiles.first(where: { $0.view === window.focusedView }), focused !== tile {
            window.remove(tile.view)
            window.replace(focused.view, with: tile.view)
            recordOnce(focused)
            mixer.remove(focused.player.audio)
            focused.playlist.removeAllItems()
            tiles.removeAll { $0 === tile }
            if let index = tiles.firstIndex(where: { $0 === focused }) { tiles[index] = tile }
            FreedMemory.release()
        }
        window.raise()
        updateAudibility(window)
    }

    private func report(_ events: [PiPController.Event], window: MainWindow) {
        for event in events {
            switch event {
            case .didStart: ipc?.broadcast(ipcEvent("pip-started"))
            case .didStop: ipc?.broadcast(ipcEvent("pip-stopped"))
            case .failedToStart(let reason):
                ipc?.broadcast(ipcEvent("pip-failed", [("error", .string(reason))]))
                PlayerApp.printError("Picture in Picture: \(reason)")
                window.showMessage("Picture in Picture: \(reason)")
            default: break
            }
        }
    }
}
