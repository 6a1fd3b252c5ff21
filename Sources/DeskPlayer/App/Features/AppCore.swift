// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI

/// What every feature is given: the options, the tiles, the controller that
/// applies commands (and through it the property table), the screen, and
/// the control socket's clients. Main thread only.
final class AppCore {
    let options: DeskPlayerCommand
    let tiles: TileSet
    let controller: CommandController
    /// What the window shows and says (the OSD, the title): the SDL window,
    /// or a screen of a test's own, in-process.
    let screen: any PlayerScreen
    /// The SDL window; nil with another screen (tests): the features that
    /// draw in it or read its state (Picture in Picture, the playlist panel,
    /// a background video) are then left out.
    let window: MainWindow?
    /// The control socket (`--input-ipc-server`); nil without one.
    var socket: ControlSocket?
    /// What the window's drawing of a comparison measured in this turn (fit
    /// scale, loupe readings, label texts); nil when it drew none.
    var drawing: CompareView.Drawing?

    convenience init(options: DeskPlayerCommand, tiles: TileSet, controller: CommandController, window: MainWindow) {
        self.init(options: options, tiles: tiles, controller: controller, screen: window, window: window)
    }

    /// Features on a screen that is not an SDL window (a test's), with no SDL at all.
    convenience init(options: DeskPlayerCommand, tiles: TileSet, controller: CommandController, screen: any PlayerScreen) {
        self.init(options: options, tiles: tiles, controller: controller, screen: screen, window: nil)
    }

    private init(options: DeskPlayerCommand, tiles: TileSet, controller: CommandController, screen: any PlayerScreen,
                 window: MainWindow?) {
        self.options = options
        self.tiles = tiles
        self.controller = controller
        self.screen = screen
        self.window = window
    }

    /// An event to every socket client (`{"event": "file-loaded"}`).
    func broadcast(_ name: String, _ fields: [(String, JSONValue)] = []) {
        socket?.broadcast(name, fields)
    }

    /// A line on stderr, and on the OSD (`shown`, else the line itself).
    func report(_ line: String, shown: String? = nil, seconds: Double = 3) {
        PlayerApp.printError(line)
        screen.showMessage(shown ?? line, seconds: seconds, topic: nil)
    }
}
