// SPDX-License-Identifier: GPL-3.0-or-later
import CDBus

/// Owns one reference to a libdbus message (unreferenced in deinit) and
/// reads its header. Main thread only, as is the connection it came from.
package final class DBusMessage {
    let message: OpaquePointer

    /// Takes over a reference the caller holds (as libdbus hands them out).
    init(taking message: OpaquePointer) { self.message = message }

    /// A method call to `destination`'s `path`, or nil when libdbus has no memory.
    init?(callTo destination: String, path: String, interface: String, member: String) {
        guard let made = dbus_message_new_method_call(destination, path, interface, member) else { return nil }
        message = made
    }

    /// A signal from `path`.
    package init?(signalFrom path: String, interface: String, member: String) {
        guard let made = dbus_message_new_signal(path, interface, member) else { return nil }
        message = made
    }

    /// The reply to `call` (a method return).
    package init?(returnTo call: DBusMessage) {
        guard let made = dbus_message_new_method_return(call.message) else { return nil }
        message = made
    }

    /// An error reply to `call`: a D-Bus error name and a line for a person.
    package init?(error name: String, _ text: String, to call: DBusMessage) {
        guard let made = dbus_message_new_error(call.message, name, text) else { return nil }
        message = made
    }

    deinit { dbus_message_unref(message) }

    var type: Int32 { dbus_message_get_type(message) }
    package var path: String? { dbus_message_get_path(message).map { String(cString: $0) } }
    package var interface: String? { dbus_message_get_interface(message).map { String(cString: $0) } }
    package var member: String? { dbus_message_get_member(message).map { String(cString: $0) } }
    var errorName: String? { dbus_message_get_error_name(message).map { String(cString: $0) } }
    package var signature: String { dbus_message_get_signature(message).map { String(cString: $0) } ?? "" }
    var serial: UInt32 { dbus_message_get_serial(message) }
    var replySerial: UInt32 { dbus_message_get_reply_serial(message) }
    package var wantsReply: Bool { dbus_message_get_no_reply(message) == 0 }

    package var arguments: [DBusValue] { DBusValue.arguments(of: message) }

    package func append(_ values: [DBusValue]) -> Bool { DBusValue.append(values, to: message) }
}

/// A D-Bus error to answer a call with: one of the standard names clients
/// know, and a line for a person.
package struct DBusFailure: Error, Equatable {
    package let name: String
    package let text: String

    package static func invalidArgs(_ text: String) -> DBusFailure { .init(name: "org.freedesktop.DBus.Error.InvalidArgs", text: text) }
    package static func unknownMethod(_ text: String) -> DBusFailure { .init(name: "org.freedesktop.DBus.Error.UnknownMethod", text: text) }
    package static func unknownInterface(_ text: String) -> DBusFailure {
        .init(name: "org.freedesktop.DBus.Error.UnknownInterface", text: text)
    }
    package static func unknownObject(_ text: String) -> DBusFailure { .init(name: "org.freedesktop.DBus.Error.UnknownObject", text: text) }
    package static func unknownProperty(_ text: String) -> DBusFailure {
        .init(name: "org.freedesktop.DBus.Error.UnknownProperty", text: text)
    }
    package static func readOnly(_ text: String) -> DBusFailure { .init(name: "org.freedesktop.DBus.Error.PropertyReadOnly", text: text) }
    package static func notSupported(_ text: String) -> DBusFailure { .init(name: "org.freedesktop.DBus.Error.NotSupported", text: text) }
    package static func failed(_ text: String) -> DBusFailure { .init(name: "org.freedesktop.DBus.Error.Failed", text: text) }
}
