// SPDX-License-Identifier: GPL-3.0-or-later
import Control

/// One command a feature adds to the command table: how it reads (its
/// spec, which makes it `Command.feature` wherever it is parsed: keys,
/// input.conf, the socket, the menu) and what it does, in the feature's
/// own folder (mpv's `mp_cmd_def`: a name, its arguments, its handler).
struct FeatureCommand: Sendable {
    /// Runs the command for `target`; what the socket replies with as `data`.
    typealias Run = @Sendable (_ arguments: CommandSpec.Arguments, _ controller: CommandController,
                               _ target: CommandTarget, _ source: CommandSource) throws(CommandError) -> JSONValue

    let spec: CommandSpec
    let run: Run

    /// `read` checks the arguments when the command is parsed and returns
    /// them as `run` reads them (a bad one is refused there, before anything runs).
    init(_ name: String, _ arguments: [CommandSpec.Argument] = [],
         read: @escaping @Sendable (CommandSpec.Arguments) throws(CommandError) -> [JSONValue] = { $0.values },
         run: @escaping Run) {
        spec = CommandSpec.feature(name, arguments, read)
        self.run = run
    }

    /// An argument of the spec (`CommandSpec.arg`).
    static func arg(_ name: String, _ kind: CommandSpec.Argument.Kind, optional: Bool = false) -> CommandSpec.Argument {
        CommandSpec.arg(name, kind, optional: optional)
    }
}

/// A feature's items of the context menu: they go after the item of the
/// table whose path is `after` ("Loop > Clear A-B loop"), in their order.
struct FeatureMenu {
    let after: String
    let entries: [MenuEntry]
}
