// SPDX-License-Identifier: GPL-3.0-or-later
import CDBus

/// A D-Bus value of the kinds MPRIS and org.freedesktop.DBus.Properties
/// use, read from and written to libdbus's message iterators. Its
/// signature is known even for an empty array, which D-Bus needs.
package indirect enum DBusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case variant(DBusValue)
    /// An array of values of one type, given by its signature ("s", "v").
    case array(elementSignature: String, [DBusValue])
    /// a{sv}: the dictionary MPRIS's Metadata and GetAll return.
    case dictionary([DictionaryEntry])
    /// A value of a type this reader does not map (a struct, bytes…):
    /// its signature, so a caller can say what it got.
    case unsupported(signature: String)

    package struct DictionaryEntry: Equatable, Sendable {
        let key: String
        let value: DBusValue

        package init(_ key: String, _ value: DBusValue) {
            self.key = key
            self.value = value
        }
    }

    package var signature: String {
        switch self {
        case .string: return "s"
        case .objectPath: return "o"
        case .bool: return "b"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .variant: return "v"
        case .array(let element, _): return "a" + element
        case .dictionary: return "a{sv}"
        case .unsupported(let signature): return signature
        }
    }

    /// The value inside a variant (the value itself otherwise).
    package var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    subscript(key: String) -> DBusValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    // MARK: Reading

    /// Every argument of a message, in order.
    static func arguments(of message: OpaquePointer) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            values.append(read(&iter))
        } while dbus_message_iter_next(&iter) != 0
        return values
    }

    private static func read(_ iter: inout DBusMessageIter) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case DP_DBUS_TYPE_STRING, DP_DBUS_TYPE_OBJECT_PATH:
            var text: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&iter, &text)
            let s = text.map { String(cString: $0) } ?? ""
            return type == DP_DBUS_TYPE_STRING ? .string(s) : .objectPath(s)
        case DP_DBUS_TYPE_BOOLEAN:
            var b: dbus_bool_t = 0
            dbus_message_iter_get_basic(&iter, &b)
            return .bool(b != 0)
        case DP_DBUS_TYPE_INT32:
            var n: Int32 = 0
            dbus_message_iter_get_basic(&iter, &n)
            return .int32(n)
        case DP_DBUS_TYPE_UINT32:
            var n: UInt32 = 0
            dbus_message_iter_get_basic(&iter, &n)
            return .uint32(n)
        case DP_DBUS_TYPE_INT64:
            var n: Int64 = 0
            dbus_message_iter_get_basic(&iter, &n)
            return .int64(n)
        case DP_DBUS_TYPE_UINT64:
            var n: UInt64 = 0
            dbus_message_iter_get_basic(&iter, &n)
            return .uint64(n)
        case DP_DBUS_TYPE_DOUBLE:
            var d = 0.0
            dbus_message_iter_get_basic(&iter, &d)
            return .double(d)
        case DP_DBUS_TYPE_VARIANT:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return .variant(read(&inner))
        default:
            return .unsupported(signature: signature(of: &iter))
        }
    }

    private static func signature(of iter: inout DBusMessageIter) -> String {
        guard let text = dbus_message_iter_get_signature(&iter) else { return "?" }
        defer { dbus_free(text) }
        return String(cString: text)
    }

    // MARK: Writing

    /// Appends `values` as a message's arguments. False when libdbus could
    /// not (out of memory) or a value cannot be written.
    static func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        return values.allSatisfy { $0.write(&iter) }
    }

    private func write(_ iter: inout DBusMessageIter) -> Bool {
        switch self {
        case .string(let s):
            return DBusValue.writeText(s, type: DP_DBUS_TYPE_STRING, &iter)
        case .objectPath(let s):
            return DBusValue.writeText(s, type: DP_DBUS_TYPE_OBJECT_PATH, &iter)
        case .bool(let b):
            var v: dbus_bool_t = b ? 1 : 0
            return dbus_message_iter_append_basic(&iter, DP_DBUS_TYPE_BOOLEAN, &v) != 0
        case .int32(var n):
            return dbus_message_iter_append_basic(&iter, DP_DBUS_TYPE_INT32, &n) != 0
        case .uint32(var n):
            return dbus_message_iter_append_basic(&iter, DP_DBUS_TYPE_UINT32, &n) != 0
        case .int64(var n):
            return dbus_message_iter_append_basic(&iter, DP_DBUS_TYPE_INT64, &n) != 0
        case .uint64(var n):
            return dbus_message_iter_append_basic(&iter, DP_DBUS_TYPE_UINT64, &n) != 0
        case .double(var d):
            return dbus_message_iter_append_basic(&iter, DP_DBUS_TYPE_DOUBLE, &d) != 0
        case .variant(let inner):
            return DBusValue.container(DP_DBUS_TYPE_VARIANT, inner.signature, &iter) { sub in inner.write(&sub) }
        case .array(let element, let values):
            return DBusValue.container(DP_DBUS_TYPE_ARRAY, element, &iter) { sub in
                values.allSatisfy { $0.signature == element && $0.write(&sub) }
            }
        case .dictionary(let entries):
            return DBusValue.container(DP_DBUS_TYPE_ARRAY, "{sv}", &iter) { sub in
                entries.allSatisfy { entry in
                    DBusValue.container(DP_DBUS_TYPE_DICT_ENTRY, nil, &sub) { pair in
                        DBusValue.string(entry.key).write(&pair) && DBusValue.variant(entry.value).write(&pair)
                    }
                }
            }
        case .unsupported:
            return false
        }
    }

    /// Strings and object paths. Swift strings are valid UTF-8, which
    /// libdbus insists on (it aborts on a bad one); a NUL would end the
    /// string early, so it is left out.
    private static func writeText(_ text: String, type: Int32, _ iter: inout DBusMessageIter) -> Bool {
        let clean = text.contains("\0") ? text.replacingOccurrences(of: "\0", with: "") : text
        return clean.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, type, &p) != 0
        }
    }

    /// Opens a container, fills it, and closes it (or abandons it when
    /// filling failed, as libdbus requires).
    private static func container(_ type: Int32, _ contained: String?, _ iter: inout DBusMessageIter,
                                  _ fill: (inout DBusMessageIter) -> Bool) -> Bool {
        var sub = DBusMessageIter()
        let opened = contained.map { s in s.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) } }
            ?? dbus_message_iter_open_container(&iter, type, nil, &sub)
        guard opened != 0 else { return false }
        guard fill(&sub) else {
            dbus_message_iter_abandon_container(&iter, &sub)
            return false
        }
        return dbus_message_iter_close_container(&iter, &sub) != 0
    }
}
