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
    /// What the features share (made once the window is open).
    private var core: AppCore?
    /// The features, in the order each turn asks them (`FeatureRegistry`).
    private var features: [any AppFeature] = []
    var socket: ControlSocket? { core?.socket }
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
        let core = AppCore(options: options, tiles: tiles, controller: controller, window: window)
        self.core = core
        // The window goes with this function, before SDL quits.
        defer { self.core = nil }
        if let path = options.inputIPCServer {
            do { core.socket = try ControlSocket(path: path, arrived: MainThreadWake.post) } catch {
                PlayerApp.printError("\(error)")
                return 1
            }
        }
        defer { core.socket = nil }  // removes the socket file
        connect(window, core)
        makeTiles(composition, window: window)
        features = FeatureRegistry.make(core)
        let frameLog = FrameLog(path: options.frameLog, player: tiles.tiles.first?.player)
        let code = runLoop(core, window)
        saveRemembered(window)
        shutDown(core)
        if let path = options.statsJSON {
            (stats.fullPresents, stats.tilePresents) = (window.fullPresents, window.tilePresents)
            stats.recordThumbnails(waits: window.thumbnailWaits, ready: window.thumbnailsReady)
            do { try stats.write(to: path) } catch { PlayerApp.printError("cannot write \(path): \(error)") }
        }
        frameLog?.write()
        return code
    }

    /// Wires the window, the tiles, the controller and the mini windows together.
    private func connect(_ window: MainWindow, _ core: AppCore) {
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
        // Before input.conf (its lines rebind a feature's keys too) and the tiles.
        for feature in FeatureRegistry.features { feature.windowOpening(core) }
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
        window.showsThumbnails = options.thumbnails == .yes
        window.onAction = { [unowned self] action in handle(action) }
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

    /// Every tile's player events.
    private func handleAllEvents(_ window: MainWindow, tick: UInt64) {
        for tile in tiles.tiles { handleEvents(of: tile, window: window, tick: tick) }
    }

    /// The longest the loop waits while anything moves, though every deadline
    /// is later or a thread has promised to wake it: a wake nobody sent
    /// costs a quarter of a second at worst, not a hang.
    static let longestWait = 0.25

    private func runLoop(_ core: AppCore, _ window: MainWindow) -> Int32 {
        let started = HostTime.now()
        var failureShownUntil: UInt64?
        while !controller.quitRequested {
            let now = HostTime.now()
            // The earliest deadline any player or feature gave: a frame due
            // (rounded up: early is worse than a fraction of a millisecond
            // late), a look at work no thread announces. What other threads
            // bring (a frame a waiting player gets, a socket request, a D-Bus
            // call, a finished screenshot or dialog, an audio device notice, a
            // job's result) wakes the loop through MainThreadWake.
            var deadline = earliestDeadline(core, window, at: now, started: started, failureShownUntil: failureShownUntil)
            var resting = deadline == nil && isAtRest(core, window, failureShown: failureShownUntil != nil)
            // Before a rest that may last: what is left to say is said now.
            for feature in features where resting && !feature.settle(core, at: now) {
                resting = false
                deadline = min(deadline ?? Player.lookInterval, Player.lookInterval)
            }
            for feature in features { feature.willWait(core, resting: resting) }
            let wait: Int32?
            if !MainThreadWake.beginRest() {
                wait = 0  // news came since the last turn
            } else if resting {
                wait = nil
            } else {
                let seconds = min(max(deadline ?? PlayerApp.longestWait, 0), PlayerApp.longestWait)
                wait = Int32((seconds * 1000).rounded(.up))
            }
            let open = window.pumpEvents(timeoutMs: wait)
            MainThreadWake.endRest()
            if !open { break }
            let tick = HostTime.now()
            // Every player keeps its own time, drawn or not; the views then take the frames due.
            for tile in tiles.tiles { tile.player.tick(at: tick) }
            // What the ticks did (a gapless hand-over, an end) reaches the
            // playlists before anything reads them: asked in this same turn,
            // the socket saw the new item's time with the old playlist-pos.
            handleAllEvents(window, tick: tick)
            for feature in features { feature.prepare(core, at: tick) }
            // The views measure, the players are given what they need, then the views take their frames and draw.
            for needs in window.measureViews() { needs.apply() }
            core.drawing = window.refresh(at: tick)
            for feature in features { feature.update(core, at: tick) }
            if let master = tiles.syncGroup.first?.player, !master.isPaused { measureSync(master, at: tick) }
            // And what the commands of this turn did (an item replaced, a
            // seek), announced in this turn, in mpv's order.
            handleAllEvents(window, tick: tick)
            for feature in features { feature.announce(core, at: tick) }
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

    /// Seconds from `now` to the earliest deadline the players, the window,
    /// the features and the loop's own limits gave; nil: none.
    private func earliestDeadline(_ core: AppCore, _ window: MainWindow, at now: UInt64, started: UInt64, failureShownUntil: UInt64?) -> Double? {
        var earliest: Double?
        func take(_ deadline: Double?) {
            if let deadline { earliest = min(earliest ?? deadline, deadline) }
        }
        for tile in tiles.tiles { take(tile.player.nextDeadline(at: now, wake: MainThreadWake.post)) }
        for feature in features { take(feature.nextDeadline(core, at: now)) }
        if window.awaitsLook { take(Player.lookInterval) }
        if let until = failureShownUntil { take(Double(Int64(bitPattern: until &- now)) / 1e9) }
        if let limit = options.quitAfter { take(limit - Double(now &- (playingSince ?? started)) / 1e9) }
        return earliest
    }

    /// Nothing moves and nothing is on its way: every player paused or
    /// played out with its picture shown, the window drawn with no OSD line,
    /// bar or pointer about to change, every feature at rest, no error on
    /// screen waiting to go and no time limit.
    private func isAtRest(_ core: AppCore, _ window: MainWindow, failureShown: Bool) -> Bool {
        !failureShown && options.quitAfter == nil && window.isSettled
            && tiles.tiles.allSatisfy { $0.player.isAtRest } && features.allSatisfy { $0.isAtRest(core) }
    }

    private func shutDown(_ core: AppCore) {
        // A picture asked for before quitting is written whole, not cut off.
        controller.fileWorker.waitUntilIdle(seconds: 5)
        // Each feature stops its work and frees what belongs to the window
        // (Picture in Picture windows, the roll's pictures, the background).
        for feature in features { feature.finish(core) }
        features = []
        // The views own textures of this window's renderer: free them while it
        // and SDL still exist.
        tiles.removeAll()
    }
}
