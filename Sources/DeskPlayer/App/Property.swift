import Control
import Playback

/// One property, as mpv's `player/command.c` has them: a name, how to read
/// it, and (when it can be changed) how to change it. `set`, `add`,
/// `multiply`, `cycle`, `cycle-values`, the socket's get/set/observe and
/// key bindings all go through these; a new property is one entry in
/// `PropertyTable`.
struct Property: Sendable {
    enum Kind: Sendable {
        case flag
        /// A number, clamped to its range by `add` and `multiply`.
        case number(ClosedRange<Double>)
        /// One of these words; `cycle` moves through them.
        case choice([String])
        /// Anything else (lists, objects, read-only text).
        case value
    }

    /// Which players a change reaches.
    enum Scope: Sendable {
        /// The target tile alone.
        case tile
        /// The target tile's sync group together (transport: pause, position, speed).
        case group
        /// The app (fullscreen, the tile list); no tile needed.
        case app
    }

    typealias Getter = @Sendable (PropertyTarget) throws(CommandError) -> JSONValue
    typealias Setter = @Sendable (PropertyTarget, JSONValue) throws(CommandError) -> Void
    typealias Cycler = @Sendable (PropertyTarget, _ down: Bool) throws(CommandError) -> Void
    typealias Describer = @Sendable (PropertyTarget) -> String?
    typealias Adder = @Sendable (PropertyTarget, Double) throws(CommandError) -> JSONValue

    let name: String
    let kind: Kind
    let scope: Scope
    let get: Getter
    let set: Setter?
    /// A `cycle` of its own (tracks, with their OSD lines); nil uses the kind's.
    let cycle: Cycler?
    /// The OSD line after a change made from a key or the mouse.
    let osd: Describer?
    /// The value `add N` (and `cycle`) sets, when it is not the value now
    /// plus N (`chapter`: mpv's chapter-seek-threshold); nil: plus N.
    let add: Adder?

    init(_ name: String, _ kind: Kind = .value, scope: Scope = .tile, get: @escaping Getter, set: Setter? = nil,
         cycle: Cycler? = nil, add: Adder? = nil, osd: Describer? = nil) {
        self.name = name
        self.kind = kind
        self.scope = scope
        self.get = get
        self.set = set
        self.cycle = cycle
        self.add = add
        self.osd = osd
    }
}

/// What a property reads or changes: one tile (nil when there is none)
/// and the controller around it.
struct PropertyTarget {
    let tile: Tile?
    unowned let controller: CommandController
    /// For a change to a sync group: the tile the value was worked out
    /// from (the one the command named), when it is not this one.
    var leader: Tile? = nil
    /// Who asked (a key, the socket, MPRIS...): what a setter that runs a
    /// command passes on, and whether what it does is said on the OSD.
    var source: CommandSource = .socket

    /// Says `text` on the OSD when the source is one a person is looking at
    /// (keys, mouse, PiP), as `CommandController.announce` does for the rest.
    func osd(_ text: String, seconds: Double, topic: String? = nil) {
        guard source.showsOSD else { return }
        controller.osd(text, seconds: seconds, topic: topic)
    }

    func requireTile() throws(CommandError) -> Tile {
        guard let tile else { throw .propertyUnavailable }
        return tile
    }

    func player() throws(CommandError) -> Player { try requireTile().player }

    /// The item playing; unavailable while there is none.
    func item() throws(CommandError) -> PlayerItem {
        guard let item = try player().currentItem else { throw .propertyUnavailable }
        return item
    }
}
