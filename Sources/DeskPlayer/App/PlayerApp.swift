// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Control
import Foundation
import Media
import Output
// SDL's headers bring X11's `Window` too; this one is meant.
import class Output.Window
import Playback
import UI

/// Sets up SDL, the audio device and the window, makes the tiles the
/// command line asks for, and runs the main loop: input to the controller,
/// a refresh per frame due, player events to the OSD, the socket and the
/// statistics. Main thread only.
final class PlayerApp {
    let options: DeskPlayerCommand
    var stats = StatsReport(renderer: "none")
    var anyPlayed = false
    private let mixer = Mixer()
    let tiles: TileSet
    private let factory: TileFactory
    let controller: CommandController
    /// A muted video looping behind the tiles (`--background`).
    private var background: Tile?
    var socket: ControlSocket?
    /// MPRIS on the session bus (nil without one).
    private var mpris: MPRISService?
    var autoPiP: AutoPiP?
    private var title: WindowTitle
    private var chapterAnnouncer = ChapterAnnouncer()
    /// When the first item became ready (`--quit-after` counts from there).
    var playingSince: UInt64?
    /// The window took the first video's aspect (or was left as it was).
    var fittedToVideo = false
    /// The window has the last run's size and place (it keeps them, as with --geometry).
    var usesRememberedWindow = false

