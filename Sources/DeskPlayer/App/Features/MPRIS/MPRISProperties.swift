// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Playback

/// One MPRIS 2 property: how it is read (through the controller's property
/// table, for the focused tile) and, when a client may change it, how
/// (through the controller's commands, from `.mpris`).
struct MPRISProperty: Sendable {
    typealias Getter = @Sendable (MPRISService) -> DBusValue
    typealias Setter = @Sendable (MPRISService, DBusValue) throws(DBusFailure) -> Void

    let name: String
    let get: Getter
    let set: Setter?
    /// Sent in PropertiesChanged when it changes. Position is not (clients
    /// follow it from Rate and the Seeked signal), as MPRIS says.
    let announced: Bool

    init(_ name: String, announced: Bool = true, get: @escaping Getter, set: Setter? = nil) {
        self.name = name
        self.get = get
        self.set = set
        self.announced = announced
    }
}

/// The two MPRIS interfaces' properties (mpv-mpris's set, by the spec).
enum MPRISProperties {
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    static func named(_ name: String, in interface: String) throws(DBusFailure) -> MPRISProperty {
        let list: [MPRISProperty]
        switch interface {
        case rootInterface: list = root
        case playerInterface: list = player
        default: throw .invalidArgs("no interface \(interface) here")
        }
        guard let property = list.first(where: { $0.name == name }) else { throw .unknownProperty("no property \(name) in \(interface)") }
        return property
    }

    /// What the desktop entry says DeskPlayer opens (its MimeType line).
    static let mimeTypes = [
        "video/mp4", "video/x-matroska", "video/webm", "video/quicktime", "video/x-msvideo", "video/mpeg", "video/ogg",
        "video/x-flv", "video/3gpp", "video/mp2t", "audio/mpeg", "audio/mp4", "audio/aac", "audio/flac", "audio/x-flac",
        "audio/ogg", "audio/opus", "audio/x-wav", "audio/wav", "audio/x-matroska", "audio/webm",
    ]

    /// What OpenUri takes (the protocols a media location may use).
    static let uriSchemes = ["file", "http", "https"]

    static let root: [MPRISProperty] = [
        MPRISProperty("CanQuit") { _ in .bool(true) },
        MPRISProperty("CanRaise") { _ in .bool(true) },
        MPRISProperty("Fullscreen", get: { s in .bool(s.value("fullscreen") == .bool(true)) }, set: { s, v throws(DBusFailure) in
            try s.run(.set(property: "fullscreen", value: .bool(try flag(v))))
        }),
        MPRISProperty("CanSetFullscreen") { _ in .bool(true) },
        MPRISProperty("HasTrackList") { _ in .bool(false) },
        MPRISProperty("Identity") { _ in .string("DeskPlayer") },
        MPRISProperty("DesktopEntry") { _ in .string("deskplayer") },
        MPRISProperty("SupportedUriSchemes") { _ in .array(elementSignature: "s", uriSchemes.map { .string($0) }) },
        MPRISProperty("SupportedMimeTypes") { _ in .array(elementSignature: "s", mimeTypes.map { .string($0) }) },
    ]

    static let player: [MPRISProperty] = [
        MPRISProperty("PlaybackStatus") { s in .string(s.playbackStatus) },
        MPRISProperty("LoopStatus", get: { s in
            if s.value("loop-file").map({ $0 != .bool(false) }) == true { return .string("Track") }
            return .string(s.value("loop-playlist") == .string("inf") ? "Playlist" : "None")
        }, set: { s, v throws(DBusFailure) in
            guard case .string(let status) = v.unwrapped, ["None", "Track", "Playlist"].contains(status) else {
                throw .invalidArgs("LoopStatus is None, Track or Playlist")
            }
            try s.run(.set(property: "loop-file", value: .string(status == "Track" ? "inf" : "no")))
            try s.run(.set(property: "loop-playlist", value: .string(status == "Playlist" ? "inf" : "no")))
        }),
        // The speed; 0 pauses, as MPRIS asks; outside Minimum/MaximumRate it is refused.
        MPRISProperty("Rate", get: { s in .double(s.value("speed")?.number ?? 1) }, set: { s, v throws(DBusFailure) in
            let rate = try number(v)
            if rate == 0 { return try s.run(.set(property: "pause", value: .bool(true))) }
            guard PlaybackSpeed.range.contains(rate) else {
                throw .invalidArgs("Rate is 0 (pause) or \(PlaybackSpeed.range.lowerBound) to \(PlaybackSpeed.range.upperBound)")
            }
            try s.run(.set(property: "speed", value: .number(rate)))
        }),
        MPRISProperty("MinimumRate") { _ in .double(PlaybackSpeed.range.lowerBound) },
        MPRISProperty("MaximumRate") { _ in .double(PlaybackSpeed.range.upperBound) },
        MPRISProperty("Shuffle", get: { _ in .bool(false) }, set: { _, v throws(DBusFailure) in
            if try flag(v) { throw .notSupported("DeskPlayer does not shuffle") }
        }),
        MPRISProperty("Metadata") { s in s.metadata() },
        MPRISProperty("Volume", get: { s in .double((s.value("volume")?.number ?? 100) / 100) }, set: { s, v throws(DBusFailure) in
            let volume = try number(v)
            try s.run(.set(property: "volume", value: .number((min(max(volume, 0), 1) * 100).rounded())))
        }),
        MPRISProperty("Position", announced: false) { s in .int64(s.positionMicroseconds ?? 0) },
        MPRISProperty("CanGoNext") { s in
            guard let position = s.value("playlist-pos")?.number, let count = s.value("playlist-count")?.number else { return .bool(false) }
            return .bool(position + 1 < count || s.value("loop-playlist") == .string("inf"))
        },
        MPRISProperty("CanGoPrevious") { s in .bool((s.value("playlist-pos")?.number ?? 0) > 0) },
        MPRISProperty("CanPlay") { s in .bool(s.value("path") != nil) },
        MPRISProperty("CanPause") { s in .bool(s.value("path") != nil) },
        MPRISProperty("CanSeek") { s in .bool(s.value("duration") != nil) },
        MPRISProperty("CanControl", announced: false) { _ in .bool(true) },
    ]

    /// A number as D-Bus types it (a double; integers are accepted too).
    static func number(_ value: DBusValue) throws(DBusFailure) -> Double {
        switch value.unwrapped {
        case .double(let d) where d.isFinite: return d
        case .int32(let n): return Double(n)
        case .int64(let n): return Double(n)
        case .uint32(let n): return Double(n)
        default: throw .invalidArgs("expected a number, got \(value.unwrapped.signature)")
        }
    }

    static func flag(_ value: DBusValue) throws(DBusFailure) -> Bool {
        guard case .bool(let b) = value.unwrapped else { throw .invalidArgs("expected a boolean, got \(value.unwrapped.signature)") }
        return b
    }
}
