// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Output
import Playback

/// MPRIS 2 on the session bus (`org.mpris.MediaPlayer2.deskplayer`), so the
/// desktop's media controls, headset buttons, playerctl and KDE Connect
/// drive DeskPlayer. "The player" is the focused tile. Every call becomes a
/// `Command` or a property set applied by the one `CommandController`
/// (source `.mpris`), and state is read through its property table.
/// Served from the main loop, never blocking it; without a session bus (or
/// once it has gone away) there is simply no MPRIS. Main thread only.
final class MPRISService {
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let busName = "org.mpris.MediaPlayer2.deskplayer"
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    let controller: CommandController
    private let bus: SessionBus
    private let cover = CoverArtFile()
    /// The item the track id stands for, and its number in the id.
    private weak var trackItem: PlayerItem?
    private var trackNumber = 0
    /// The values last announced in PropertiesChanged, by interface.
    private var announced: [String: [String: DBusValue]] = [:]
    /// Where the play head was at the last look, to tell a seek (a jump)
    /// from playing on.
    private var lastPosition: (seconds: Double, host: UInt64, playing: Bool, track: Int)?
    private var lastLook: UInt64 = 0
    /// The change count the announced values were read at (`PropertyChanges`).
    private var changesReadAt: UInt64?
    /// The item MPRIS `Stop` stopped (paused at its start), while it stays
    /// so: PlaybackStatus says Stopped, and Play plays it from the beginning.
    private weak var stoppedItem: PlayerItem?

    /// Wakes the main loop when a call arrives, so it need not poll the bus while at rest.
    private let watch: ReadinessWatch?

    private init(controller: CommandController, bus: SessionBus) {
        self.controller = controller
        self.bus = bus
        watch = bus.fileDescriptor.flatMap { ReadinessWatch(fd: $0, wake: MainThreadWake.post) }
    }

    /// MPRIS on the session bus, or nil without one (said in a line under `-v`).
    static func start(controller: CommandController, verbose: Bool) -> MPRISService? {
        func notice(_ line: String) { if verbose { PlayerApp.printError("MPRIS: " + line) } }
        guard let address = SessionBus.address() else {
            notice("off: no session bus (DBUS_SESSION_BUS_ADDRESS is not set)")
            return nil
        }
        let bus: SessionBus
        do { bus = try SessionBus(address: address) } catch {
            notice("off: \(error)")
            return nil
        }
        bus.onNotice = notice
        bus.requestName(busName, fallback: busName + ".instance\(getpid())")
        return MPRISService(controller: controller, bus: bus)
    }

    /// Answers the calls that arrived and announces what changed (at most
    /// every 50 ms: clients need no more).
    func serve(at now: UInt64) {
        guard bus.isOpen else { return }
        for call in bus.poll() { answer(call) }
        watch?.rearm()
        if now &- lastLook >= 50_000_000 { look(at: now) }
        bus.flush()
    }

    /// Before the main loop rests (it may not turn again for a long time):
    /// what changed since the last look is announced now, not 50 ms later.
    /// True when the bus still has messages the socket did not take (the
    /// loop then turns on, to write them).
    func settle(at now: UInt64) -> Bool {
        guard bus.isOpen else { return false }
        if lastLook != now { look(at: now) }
        bus.flush()
        return bus.hasPendingOutput
    }

    /// The properties are read again only after a change was marked
    /// (`PropertyChanges`: a command from any source, a player's event or
    /// pause); the position, which moves with the clock, is polled every
    /// 50 ms while the focused player plays, to tell a seek or a loop's
    /// jump from playing on. Paused with nothing marked, a look reads nothing.
    private func look(at now: UInt64) {
        lastLook = now
        let generation = controller.changeGeneration()
        let changed = generation != changesReadAt
        changesReadAt = generation
        if changed { announceChanges() }
        if changed || controller.tiles.focused?.player.isPaused == false { announceSeek(at: now) }
    }

    // MARK: State, through the property table

    /// A property of the focused tile, nil while unavailable.
    func value(_ name: String) -> JSONValue? { try? controller.value(of: name) }

