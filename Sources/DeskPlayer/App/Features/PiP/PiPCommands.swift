// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Media

/// Picture in Picture's commands and keys (FeatureCommand).
extension PiPFeature {
    static var commands: [FeatureCommand] {
        let index = [FeatureCommand.arg("index", .integer, optional: true)]
        // The index read once, as a whole number in range, or none.
        let read: @Sendable (CommandSpec.Arguments) throws(CommandError) -> [JSONValue] = { a throws(CommandError) in
            try a.optionalIndex(0).map { [.number(Double($0))] } ?? []
        }
        return [
            // The tile at the index (else the target) into a mini window of its own.
            FeatureCommand("pip-start", index, read: read) { a, controller, target, _ throws(CommandError) in
                guard let pips = controller.pips else { throw .commandFailed }
                try pips.start(try controller.tile(try a.optionalIndex(0), target))
                return .null
            },
            // Back into the main window.
            FeatureCommand("pip-restore", index, read: read) { a, controller, target, _ throws(CommandError) in
                try miniWindowTile(a, controller, target) { $0.restore($1) }
            },
            // Closes the mini window and its player.
            FeatureCommand("pip-close", index, read: read) { a, controller, target, _ throws(CommandError) in
                try miniWindowTile(a, controller, target) { $0.close($1) }
            },
        ]
    }

    static var keys: [KeyBinding] {
        [
            KeyBindings.binding(key: "Ctrl+p", "pip-start", help: trNoop("Picture in Picture (Esc in it restores)")),
            KeyBindings.binding(key: "ESC", "pip-restore", help: trNoop("back into the main window"), section: .pip),
        ]
    }

    /// Does `action` to the tile in a mini window the arguments name: the
    /// index's, else the target's, else the one opened last.
    private static func miniWindowTile(_ a: CommandSpec.Arguments, _ controller: CommandController, _ target: CommandTarget,
                                       _ action: (PiPManager, Tile) -> Void) throws(CommandError) -> JSONValue {
        let index = try a.optionalIndex(0)
        guard let pips = controller.pips, let tile = index != nil ? try controller.tile(index, target) : controller.pipTarget(target, pips),
              tile.isInPiP else { throw .propertyUnavailable }
        action(pips, tile)
        return .null
    }
}

extension Command {
    /// `pip-start [INDEX]`, as the bar's button and --pip send it.
    static func pipStart(_ index: Int?) -> Command { .feature(.init(name: "pip-start", arguments: index.map { [.number(Double($0))] } ?? [])) }
    static func pipRestore(_ index: Int?) -> Command { .feature(.init(name: "pip-restore", arguments: index.map { [.number(Double($0))] } ?? [])) }
    static func pipClose(_ index: Int?) -> Command { .feature(.init(name: "pip-close", arguments: index.map { [.number(Double($0))] } ?? [])) }
}
