// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import UI

/// Opening media as a desktop app does: the desktop's file dialog (zenity
/// or kdialog) or the built-in browser, recent files. What is chosen plays
/// in the focused tile (the rest queue behind it), or a new one. Main thread only.
final class MediaOpener {
    /// What the built-in list shows.
    private enum ListMode {
        /// The built-in browser; `subtitles`: what is picked loads as subtitles.
        case browser(FileBrowser, subtitles: Bool)
        case recent([String])
    }

    /// Unowned: the controller owns its opener.
    private unowned let controller: CommandController
    private var screen: (any PlayerScreen)? { controller.screen }
    /// The desktop's file dialog while it is open, and whether it picks subtitles.
    private var dialog: FileDialog?
    private var dialogForSubtitles = false
    private var listMode: ListMode?

    init(controller: CommandController) { self.controller = controller }

    /// Where a dialog starts: the focused file's folder, else the working one.
    private var startFolder: URL {
        if let name = controller.tiles.focused?.player.currentItem?.name, !name.contains("://") {
            return URL(fileURLWithPath: name).deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    /// The desktop's dialog, else the built-in browser; `subtitles`: the
    /// file chosen loads as the focused file's subtitles (sub-add).
    func openFiles(subtitles: Bool = false) {
        guard dialog == nil else { return }
        if let running = FileDialog(startingIn: startFolder, title: subtitles ? tr("Load subtitles") : tr("Open media")) {
            dialog = running
            dialogForSubtitles = subtitles
            return
        }
        let browser = FileBrowser(folder: startFolder)
        listMode = .browser(browser, subtitles: subtitles)
        screen?.list = ListOverlay(title: browser.folder.path, entries: browser.entries.map(\.label))
    }

    func showRecentFiles() {
        let paths = RecentFiles().paths
        listMode = .recent(paths)
        screen?.list = ListOverlay(title: tr("Recent files (Enter plays, Esc closes)"), entries: paths)
    }

    /// Plays what the desktop's dialog returned, once it closed.
    func collectDialog() {
        guard let outcome = dialog?.takeResult() else { return }
        dialog = nil
        switch outcome {
        case .success(let chosen):
            dialogForSubtitles ? loadSubtitles(chosen) : open(chosen)
        case .failure(let error):
            PlayerApp.printError("\(error)")
            controller.osd("\(error)", seconds: 4)
        }
    }

    func listAction(_ action: ListOverlay.Action) {
        guard let mode = listMode, let list = screen?.list else { return }
        switch (mode, action) {
        case (_, .close):
            closeList()
        case (.browser(var browser, let subtitles), .pick(let index)):
            if let file = browser.open(index) {
                closeList()
                subtitles ? loadSubtitles([file.path]) : open([file.path])
            } else {
                listMode = .browser(browser, subtitles: subtitles)
                list.title = browser.folder.path
                list.entries = browser.entries.map(\.label)
            }
        case (.browser(var browser, let subtitles), .goUp):
            browser.goUp()
            listMode = .browser(browser, subtitles: subtitles)
            list.title = browser.folder.path
            list.entries = browser.entries.map(\.label)
        case (.recent(let paths), .pick(let index)):
            closeList()
            if paths.indices.contains(index) { open([paths[index]]) }
        case (.recent, .goUp):
            break
        }
    }

    private func closeList() {
        screen?.list = nil
        listMode = nil
    }

    /// The first file plays in the focused tile now, the rest queue behind
    /// it; with no tile left they make a new one. As `loadfile` commands
    /// (replace, then append), the way every other source opens files.
    func open(_ paths: [String]) {
        guard let first = paths.first else { return }
        do {
            try controller.apply(.loadfile(first, .replace), from: .key)
            for path in paths.dropFirst() { try controller.apply(.loadfile(path, .append), from: .key) }
        } catch {
            controller.osd(String(format: tr("Cannot do that: %@"), error.rawValue), seconds: 2)
        }
    }

    /// Each file chosen as subtitles of the focused file (sub-add, as the socket's).
    func loadSubtitles(_ paths: [String]) {
        do {
            for path in paths { try controller.apply(.subAdd(path), from: .key) }
        } catch {
            controller.osd(String(format: tr("Cannot do that: %@"), error.rawValue), seconds: 2)
        }
    }

    static func rememberRecent(_ name: String) {
        // A camera is not a file to find again; its takes are.
        guard LiveDevice(location: name) == nil else { return }
        var recent = RecentFiles()
        guard recent.add(name) else { return }
        do { try recent.save() } catch { PlayerApp.printError("\(error)") }
    }
}