    var playbackStatus: String {
        guard value("path") != nil, value("eof-reached") != .bool(true) else { return "Stopped" }
        let paused = value("pause") == .bool(true)
        // Stopped until it plays again or another item takes its place, from any source.
        if let stopped = stoppedItem, stopped === controller.tiles.focused?.player.currentItem, paused { return "Stopped" }
        stoppedItem = nil
        return paused ? "Paused" : "Playing"
    }

    var positionMicroseconds: Int64? {
        guard let seconds = value("time-pos")?.number else { return nil }
        return Int64(saturating: (seconds * 1e6).rounded())
    }

    /// The track id of the focused tile's item: a new one whenever another item plays there.
    private var trackPath: String {
        let item = controller.tiles.focused?.player.currentItem
        guard let item else { return MPRISService.noTrack }
        if item !== trackItem {
            trackItem = item
            trackNumber += 1
        }
        return "/org/mpris/MediaPlayer2/deskplayer/track/\(trackNumber)"
    }

    func metadata() -> DBusValue {
        let id = trackPath
        guard let item = trackItem, id != MPRISService.noTrack else {
            return .dictionary([.init("mpris:trackid", .objectPath(id))])
        }
        var entries: [DBusValue.DictionaryEntry] = [.init("mpris:trackid", .objectPath(id))]
        if let seconds = value("duration")?.number { entries.append(.init("mpris:length", .int64(Int64(saturating: (seconds * 1e6).rounded())))) }
        if let title = value("media-title")?.string { entries.append(.init("xesam:title", .string(title))) }
        if let path = value("path")?.string {
            let isURL = path.range(of: "^[a-zA-Z][a-zA-Z0-9+.-]*://", options: .regularExpression) != nil
            entries.append(.init("xesam:url", .string(isURL ? path : URL(fileURLWithPath: path).absoluteString)))
        }
        let tags = value("metadata")
        for (tag, key) in [("artist", "xesam:artist"), ("album_artist", "xesam:albumArtist"), ("genre", "xesam:genre")] {
            if let text = tags?[tag]?.string { entries.append(.init(key, .array(elementSignature: "s", [.string(text)]))) }
        }
        if let album = tags?["album"]?.string { entries.append(.init("xesam:album", .string(album))) }
        if let art = cover.url(for: item) { entries.append(.init("mpris:artUrl", .string(art))) }
        return .dictionary(entries)
    }

    // MARK: Commands

    /// Applies `command` to the focused tile. With nothing playing a
    /// transport call has no effect, as MPRIS says; other refusals are errors.
    func run(_ command: Command) throws(DBusFailure) {
        do { try controller.apply(command, from: .mpris) } catch {
            if error != .propertyUnavailable { throw .failed(error.rawValue) }
        }
    }

    private func answer(_ call: DBusMessage) {
        let reply: DBusMessage?
        do {
            let values = try handle(call)
            guard call.wantsReply else { return }
            reply = DBusMessage(returnTo: call)
            if let reply, !reply.append(values) {
                return answerFailure(.failed("cannot write the reply"), to: call)
            }
        } catch {
            return answerFailure(error, to: call)
        }
        if let reply { bus.send(reply) }
    }

    private func answerFailure(_ failure: DBusFailure, to call: DBusMessage) {
        guard call.wantsReply, let reply = DBusMessage(error: failure.name, failure.text, to: call) else { return }
        bus.send(reply)
    }

    /// The call's arguments when they are of `signature`; the standard
    /// InvalidArgs error otherwise.
    private func arguments(_ call: DBusMessage, _ signature: String) throws(DBusFailure) -> [DBusValue] {
        guard call.signature == signature else {
            throw .invalidArgs("\(call.member ?? "the call") takes (\(signature)), not (\(call.signature))")
        }
        return call.arguments
    }

