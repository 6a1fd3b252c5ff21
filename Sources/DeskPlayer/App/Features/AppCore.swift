// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI

/// What every feature is given: the options, the tiles, the controller that
/// applies commands (and through it the property table), the window, and
/// the control socket's clients. Main thread only.
final class AppCore {
    let options: DeskPlayerCommand
    let tiles: TileSet
    let controller: CommandController
    let window: MainWindow
    /// The control socket (`--input-ipc-server`); nil without one.
    var socket: ControlSocket?
    /// What the window's drawing of a comparison measured in this turn (fit
    /// scale, loupe readings, label texts); nil when it drew none.
    var drawing: CompareView.Drawing?

    init(options: DeskPlayerCommand, tiles: TileSet, controller: CommandController, window: MainWindow) {
        self.options = options
        self.tiles = tiles
        self.controller = controller
        self.window = window
    }

    /// An event to every socket client (`{"event": "file-loaded"}`).
    func broadcast(_ name: String, _ fields: [(String, JSONValue)] = []) {
        socket?.broadcast(name, fields)
    }

    /// A line on stderr, and on the OSD (`shown`, else the line itself).
    func report(_ line: String, shown: String? = nil, seconds: Double = 3) {
        PlayerApp.printError(line)
        window.showMessage(shown ?? line, seconds: seconds)
    }
}
