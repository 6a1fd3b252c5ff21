import CSDL2
import Foundation

/// Sets up SDL, the audio device and the window, plays the command line's
/// files one after another, and applies every command. Main thread only.
final class PlayerApp {
    private let options: DeskPlayerCommand
    private var queue: [String]
    private var stats: StatsReport
    private var anyPlayed = false
    private var quitRequested = false
    /// The last item's statistics are in the report already.
    private var recorded = false

    init(options: DeskPlayerCommand) {
        self.options = options
        queue = options.files
        stats = StatsReport(renderer: "none")
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data("deskplayer: \(line)\n".utf8))
    }

    /// Runs until the queue is done, the window closes or `q`. Returns the exit code.
    func run() -> Int32 {
        guard !queue.isEmpty else {
            PlayerApp.printError("no files given")
            print("Usage: " + DeskPlayerCommand.usageString())
            return 1
        }
        FFmpegLog.configure(verbose: options.verbose)
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

    private func play() -> Int32 {
        let mixer = Mixer()
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

        let player = Player()
        player.volume = Float(options.volume) / 100
        player.isMuted = options.mute
        player.passesPerItem = options.loop.map { $0.playCount } ?? 1
        var frameLog: [(MediaTime, UInt64)] = []
        if options.frameLog != nil {
            frameLog.reserveCapacity(1 << 16)
            player.onFramePresented = { frameLog.append(($0, $1)) }
        }
        let preferences = ItemPreferences(forwardBufferDuration: options.forwardBuffer)
        var items = queue.map { PlayerItem($0, preferences: preferences) }
        if let start = options.start, let first = items.first {
            items[0] = PlayerItem(first.name, preferences: preferences, start: MediaTime(seconds: start))
        }
        let playlist = QueuePlayer(player: player, items: items) { PlayerItem($0.name, preferences: preferences) }
        playlist.loopsQueue = options.playlistLoop
        mixer.add(player.audio)
        let view = PlayerView(player: player, contentMode: options.contentMode)
        window.add(view)
        window.onCommand = { [unowned self, unowned window] command in
            self.apply(command, to: playlist, window: window)
        }
        if options.pause { player.pause() } else { player.play() }
        var started = HostTime.now()
        var playingSince: UInt64?
        var failureShownUntil: UInt64?
        var shownItem: PlayerItem?

        while !quitRequested {
            let now = HostTime.now()
            // Wake when the next frame is due (rounded up: early is worse than
            // a fraction of a millisecond late), and at least every 10 ms.
            let wait = player.timeUntilNextFrame(at: now).map { Int32(max(0, min(($0 * 1000).rounded(.up), 10))) } ?? 10
            if !window.pumpEvents(timeoutMs: wait) { break }
            let tick = HostTime.now()
            window.refresh(at: tick)
            for event in playlist.takeEvents() {
                switch event {
                case .readyToPlay:
                    anyPlayed = true
                    if playingSince == nil { playingSince = tick }
                case .itemFailed(let item, let error):
                    let line = "\(item.name): \(error)"
                    PlayerApp.printError(line)
                    stats.record(item, PlayerStats())
                    if playlist.currentItem != nil {
                        // Playback moves on: keep the error in sight a moment.
                        window.showMessage(line, seconds: 4)
                    } else {
                        // Nothing left to play: the view shows the error a moment.
                        player.replaceCurrentItem(with: item)
                        failureShownUntil = tick + (anyPlayed || options.keepOpen ? 0 : 3_000_000_000)
                    }
                case .warning(let text):
                    let line = "\(player.currentItem?.name ?? "?"): \(text)"
                    PlayerApp.printError(line)
                    window.showMessage(line)
                case .advanced(let from, let itemStats):
                    stats.record(from, itemStats)
                case .didPlayToEnd:
                    if let item = player.currentItem { stats.record(item, player.stats) }
                    recorded = true
                    if !options.keepOpen { quitRequested = true }
                case .failed, .stalled, .looped:
                    break
                }
            }
            if player.currentItem !== shownItem {
                shownItem = player.currentItem
                if let name = shownItem?.name { window.window.setTitle("\(PlayerView.shortName(name)) - DeskPlayer") }
            }
            if let until = failureShownUntil, tick >= until, !options.keepOpen { break }
            if let limit = options.quitAfter {
                let since = playingSince ?? started
                if Double(tick &- since) / 1e9 >= limit { break }
            }
            if playingSince == nil, failureShownUntil == nil { started = min(started, tick) }
        }
        if !recorded, let item = player.currentItem, item.error == nil { stats.record(item, player.stats) }
        mixer.remove(player.audio)
        playlist.removeAllItems()
        _ = device
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

    private func apply(_ command: Command, to playlist: QueuePlayer, window: MainWindow) {
        let player = playlist.player
        switch command {
        case .playlistNext:
            playlist.advanceToNextItem()
            player.play()
        case .playlistPrevious:
            playlist.playPrevious()
            player.play()
        case .togglePause:
            player.togglePause()
        case .seek(let seconds):
            player.seek(by: seconds)
        case .adjustVolume(let delta):
            let percent = min(100, max(0, Int((player.volume * 100).rounded()) + delta))
            player.volume = Float(percent) / 100
            window.showMessage("Volume \(percent) %", seconds: 1.5)
        case .toggleMute:
            player.isMuted.toggle()
            window.showMessage(player.isMuted ? "Mute" : "Unmute", seconds: 1.5)
        case .toggleFullscreen:
            window.window.setFullscreen(!window.window.isFullscreen)
        case .leaveFullscreen:
            window.window.setFullscreen(false)
        case .frameStep:
            player.stepFrame()
        case .quit:
            quitRequested = true
        }
    }
}
