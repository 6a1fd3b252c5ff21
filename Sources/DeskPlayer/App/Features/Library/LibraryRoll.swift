// SPDX-License-Identifier: GPL-3.0-or-later
import Analysis
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// The camera roll's life in the App: opened (`library`) it starts a
/// scanner of the Videos folder and mounted phones and cards, and a
/// picture maker on the desktop's thumbnail cache; each loop turn it shows
/// the newest listing and says, once each, what could not be listed or
/// pictured (stderr and the OSD); what the user picks runs as the usual
/// commands (`loadfile`). Closed, both stop. Main thread only.
final class LibraryRoll {
    /// Unowned: the controller owns its roll.
    private unowned let controller: CommandController
    private let roots: @Sendable () -> [LibraryScan.Root]
    private var scanner: LibraryScanner?
    private var view: LibraryView?
    private var shownNumber = 0
    /// "Import" under way (it goes on when the roll is closed), and the progress last said.
    private var importer: LibraryImport?
    private var saidProgress: LibraryImport.Progress?

    /// `roots`: where to look, asked by the scanner's thread at each listing
    /// (a phone plugged in since is found).
    init(controller: CommandController, roots: @escaping @Sendable () -> [LibraryScan.Root] = { LibraryScan.roots() }) {
        self.controller = controller
        self.roots = roots
    }

    var isOpen: Bool { view != nil }
    /// Videos listed; nil until the first listing is done (or while closed).
    var count: Int? { shownNumber == 0 ? nil : view?.entries.count }
    var pictureCounts: LibraryPictures.Counts? { view?.pictures.counts }
    /// The source shown ("all", "Videos", a phone's or card's name) and those listed.
    var source: String? { view.map { $0.source ?? "all" } }
    var sources: [String]? { view?.sources }

    func showSource(_ name: String) throws(CommandError) {
        guard let view else { throw .propertyUnavailable }
        guard name == "all" || view.sources.contains(name) else { throw .propertyError }
        view.showSource(name == "all" ? nil : name)
    }
    var picturesHeld: Int? { view?.pictures.heldCount }

    func open() {
        guard view == nil, let screen = controller.screen else { return }
        // Cells are 160 x 90 at 1x: the cache's normal size (128) up to 1.5x, large (256) above.
        let size: ThumbnailStore.Size = screen.uiScale > 1.5 ? .large : .normal
        let pictures = LibraryPictures(store: ThumbnailStore(version: DeskPlayerCommand.version), size: size,
                                       wake: MainThreadWake.post)
        let made = LibraryView(pictures: pictures)
        made.status = tr("Looking for videos…")
        made.watched = Set(WatchedStore.read())
        // A recording a killed player left hidden shows in the roll under its own name.
        controller.recording.recoverInterrupted(controller)
        view = made
        shownNumber = 0
        scanner = LibraryScanner(roots: roots, wake: MainThreadWake.post)
        screen.library = made
    }

    func close() {
        guard view != nil else { return }
        view = nil
        scanner = nil
        controller.screen?.library = nil
    }

    /// Each loop turn: a new listing shown, problems said.
    func update() {
        followImport()
        guard let view, let scanner else { return }
        for line in scanner.takeProblems() + view.pictures.takeFailures() { say("library: " + line) }
        guard let snapshot = scanner.latest, snapshot.number != shownNumber else { return }
        shownNumber = snapshot.number
        view.show(LibraryScan.days(snapshot.result.entries))
        for source in snapshot.unreachable where !view.unreachable.contains(source) {
            say(String(format: tr("%@: not reachable; its videos are greyed"), source))
        }
        view.unreachable = Set(snapshot.unreachable)
        if snapshot.result.truncated {
            view.status = "(the newest \(snapshot.result.entries.count) only)"
        } else if snapshot.result.entries.isEmpty {
            view.status = "No videos yet in \(snapshot.roots.first?.path ?? "the Videos folder")"
        } else {
            view.status = nil
        }
    }

    /// What the roll asked for: one file plays in the focused tile (a new
    /// one when none), several each in a tile of their own.
    func handle(_ action: LibraryView.Action) {
        switch action {
        case .close:
            close()
        case .play(let path):
            close()
            run { () throws(CommandError) in try controller.apply(.loadfile(path, .replace), from: .mouse) }
        case .tiles(let paths):
            guard let first = paths.first else { return }
            close()
            run { () throws(CommandError) in
                try controller.apply(.loadfile(first, .replace), from: .mouse)
                for path in paths.dropFirst() { try controller.apply(.loadfile(path, .replace), to: .newTile, from: .mouse) }
            }
        case .queue(let paths):
            close()
            // As mpv's `loadfile append-play`: after what plays; an idle player starts the first.
            run { () throws(CommandError) in
                for path in paths { try controller.apply(.loadfile(path, .appendPlay), from: .mouse) }
            }
            controller.osd(String(format: tr("Added to the playlist: %d"), locale: .display, paths.count), seconds: 2)
        case .importFiles(let paths):
            guard importer == nil else { return say(tr("An import is under way already")) }
            let files = paths.map { (path: $0, bytes: view?.listed($0)?.bytes ?? 0) }
            importer = LibraryImport(files, into: UserDirs.videos(ProcessInfo.processInfo.environment).path, wake: MainThreadWake.post)
            saidProgress = nil
        case .compare(let paths):
            guard controller.compare == nil else { return say("library: a comparison is on already; quit it to compare two others") }
            guard let (window, factory) = controller.compareWindow?() else { return }
            close()
            run { () throws(CommandError) in try CompareSession.start(comparing: paths, window: window, controller: controller, factory: factory) }
        }
    }


    /// The import's progress on the OSD (a line per percent at most), then what it did; failures said each.
    private func followImport() {
        guard let importer else { return }
        let progress = importer.progress
        guard progress != saidProgress else { return }
        let before = saidProgress
        saidProgress = progress
        for line in progress.failures.dropFirst(before?.failures.count ?? 0) { say("library: " + line) }
        if progress.finished {
            self.importer = nil
            let line = String(format: tr("Imported %d of %d into %@"), locale: .display, progress.copied.count, progress.count,
                              UserDirs.videos(ProcessInfo.processInfo.environment).path)
            PlayerApp.printError(line)
            controller.osd(line, seconds: 4)
            return
        }
        let percent = progress.bytes > 0 ? min(progress.bytesCopied * 100 / progress.bytes, 100) : 0
        let beforePercent = before.map { $0.bytes > 0 ? min($0.bytesCopied * 100 / $0.bytes, 100) : 0 }
        guard percent != beforePercent || progress.done != before?.done else { return }
        controller.osd(String(format: tr("Importing %d of %d: %d %%"), locale: .display, min(progress.done + 1, progress.count),
                              progress.count, percent), seconds: 4)
    }

    private func run(_ body: () throws(CommandError) -> Void) {
        do { try body() } catch { controller.osd("Cannot do that: \(error.rawValue)", seconds: 2) }
    }

    private func say(_ line: String) {
        PlayerApp.printError(line)
        controller.osd(line, seconds: 4)
    }
}
