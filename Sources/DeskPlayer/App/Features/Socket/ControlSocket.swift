// SPDX-License-Identifier: GPL-3.0-or-later
import Control

/// The control socket's side of mpv's JSON IPC (`--input-ipc-server`):
/// requests that only a client makes (get, observe, client_name) are
/// answered here; every command goes to the one `CommandController`, as a
/// key's would. Main thread only.
final class ControlSocket {
    /// What a client watches with `observe_property`: sent again when it changes.
    private struct Observation {
        let connection: Int
        let id: JSONValue
        let name: String
        /// As text (`observe_property_string`).
        let asText: Bool
        /// Read every turn: it changes on its own (`Property.Changes.polled`).
        let polled: Bool
        var last: JSONValue?
        /// The change count it was last read at (`PropertyChanges`); nil: not read yet.
        var readAt: UInt64?
    }

    /// Properties one client may observe at once: each is read after every
    /// change (a polled one every turn).
    static let observationsPerClient = 1000

    private let server: IPCServer
    private var observations: [Observation] = []
    /// How many of `observations` are each client's.
    private var observationsOf: [Int: Int] = [:]
    /// How many properties are observed, by every client together.
    var observationCount: Int { observations.count }
    /// Requests whose command handed its work to the file worker, by ticket: replied to when it has run.
    private var awaitingFileJobs: [Int: IPCRequest] = [:]
    private var lastReportedPause: Bool?
    /// The change count `lastReportedPause` was read at.
    private var pauseReadAt: UInt64?

    init(path: String, arrived: @escaping @Sendable () -> Void) throws {
        server = try IPCServer(path: path, arrived: arrived)
    }

    /// An event to every client (`{"event": "file-loaded"}`).
    func broadcast(_ name: String, _ fields: [(String, JSONValue)] = []) {
        server.broadcast(ipcEvent(name, fields))
    }

    /// Answers every request that arrived, after letting go of what the
    /// clients that went were observing.
    func serve(_ controller: CommandController) {
        let closed = Set(server.takeClosedConnections())
        if !closed.isEmpty {
            observations.removeAll { closed.contains($0.connection) }
            for connection in closed { observationsOf[connection] = nil }
        }
        for request in server.takeRequests() {
            let result: Result<JSONValue, CommandError>
            _ = controller.takeStartedFileJob()
            do { result = .success(try answer(request, controller)) } catch { result = .failure(error) }
            if case .success = result, let ticket = controller.takeStartedFileJob() {
                awaitingFileJobs[ticket] = request
                continue
            }
            server.reply(request.reply(result), to: request)
        }
    }

    /// Replies to the requests whose file jobs have run.
    func replyToFileJobs(_ finished: [(ticket: Int, result: Result<JSONValue, CommandError>)]) {
        for (ticket, result) in finished {
            guard let request = awaitingFileJobs.removeValue(forKey: ticket) else { continue }
            server.reply(request.reply(result), to: request)
        }
    }

    /// Sends what changed in this turn (pause, observed properties): called
    /// last in a turn, after everything that can change a value (requests,
    /// MPRIS, keys, jobs' results, player events), since at rest the next
    /// turn may be long in coming.
    /// A property is read again only after a change was marked
    /// (`PropertyChanges`), or every turn when it is polled (the position,
    /// counters: what moves with the clock is looked at each turn as before).
    func announce(_ controller: CommandController) {
        let generation = controller.changeGeneration()
        if pauseReadAt != generation, let focused = controller.tiles.focused {
            pauseReadAt = generation
            let paused = focused.player.isPaused
            if let last = lastReportedPause, last != paused { broadcast(paused ? "pause" : "unpause") }
            lastReportedPause = paused
        }
        for index in observations.indices {
            let observation = observations[index]
            guard observation.polled || observation.readAt != generation else { continue }
            observations[index].readAt = generation
            let value: JSONValue? = observation.asText
                ? (try? controller.text(at: observation.name, raw: true)).map { .string($0) }
                : try? controller.value(at: observation.name)
            guard value != observation.last else { continue }
            observations[index].last = value
            var fields: [(String, JSONValue)] = [("id", observation.id), ("name", .string(observation.name))]
            // mpv leaves `data` out while the property is unavailable.
            if let value { fields.append(("data", value)) }
            server.send(ipcEvent("property-change", fields), to: observation.connection)
        }
    }

    private func answer(_ request: IPCRequest, _ controller: CommandController) throws(CommandError) -> JSONValue {
        let body = try request.body.get()
        guard case .positional(let parts) = body else {
            if case .named(let object) = body { return try controller.apply(try CommandSpec.parse(named: object), from: .socket) }
            throw .invalidParameter
        }
        func text(_ i: Int) throws(CommandError) -> String {
            guard parts.indices.contains(i) else { throw .invalidParameter }
            return parts[i].plainText
        }
        switch request.name {
        case "get_property":
            return try controller.value(at: try text(1))
        case "get_property_string":
            return .string(try controller.text(at: try text(1), raw: true))
        case "observe_property", "observe_property_string":
            guard parts.count >= 3 else { throw .invalidParameter }
            let name = try text(2)
            // An unknown name is an error now, not silence later (mpv checks it too).
            guard PropertyTable.named(CommandController.split(name).name) != nil else { throw .propertyNotFound }
            guard observationsOf[request.connection, default: 0] < Self.observationsPerClient else {
                throw .tooManyObservations
            }
            observations.append(Observation(connection: request.connection, id: parts[1], name: name,
                                            asText: request.name == "observe_property_string",
                                            polled: PropertyTable.isPolled(name), last: nil, readAt: nil))
            observationsOf[request.connection, default: 0] += 1
        case "unobserve_property":
            guard parts.count >= 2 else { throw .invalidParameter }
            let before = observations.count
            observations.removeAll { $0.connection == request.connection && $0.id == parts[1] }
            observationsOf[request.connection, default: 0] -= before - observations.count
        case "client_name":
            return .string("ipc-\(request.connection)")
        case "get_version":
            // mpv's client API version (2.1), which clients compare numerically.
            return .number(Double(2 << 16 | 1))
        case "enable_event", "disable_event", "request_log_messages":
            // Every event goes to every client; DeskPlayer writes no log messages to clients.
            break
        default:
            return try controller.apply(try CommandSpec.parse(parts), from: .socket)
        }
        return .null
    }
}
