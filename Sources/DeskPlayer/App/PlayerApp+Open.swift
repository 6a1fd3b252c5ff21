import Foundation

/// Opening media: the desktop's file dialog (zenity or kdialog) or the
/// built-in browser, recent files, and files dropped on a window.
extension PlayerApp {
    /// What the built-in list shows.
    enum ListMode {
        case browser(FileBrowser)
        case recent([String])
    }

    var itemPreferences: ItemPreferences {
        var p = ItemPreferences(forwardBufferDuration: options.forwardBuffer)
        p.maxWidth = options.maxResolution?.width
        p.maxHeight = options.maxResolution?.height
        p.maxBitrate = options.maxBitrate?.bitsPerSecond
        p.streamCacheBytes = options.streamCacheSize?.bitsPerSecond
        func languages(_ list: String?) -> [String] {
            (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        p.audioLanguages = languages(options.alang)
        p.subtitleLanguages = languages(options.slang)
        p.subtitleFiles = options.subFiles
        p.autoloadSubtitles = options.subAuto == .exact
        return p
    }

    /// Plays per item (`--loop`): nil loops forever.
    var passes: Int? { options.loop.map { $0.playCount } ?? 1 }

    /// Plays `path` in `tile` now (its queue's current item is replaced).
    func play(_ path: String, in tile: Tile) {
        tile.playlist.replaceCurrentItem(with: PlayerItem(path, preferences: itemPreferences))
        tile.ended = false
        tile.player.play()
    }

    /// Where a dialog starts: the focused file's folder, else the working one.
    private var startFolder: URL {
        if let name = focusedTile?.player.currentItem?.name, !name.contains("://") {
            return URL(fileURLWithPath: name).deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    func openFiles(window: MainWindow) {
        guard dialog == nil else { return }
        if let running = FileDialog(startingIn: startFolder) {
            dialog = running
            return
        }
        let browser = FileBrowser(folder: startFolder)
        listMode = .browser(browser)
        window.list = ListOverlay(title: browser.folder.path, entries: browser.entries.map(\.label))
    }

    func showRecentFiles(window: MainWindow) {
        let paths = RecentFiles().paths
        listMode = .recent(paths)
        window.list = ListOverlay(title: "Recent files (Enter plays, Esc closes)", entries: paths)
    }

    func listAction(_ action: ListOverlay.Action, window: MainWindow) {
        guard let mode = listMode, let list = window.list else { return }
        switch (mode, action) {
        case (_, .close):
            window.list = nil
            listMode = nil
        case (.browser(var browser), .pick(let index)):
            if let file = browser.open(index) {
                window.list = nil
                listMode = nil
                load(file.path, window: window)
            } else {
                listMode = .browser(browser)
                list.title = browser.folder.path
                list.entries = browser.entries.map(\.label)
            }
        case (.browser(var browser), .goUp):
            browser.goUp()
            listMode = .browser(browser)
            list.title = browser.folder.path
            list.entries = browser.entries.map(\.label)
        case (.recent(let paths), .pick(let index)):
            window.list = nil
            listMode = nil
            if paths.indices.contains(index) { load(paths[index], window: window) }
        case (.recent, .goUp):
            break
        }
    }

    /// A chosen file plays in the focused tile (a new tile when none is left).
    func load(_ path: String, window: MainWindow) { open([path], window: window) }

    /// Files from a dialog: the first plays in the focused tile now, the
    /// rest queue behind it; with no tile left they make a new one.
    func open(_ paths: [String], window: MainWindow) {
        guard let first = paths.first else { return }
        guard let tile = focusedTile else {
            addTile(makeTile(paths, start: nil, passes: passes), window: window)
            return
        }
        play(first, in: tile)
        for path in paths.dropFirst() { tile.playlist.insert(PlayerItem(path, preferences: itemPreferences), after: nil) }
    }

    func rememberRecent(_ name: String) {
        var recent = RecentFiles()
        guard recent.add(name) else { return }
        do { try recent.save() } catch { PlayerApp.printError("\(error)") }
    }
}

/// The desktop's own file dialog, run as a child process (zenity or kdialog,
/// whichever is installed) so the player keeps playing while it is open.
final class FileDialog: @unchecked Sendable {  // result guarded by lock
    private let process = Process()
    private let lock = NSLock()
    private var result: [String]?

    /// Nil when neither tool is installed.
    init?(startingIn folder: URL) {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        func find(_ tool: String) -> String? {
            path.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }
        if let zenity = find("zenity") {
            process.executableURL = URL(fileURLWithPath: zenity)
            process.arguments = ["--file-selection", "--multiple", "--separator=\n", "--title=Open media",
                                 "--filename=\(folder.path)/"]
        } else if let kdialog = find("kdialog") {
            process.executableURL = URL(fileURLWithPath: kdialog)
            process.arguments = ["--getopenfilename", folder.path, "--multiple", "--separate-output"]
        } else {
            return nil
        }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.terminationHandler = { [self] _ in
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            lock.lock()
            result = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
            lock.unlock()
        }
        do { try process.run() } catch { return nil }
    }

    deinit { if process.isRunning { process.terminate() } }

    /// The files chosen once the dialog closed (empty when cancelled); nil while open.
    func takeResult() -> [String]? {
        lock.lock()
        defer { lock.unlock() }
        return result
    }
}
