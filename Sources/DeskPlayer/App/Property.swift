// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Playback
import Foundation

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

    /// How the value is written as text: mpv's `get_property_string` (and
    /// `${=NAME}`), and its OSD form for `${NAME}`.
    enum Format: Sendable {
        /// Flags as yes/no, words as they are, lists and objects as JSON.
        case plain
        /// A whole number (`playlist-pos`, `width`): "3".
        case integer
        /// A real number: "1.500000" raw, `shown` decimals on the OSD ("1.50").
        case decimal(shown: Int)
        /// Seconds: "12.000000" raw, "00:00:12" on the OSD.
        case time
        /// Seconds: "0.100000" raw, "100 ms" on the OSD (`sub-delay`).
        case milliseconds
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

    /// How observers (the socket's `observe_property`, MPRIS, the window
    /// title) learn that its value changed (`PropertyChanges`).
    enum Changes: Sendable {
        /// It changes only where a change is marked: a command applied, the
        /// tiles added, closed or focused, a player's event, pause or play.
        /// Observers read it again only after a mark.
        case marked
        /// It changes on its own: with the clock (`time-pos`), as counters
        /// count, as the window or another thread works (a subtitle file
        /// loading, a scan, a measurement). Observers read it at their own
        /// rate, as before marks (mpv's tick list).
        case polled
    }

    typealias Getter = @Sendable (PropertyTarget) throws(CommandError) -> JSONValue
    typealias Setter = @Sendable (PropertyTarget, JSONValue) throws(CommandError) -> Void
    typealias Cycler = @Sendable (PropertyTarget, _ down: Bool) throws(CommandError) -> Void
    typealias Describer = @Sendable (PropertyTarget) -> String?
    typealias Adder = @Sendable (PropertyTarget, Double) throws(CommandError) -> JSONValue

    let name: String
    let kind: Kind
    let format: Format
    let scope: Scope
    private(set) var changes: Changes
    let get: Getter
    let set: Setter?
    /// A `cycle` of its own (tracks, with their OSD lines); nil uses the kind's.
    let cycle: Cycler?
    /// The OSD line after a change made from a key or the mouse.
    let osd: Describer?
    /// The value `add N` (and `cycle`) sets, when it is not the value now
    /// plus N (`chapter`: mpv's chapter-seek-threshold); nil: plus N.
    let add: Adder?
    /// How a value given as a word means the same as the one read back
    /// (`loop-file`: yes and inf); nil: the kind's reading.
    let normalize: (@Sendable (JSONValue) -> JSONValue)?

    init(_ name: String, _ kind: Kind = .value, format: Format? = nil, scope: Scope = .tile,
         changes: Changes = .marked, get: @escaping Getter,
         set: Setter? = nil, cycle: Cycler? = nil, add: Adder? = nil, osd: Describer? = nil,
         normalize: (@Sendable (JSONValue) -> JSONValue)? = nil) {
        self.normalize = normalize
        self.name = name
        self.kind = kind
        if let format {
            self.format = format
        } else if case .number = kind {
            self.format = .decimal(shown: 2)
        } else {
            self.format = .plain
        }
        self.scope = scope
        self.changes = changes
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

extension Property {
    /// The same property, read by observers at their own rate (`Changes.polled`).
    func polled() -> Property {
        var property = self
        property.changes = .polled
        return property
    }

    /// The value as `get_property_string` gives it (and `${=NAME}`):
    /// mpv's option printers, "1.500000", "yes", "3", JSON for lists.
    func rawText(_ value: JSONValue) -> String {
        switch (value, format) {
        case (.number(let n), .integer): return n.isFinite ? String(Int64(saturating: n.rounded())) : value.plainText
        case (.number(let n), .decimal), (.number(let n), .time), (.number(let n), .milliseconds):
            return n.isFinite ? String(format: "%f", n) : value.plainText
        case (.array, _), (.object, _): return value.text
        default: return value.plainText
        }
    }

    /// The value as mpv's OSD prints it for `${NAME}`: "00:01:05", "1.50",
    /// "100 ms", objects as `key=value` lines.
    func shownText(_ value: JSONValue) -> String {
        switch (value, format) {
        case (.number(let n), .decimal(let shown)) where n.isFinite: return String(format: "%.\(shown)f", n)
        case (.number(let n), .time) where n.isFinite: return Property.clock(n)
        case (.number(let n), .milliseconds) where n.isFinite: return "\(Int(saturating: (n * 1000).rounded())) ms"
        case (.object(let pairs), _): return pairs.map { "\($0.0)=\($0.1.plainText)\n" }.joined()
        default: return rawText(value)
        }
    }

    /// HH:MM:SS, as mpv's OSD writes a time (negative with a minus sign).
    static func clock(_ seconds: Double) -> String {
        let whole = Int(saturating: abs(seconds).rounded(.down))
        return (seconds < 0 ? "-" : "") + String(format: "%02d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }

    /// A value written as text (a socket client's string, a `cycle-values`
    /// word) read the way this property's type reads it, so values compare
    /// by meaning: "yes" is true, "1.50" is 1.5; for `loop-file` "yes" is "inf".
    func meaning(_ value: JSONValue) -> JSONValue {
        if let normalize { return normalize(value) }
        switch kind {
        case .flag: return (try? PropertyValue.flag(value)).map { .bool($0) } ?? value
        case .number: return (try? PropertyValue.number(value)).map { .number($0) } ?? value
        case .choice, .value:
            if case .string(let s) = value, let n = Double(s), n.isFinite { return .number(n) }
            if case .bool(let b) = value { return .string(b ? "yes" : "no") }
            return value
        }
    }
}