    private func handle(_ call: DBusMessage) throws(DBusFailure) -> [DBusValue] {
        let member = call.member ?? ""
        if call.interface == "org.freedesktop.DBus.Peer" {
            guard member == "Ping" else { throw .unknownMethod("no method \(member)") }
            return []
        }
        guard call.path == MPRISService.objectPath else { throw .unknownObject("no object at \(call.path ?? "")") }
        switch call.interface {
        case "org.freedesktop.DBus.Properties":
            return try properties(call, member)
        case "org.freedesktop.DBus.Introspectable":
            guard member == "Introspect" else { throw .unknownMethod("no method \(member)") }
            return [.string(MPRISService.introspection)]
        case MPRISProperties.rootInterface?:
            try rootMethod(call, member)
        case MPRISProperties.playerInterface?:
            try playerMethod(call, member)
        case nil:
            // D-Bus lets a call leave the interface out: the member decides.
            if ["Raise", "Quit"].contains(member) { try rootMethod(call, member) } else { try playerMethod(call, member) }
        case let other?:
            throw .unknownInterface("no interface \(other)")
        }
        return []
    }

    private func rootMethod(_ call: DBusMessage, _ member: String) throws(DBusFailure) {
        _ = try arguments(call, "")
        switch member {
        case "Raise": controller.screen?.raise()
        case "Quit": try run(.quit)
        default: throw .unknownMethod("no method \(member)")
        }
    }

    private func playerMethod(_ call: DBusMessage, _ member: String) throws(DBusFailure) {
        switch member {
        case "Next", "Previous", "Pause", "Play", "PlayPause", "Stop":
            _ = try arguments(call, "")
            try transport(member)
        case "Seek":
            guard case .int64(let offset) = try arguments(call, "x")[0] else { throw .invalidArgs("Seek takes (x)") }
            try run(.seek(Double(offset) / 1e6, .relative))
        case "SetPosition":
            let args = try arguments(call, "ox")
            guard case .objectPath(let track) = args[0], case .int64(let position) = args[1] else {
                throw .invalidArgs("SetPosition takes (ox)")
            }
            // MPRIS: a stale track id or a position outside the track is ignored.
            let length = value("duration")?.number
            guard track == trackPath, position >= 0, length.map({ Double(position) / 1e6 <= $0 }) ?? false else { return }
            try run(.seek(Double(position) / 1e6, .absolute))
        case "OpenUri":
            guard case .string(let uri) = try arguments(call, "s")[0] else { throw .invalidArgs("OpenUri takes (s)") }
            try open(uri)
        default:
            throw .unknownMethod("no method \(member)")
        }
    }

    private func transport(_ member: String) throws(DBusFailure) {
        switch member {
        // MPRIS: Next past the last track stops; Previous at the first does nothing.
        case "Next": try run(.playlistNext(force: true))
        case "Previous":
            guard !(controller.tiles.focused?.playlist.history.isEmpty ?? true) else { return }
            try run(.playlistPrev(force: false))
        case "Pause": try run(.set(property: "pause", value: .bool(true)))
        case "Play", "PlayPause":
            if value("eof-reached") == .bool(true), let entry = value("playlist-pos") {
                // Played to its end: the same entry again from its start.
                try run(.set(property: "playlist-pos", value: entry))
                try run(.set(property: "pause", value: .bool(false)))
            } else if member == "Play" {
                try run(.set(property: "pause", value: .bool(false)))
            } else {
                try run(.cycle(property: "pause", down: false))
            }
        case "Stop":
            // As the MPRIS specification says (not mpv's stop, which empties the
            // playlist, so a media key's Play then had nothing to play): the track
            // stays, at its start, and Play plays it from the beginning.
            guard let item = controller.tiles.focused?.player.currentItem else { return }
            try run(.set(property: "pause", value: .bool(true)))
            try run(.seek(0, .absolute))
            stoppedItem = item
        default: throw .unknownMethod("no method \(member)")
        }
    }