    init(options: DeskPlayerCommand) {
        self.options = options
        tiles = TileSet(mixer: mixer)
        factory = TileFactory(options: options)
        controller = CommandController(tiles: tiles, factory: factory,
                                       screenshots: Screenshots(directory: options.screenshotDir))
        title = WindowTitle(template: options.title)
        if let folder = options.recordTo { controller.recording.folder = URL(fileURLWithPath: folder) }
        if !options.noMicrophone {
            controller.recording.microphone = CameraOption.microphone(options.microphone ?? CameraOption.defaultMicrophone)
        }
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data("deskplayer: \(DisplayText.bounded(line))\n".utf8))
    }

    /// Runs until everything has played, the window closes or `q`. Returns the exit code.
    func run() -> Int32 {
        guard !options.files.isEmpty || options.composition != nil || options.idleMode != .no else {
            PlayerApp.printError("no files given")
            print("Usage: " + DeskPlayerCommand.usageString())
            return 1
        }
        FFmpegLog.configure(verbose: options.verbose)
        if options.scan { return ScanMode.run(options) }
        if options.compareExport != nil { return CompareExportMode.run(options) }
        if options.compare != nil, let path = options.compareMetricsOut {
            // Said before the window opens, not after the whole comparison has played.
            do { _ = try MetricsCSV(path: path) } catch {
                PlayerApp.printError("\(error)")
                return 1
            }
        }
        var composition: Composition?
        if options.isComposition {
            guard let built = CompositionMode.build(options) else { return 1 }
            if let out = options.exportAudio { return CompositionMode.export(built, to: out) }
            composition = built
        }
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        // SDL holds the screen saver off from the start; DeskPlayer does it
        // only while a video plays in sight (mpv's stop-screensaver).
        SDL_SetHintWithPriority(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1", SDL_HINT_DEFAULT)
        // Before SDL_Init, so that SDL puts it back at SDL_Quit (shim.h).
        dp_install_x_error_handler()
        // Audio starts on the audio output's own thread: a missing audio
        // server must not keep the window from opening.
        guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else {
            PlayerApp.printError(SDLError("cannot start SDL").message)
            return 1
        }
        MainThreadWake.register()
        defer { SDL_Quit() }
        chooseRenderer()
        return play(composition)
    }

    // MARK: Set-up

    /// `--vo`: with a real GPU (or `gpu`), SDL's accelerated renderer gets
    /// each video's YUV at its own size and converts and scales it there.
    /// Otherwise pictures arrive already scaled to the size shown, so
    /// drawing is a 1:1 copy: SDL's plain software renderer pushing the
    /// window with XShm does that cheapest (a GL renderer on a software GL,
    /// as under Xvfb, costs three times the CPU). SDL_RENDER_DRIVER and
    /// SDL_FRAMEBUFFER_ACCELERATION in the environment still override.
    private func chooseRenderer() {
        let gpu: Bool
        switch options.videoOutput {
        case .gpu: gpu = true
        case .x11: gpu = false
        case .auto:
            let name = Window.hardwareRendererName()
            if options.verbose { PlayerApp.printError("renderer: \(name.map { "GPU \($0)" } ?? "no GPU, software")") }
            gpu = name != nil
        }
        guard !gpu else { return }
        SDL_SetHintWithPriority(SDL_HINT_RENDER_DRIVER, "software", SDL_HINT_DEFAULT)
        SDL_SetHintWithPriority(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0", SDL_HINT_DEFAULT)
    }

    private func play(_ composition: Composition?) -> Int32 {
        // Sound through whatever audio the desktop has, and on through its outages.
        let audio = AudioOutput(mixer: mixer, device: options.audioDevice)
        defer { audio.shutDown() }  // sound until here; closed before SDL quits
        controller.audioOutput = audio
        let remembered = loadRemembered()
        factory.remembered = remembered
        let geometry = options.geometry
        let frame = PlayerApp.rememberedFrame(remembered, options)
        usesRememberedWindow = frame != nil
        let window: MainWindow
        do {
            window = try MainWindow(title: "DeskPlayer", width: geometry?.width ?? frame?.width ?? 1280,
                                    height: geometry?.height ?? frame?.height ?? 720,
                                    position: geometry.flatMap { g in g.x.map { ($0, g.y ?? 0) } } ?? frame.map { ($0.x, $0.y) },
                                    uiScale: options.uiScale)
        } catch {
            PlayerApp.printError("\(error)")
            return 1
        }
        stats = StatsReport(renderer: window.window.rendererName)
        factory.picturesForGPU = !window.window.isSoftware
        if let path = options.inputIPCServer {
            do { socket = try ControlSocket(path: path, arrived: MainThreadWake.post) } catch {
                PlayerApp.printError("\(error)")
                return 1
            }
        }
        defer { socket = nil }  // removes the socket file
        mpris = MPRISService.start(controller: controller, verbose: options.verbose)
        defer { mpris = nil }  // leaves the bus
        connect(window)
        makeTiles(composition, window: window)
        if options.scope != .none { controller.scopes?.show(options.scope) }
        if options.compareMetrics != nil || options.compareMetricsOut != nil {
            controller.compareMetrics?.measure(options.compareMetrics?.metrics ?? Set(VideoMetric.allCases))
        }
        CompareSession.tilesMade(options, controller: controller)
        if options.pip { run { () throws(CommandError) in try controller.apply(.pipStart(0), from: .commandLine) } }
        let frameLog = FrameLog(path: options.frameLog, player: tiles.tiles.first?.player)
        let code = runLoop(window)
        saveRemembered(window)
        controller.compareMetrics?.finish()
        controller.compareAlignment.stop()
        controller.compareExport.stop()
        controller.recording.stop()
        controller.scopes?.close()
        shutDown()
        window.holdsOffScreenSaver = false
        if let path = options.statsJSON {
            (stats.fullPresents, stats.tilePresents) = (window.fullPresents, window.tilePresents)
            stats.recordThumbnails(waits: window.thumbnailWaits, ready: window.thumbnailsReady)
            do { try stats.write(to: path) } catch { PlayerApp.printError("cannot write \(path): \(error)") }
        }
        frameLog?.write()
        return code
    }

    /// Wires the window, the tiles, the controller and the mini windows together.
    private func connect(_ window: MainWindow) {
        if !options.noResume {
            var store = ResumeStore()
            if let problem = store.load() { PlayerApp.printError(problem) }
            factory.resume = store
        }
        factory.screen = window
        factory.displayInterval = window.window.refreshInterval
        tiles.screen = window
        tiles.allAudible = options.audio == .all
        tiles.onRetire = { [unowned self] tile in recordOnce(tile) }
        controller.screen = window
        controller.opener = MediaOpener(controller: controller)
        controller.library = LibraryRoll(controller: controller)
        controller.library?.compareWindow = { [unowned self, weak window] in window.map { ($0, factory) } }
        let pips = PiPManager(limit: options.maxPip, tiles: tiles, text: window.text)
        pips.screen = window
        // Weak: the window's handler holds the PiP manager and the manager's
        // handler the window, and a cycle kept both (and the tiles, players
        // and SDL objects behind them) alive past the app (LeakSanitizer).
        pips.onEvent = { [unowned self, weak window] event in
            guard let window else { return }
            report(event, window: window)
        }
        controller.pips = pips
        if options.pipAuto { autoPiP = AutoPiP(controller: controller) }
        // Before input.conf: its lines rebind the comparison's keys too.
        if let mode = options.compare { CompareSession.start(mode, options, window: window, controller: controller, factory: factory) }
        if !options.noConfig, let (path, text) = ConfigFiles.read("input.conf") {
            let (table, problems) = KeyBindings.applying(inputConf: text, file: path, to: controller.bindings)
            controller.bindings = table
            let (menu, menuProblems) = MenuTable.applying(inputConf: text, file: path, to: controller.menuTable)
            controller.menuTable = menu
            for problem in problems + menuProblems {
                PlayerApp.printError(problem + "; line skipped")
                window.showMessage(problem, seconds: 4)
            }
        }
        window.layout = options.layout ?? .grid
        controller.scopes = Scopes(window: window)
        // The second file against the first (with more renditions, still the second).
        if options.compare != nil, options.files.count >= 2 {
            controller.compareMetrics = CompareMetrics(reference: options.files[0], other: options.files[1],
                                                       csvPath: options.compareMetricsOut, window: window)
        }
        window.showsThumbnails = options.thumbnails == .yes
        if options.library { controller.library?.open() }
        window.onAction = { [unowned self] action in handle(action) }
        window.onOtherWindowEvent = { [unowned self, weak pips] event in
            guard let (tile, action) = pips?.handle(event) else { return }
            handle(action, fromPiPOf: tile)
        }
    }

    /// With a layout (or sync) every file is a tile; otherwise one tile plays them as a queue.
    private func makeTiles(_ composition: Composition?, window: MainWindow) {
        let start = options.start.map { MediaTime(seconds: $0) }
        let synced = options.sync || options.compare != nil
        let tileMode = options.layout != nil || synced
        // Many tiles share the cores better with one decoder thread each.
        let threads = tileMode && options.files.count >= 4 ? 1 : 0
        let made: [Tile]
        if let composition {
            let name = CompositionMode.name(of: composition, options)
            made = [factory.tile([PlayerItem(composition: composition, name: name, start: start ?? .zero)])]
        } else if options.files.isEmpty {
            made = []  // the idle window: files come by drop, Ctrl+O, Ctrl+R, the socket, MPRIS
        } else {
            made = tileMode ? options.files.map { factory.tile([$0], start: start, decoderThreads: threads) }
                : [factory.tile(options.files, start: start)]
        }
        if let file = options.background {
            let tile = factory.tile([file], decoderThreads: 1)
            tile.view.contentMode = .fill
            tile.player.isAudible = false
            tile.player.passesPerItem = nil
            background = tile
            window.background = tile.view
            mixer.add(tile.player.audio)
            tile.player.play()
        }
        for tile in made { tiles.add(tile, paused: options.pause) }
        if synced { tiles.synchronize(made) }
    }

    // MARK: Main loop

    /// Whether the window stays open with nothing (more) to play: a
    /// scripted player waits for its client's next command, an idle one
    /// for files (`--idle=once` only until something has played).
    private var staysOpen: Bool {
        if options.keepOpen || socket != nil { return true }
        switch options.idleMode {
        case .no: return false
        case .yes: return true
        case .once: return !anyPlayed
        }
    }

    /// Every tile's player events, and the background's (taken, not shown).
    private func handleAllEvents(_ window: MainWindow, tick: UInt64) {
        _ = background?.playlist.takeEvents()
        for tile in tiles.tiles { handleEvents(of: tile, window: window, tick: tick) }
    }

    private func runLoop(_ window: MainWindow) -> Int32 {
        let started = HostTime.now()
        var failureShownUntil: UInt64?
        while !controller.quitRequested {
            let now = HostTime.now()
            var due = background?.player.timeUntilNextFrame(at: now)
            for tile in tiles.tiles {
                if let t = tile.player.timeUntilNextFrame(at: now) { due = min(due ?? t, t) }
            }
            // Wake when the next frame is due (rounded up: early is worse than
            // a fraction of a millisecond late), and at least every 10 ms while
            // anything is on its way; at rest, only when something comes:
            // input, or news from another thread through MainThreadWake (a
            // socket request, a D-Bus call, a finished screenshot or dialog,
            // an audio device notice, a job's result).
            var resting = due == nil && isAtRest(window, failureShown: failureShownUntil != nil)
            if resting, mpris?.settle(at: now) == true { resting = false }
            if resting { title.update(at: now, controller: controller, screen: window, settling: true) }
            // The sound device follows the same decision: closed a second
            // into a rest (SDL's audio thread wakes for every buffer,
            // silence or not), open again the turn anything moves.
            controller.audioOutput?.setResting(resting)
            let wait: Int32? = resting && MainThreadWake.beginRest()
                ? nil : due.map { Int32(max(0, min(($0 * 1000).rounded(.up), 10))) } ?? (resting ? 0 : 10)
            let open = window.pumpEvents(timeoutMs: wait)
            MainThreadWake.endRest()
            if !open { break }
            let tick = HostTime.now()
            // Every player keeps its own time, drawn or not; the views then take the frames due.
            background?.player.tick(at: tick)
            for tile in tiles.tiles { tile.player.tick(at: tick) }
            // What the ticks did (a gapless hand-over, an end) reaches the
            // playlists before anything reads them: asked in this same turn,
            // the socket saw the new item's time with the old playlist-pos.
            handleAllEvents(window, tick: tick)
            // The panel follows the focused tile's playlist, whatever changed it.
            if window.showsPlaylistPanel { window.playlistPanel.entries = PlayerApp.panelEntries(of: tiles.focused) }
            // The views measure, the players are given what they need, then the views take their frames and draw.
            for needs in window.measureViews() { needs.apply() }
            if let drawn = window.refresh(at: tick) { controller.compare?.record(drawn) }
            controller.pips?.refresh(at: tick, fullscreenMain: window.isFullscreen ? window.window : nil)
            socket?.serve(controller)
            let fileJobs = controller.finishFileJobs()
            socket?.replyToFileJobs(fileJobs)
            mpris?.serve(at: tick)
            controller.opener?.collectDialog()
            controller.library?.update()
            for problem in FFmpegLog.takeStreamProblems() {
                // A segment that could not be read is skipped (a short gap): say so.
                let line = "stream: " + problem
                PlayerApp.printError(line)
                window.showMessage(line, seconds: 3)
            }
            reportScreenshots(window)
            controller.compareAlignment.update(controller)
            controller.compareExport.update(controller)
            controller.recording.update(controller)
            for event in controller.recording.takeEvents() { socket?.broadcast(event.name, event.fields) }
            controller.compareMetrics?.update(playhead: tiles.tiles.first?.player.currentTime.seconds ?? 0)
            controller.scopes?.update(focused: tiles.focused)
            for notice in controller.audioOutput?.takeNotices() ?? [] {
                PlayerApp.printError(notice.line)
                window.showMessage(notice.short, seconds: 3)
            }
            if let master = tiles.syncGroup.first?.player, !master.isPaused { measureSync(master, at: tick) }
            // And what the commands of this turn did (an item replaced, a
            // seek), announced in this turn, in mpv's order.
            handleAllEvents(window, tick: tick)
            socket?.announce(controller)
            window.holdsOffScreenSaver = tiles.playsVideoInSight(mainWindowVisible: !window.isMinimized)
            title.update(at: tick, controller: controller, screen: window)
            chapterAnnouncer.update(controller)
            if !tiles.isEmpty, tiles.tiles.allSatisfy({ $0.ended }), !staysOpen {
                if anyPlayed { break }
                // Nothing could be played: leave the error on screen a moment.
                failureShownUntil = failureShownUntil ?? tick + 3_000_000_000
            }
            if tiles.isEmpty && !staysOpen { break }
            if let until = failureShownUntil, tick >= until { break }
            if let limit = options.quitAfter, Double(tick &- (playingSince ?? started)) / 1e9 >= limit { break }
        }
        // An idle window the user closes ends well, whatever was tried in it.
        return anyPlayed || options.idleMode != .no ? 0 : 1
    }

    /// Nothing moves and nothing is on its way: every player paused or
    /// played out with its picture shown, the window drawn with no OSD line,
    /// bar or pointer about to change, and no timed work (a background
    /// video, Picture in Picture, metrics, scopes, an alignment or export, a time limit).
    private func isAtRest(_ window: MainWindow, failureShown: Bool) -> Bool {
        background == nil && !failureShown && options.quitAfter == nil && controller.compareMetrics == nil
            && !controller.compareAlignment.isRunning && !controller.compareExport.isRunning && !controller.recording.isRecording
            && (controller.scopes.map { $0.kind == .none } ?? true) && (controller.pips?.isEmpty ?? true) && window.isSettled
            && tiles.tiles.allSatisfy { $0.player.isAtRest }
    }

    private func shutDown() {
        // A picture asked for before quitting is written whole, not cut off.
        controller.fileWorker.waitUntilIdle(seconds: 5)
        controller.pips?.removeAll()
        // Its pictures are textures of the window's renderer.
        controller.library?.close()
        // The views own textures of this window's renderer: free them while it
        // and SDL still exist.
        tiles.removeAll(and: [background].compactMap { $0 })
        background = nil
    }

    private func reportScreenshots(_ window: MainWindow) {
        for result in controller.screenshots.takeFinished() {
            switch result {
            case .success(let url):
                print("Screenshot: \(url.path)")
                window.showMessage(String(format: tr("Screenshot: %@"), url.path), seconds: 3)
            case .failure(let error):
                PlayerApp.printError("screenshot: \(error)")
                window.showMessage(String(format: tr("Screenshot: %@"), shownDescription(of: error)), seconds: 3)
            }
        }
    }
}
