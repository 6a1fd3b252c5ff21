// SPDX-License-Identifier: GPL-3.0-or-later
import CDBus
import Foundation
import Media

/// A private connection to the D-Bus session bus (libdbus): it owns the
/// DBusConnection, claims a well-known name, and is polled from the main
/// loop without ever blocking it (reads and writes with a zero timeout; the
/// bus's replies are matched when they come). When the bus goes away the
/// connection just closes: nothing else stops. Main thread only.
package final class SessionBus {
    private let connection: OpaquePointer
    package private(set) var isOpen = true
    /// The well-known name the bus gave us, once it has.
    private(set) var ownedName: String?
    /// Name requests on the way, by serial: the name, and the one to try
    /// when another program holds it.
    private var nameRequests: [UInt32: (name: String, fallback: String?)] = [:]
    /// What happened to the connection, in a line each (for `-v`).
    package var onNotice: (String) -> Void = { _ in }

    private static let busName = "org.freedesktop.DBus", busPath = "/org/freedesktop/DBus"

    /// Where the session bus is: `DBUS_SESSION_BUS_ADDRESS`, else the
    /// per-user socket systemd makes. Never libdbus's autolaunch, which
    /// would start a bus of our own over X11 where there is none (SSH, CI).
    package static func address(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        let socket = runtime + "/bus"
        var info = stat()
        guard stat(socket, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=" + socket
    }

    /// Connects to the bus at `address`; throws a line saying why not.
    package init(address: String) throws(MediaError) {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let opened = dbus_connection_open_private(address, &error) else {
            let reason = error.message.map { String(cString: $0) } ?? "cannot connect"
            throw MediaError("cannot connect to the session bus: \(reason)")
        }
        connection = opened
        dbus_connection_set_exit_on_disconnect(connection, 0)
        // Hello first: the bus accepts nothing else before it. Its reply
        // (our unique name) is not needed.
        guard let hello = DBusMessage(callTo: SessionBus.busName, path: SessionBus.busPath,
                                      interface: SessionBus.busName, member: "Hello"), send(hello) != nil else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw MediaError("cannot greet the session bus")
        }
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// Asks for `name`, or `fallback` when another program owns it (a
    /// second instance). The answer comes through `poll`.
    package func requestName(_ name: String, fallback: String? = nil) {
        guard let call = DBusMessage(callTo: SessionBus.busName, path: SessionBus.busPath,
                                     interface: SessionBus.busName, member: "RequestName"),
              call.append([.string(name), .uint32(DP_DBUS_NAME_FLAG_DO_NOT_QUEUE)]),
              let serial = send(call) else { return }
        nameRequests[serial] = (name, fallback)
    }

    /// Reads and writes what the socket allows now, without waiting, and
    /// returns the method calls that arrived. Replies to our own requests
    /// and the bus's signals are dealt with here.
    package func poll() -> [DBusMessage] {
        guard isOpen else { return [] }
        _ = dbus_connection_read_write(connection, 0)
        var calls: [DBusMessage] = []
        while isOpen, let raw = dbus_connection_pop_message(connection) {
            let message = DBusMessage(taking: raw)
            switch message.type {
            case DP_DBUS_MESSAGE_TYPE_METHOD_CALL:
                calls.append(message)
            case DP_DBUS_MESSAGE_TYPE_METHOD_RETURN, DP_DBUS_MESSAGE_TYPE_ERROR:
                answered(message)
            case DP_DBUS_MESSAGE_TYPE_SIGNAL where message.interface == "org.freedesktop.DBus.Local"
                && message.member == "Disconnected":
                close("the session bus went away")
            default:
                break
            }
        }
        if isOpen && dbus_connection_get_is_connected(connection) == 0 { close("the session bus went away") }
        return calls
    }

    /// The connection's socket, to wait on for what arrives (nil when closed or unknown).
    package var fileDescriptor: Int32? {
        var fd: Int32 = -1
        guard isOpen, dbus_connection_get_unix_fd(connection, &fd) != 0, fd >= 0 else { return nil }
        return fd
    }

    /// Messages queued that the socket has not taken yet.
    package var hasPendingOutput: Bool { isOpen && dbus_connection_has_messages_to_send(connection) != 0 }

    /// Queues `message`; returns its serial, nil when closed or out of memory.
    @discardableResult
    package func send(_ message: DBusMessage) -> UInt32? {
        guard isOpen else { return nil }
        var serial: dbus_uint32_t = 0
        guard dbus_connection_send(connection, message.message, &serial) != 0 else { return nil }
        return serial
    }

    /// Writes what is queued as far as the socket takes it now (the rest
    /// goes on the next poll).
    package func flush() {
        guard isOpen else { return }
        _ = dbus_connection_read_write(connection, 0)
    }

    private func answered(_ reply: DBusMessage) {
        guard let request = nameRequests.removeValue(forKey: reply.replySerial) else { return }
        let code: UInt32?
        if case .uint32(let n)? = reply.arguments.first { code = n } else { code = nil }
        if code == DP_DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || code == DP_DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER {
            ownedName = request.name
            onNotice("on the session bus as \(request.name)")
        } else if let fallback = request.fallback {
            requestName(fallback)
        } else {
            onNotice("the session bus refused the name \(request.name)" + (reply.errorName.map { ": \($0)" } ?? ""))
        }
    }

    private func close(_ reason: String) {
        isOpen = false
        ownedName = nil
        onNotice(reason)
    }
}