    /// OpenUri: a file:// URI, an http(s) URL or a plain path plays in the
    /// focused tile (a new one when there is none). A bad one is said in
    /// one line, on stderr and in the window, and nothing else changes.
    private func open(_ uri: String) throws(DBusFailure) {
        func refuse(_ line: String) -> DBusFailure {
            PlayerApp.printError(line)
            controller.osd(line, seconds: 4)
            return .failed(line)
        }
        var path = uri
        if uri.lowercased().hasPrefix("file://") {
            var rest = Substring(uri.dropFirst("file://".count))
            if !rest.hasPrefix("/") { rest = rest.drop { $0 != "/" } }  // file://host/path
            path = rest.removingPercentEncoding ?? String(rest)
        } else if let scheme = uri.range(of: "^[a-zA-Z][a-zA-Z0-9+.-]*:", options: .regularExpression),
                  !["http:", "https:"].contains(uri[scheme].lowercased()) {
            throw refuse("\(uri): unsupported URI scheme (DeskPlayer opens file, http and https)")
        }
        guard !path.isEmpty else { throw refuse("OpenUri: no file given") }
        if let problem = MediaLocation(path).localProblem() { throw refuse("\(path): \(problem)") }
        try run(.loadfile(path, .replace))
    }

    // MARK: Properties interface

    private func properties(_ call: DBusMessage, _ member: String) throws(DBusFailure) -> [DBusValue] {
        switch member {
        case "Get":
            let args = try arguments(call, "ss")
            guard case .string(let interface) = args[0], case .string(let name) = args[1] else { throw .invalidArgs("Get takes (ss)") }
            return [.variant(try MPRISProperties.named(name, in: interface).get(self))]
        case "GetAll":
            guard case .string(let interface) = try arguments(call, "s")[0] else { throw .invalidArgs("GetAll takes (s)") }
            let list = interface == MPRISProperties.rootInterface ? MPRISProperties.root
                : interface == MPRISProperties.playerInterface ? MPRISProperties.player : []
            return [.dictionary(list.map { .init($0.name, $0.get(self)) })]
        case "Set":
            let args = try arguments(call, "ssv")
            guard case .string(let interface) = args[0], case .string(let name) = args[1] else { throw .invalidArgs("Set takes (ssv)") }
            let property = try MPRISProperties.named(name, in: interface)
            guard let set = property.set else { throw .readOnly("\(name) is read-only") }
            try set(self, args[2])
            return []
        default:
            throw .unknownMethod("no method \(member)")
        }
    }

    // MARK: Signals

    /// PropertiesChanged for each interface whose values moved since the last look.
    private func announceChanges() {
        for (interface, list) in [(MPRISProperties.rootInterface, MPRISProperties.root),
                                  (MPRISProperties.playerInterface, MPRISProperties.player)] {
            var changed: [DBusValue.DictionaryEntry] = []
            let before = announced[interface]
            var now: [String: DBusValue] = [:]
            for property in list where property.announced {
                let value = property.get(self)
                now[property.name] = value
                if let before, before[property.name] != value { changed.append(.init(property.name, value)) }
            }
            announced[interface] = now
            if !changed.isEmpty {
                emit("org.freedesktop.DBus.Properties", "PropertiesChanged",
                     [.string(interface), .dictionary(changed), .array(elementSignature: "s", [])])
            }
        }
    }

    /// Seeked when the play head jumped (a seek from any source, a loop)
    /// rather than moved on with the clock.
    private func announceSeek(at now: UInt64) {
        let position = value("time-pos")?.number
        let playing = playbackStatus == "Playing"
        let track = trackNumber
        defer { lastPosition = position.map { ($0, now, playing, track) } }
        guard let position, let last = lastPosition, last.track == track else { return }
        let expected = last.seconds + (last.playing ? Double(now &- last.host) / 1e9 : 0)
        if abs(position - expected) > 0.25 {
            emit(MPRISProperties.playerInterface, "Seeked", [.int64(Int64(saturating: (position * 1e6).rounded()))])
        }
    }

    private func emit(_ interface: String, _ member: String, _ values: [DBusValue]) {
        guard let signal = DBusMessage(signalFrom: MPRISService.objectPath, interface: interface, member: member),
              signal.append(values) else { return }
        bus.send(signal)
    }
}
