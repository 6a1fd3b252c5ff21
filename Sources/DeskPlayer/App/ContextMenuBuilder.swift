// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Playback
import UI

/// The context menu as it opens: the menu table made a tree, each item's
/// mark read from the property its command sets or cycles (a radio for
/// `set P V`, a check for a flag's `cycle P` or `cycle-values P ON OFF`),
/// its key from the binding table running the same command, and the lists
/// (recent files, playlist, tracks) filled from what is playing.
enum ContextMenuBuilder {
    /// Most rows a generated list adds (a long playlist, many recent files).
    static let listLimit = 20

    static func items(_ table: [MenuEntry], controller: CommandController) -> [MenuItem] {
        let shown = table.filter { entry in entry.when.map { (try? controller.value(of: $0)) != nil } ?? true }
        return build(shown, depth: 0, controller)
    }

    /// A submenu at the top by the start of its title ("Audio", "subtitles"),
    /// or a deeper one by a path ("Video > Aspect"); nil when there is none.
    static func submenu(_ path: String, in items: [MenuItem]) -> [MenuItem]? {
        var level = items
        for word in MenuTable.split(path) {
            guard let children = level.first(where: {
                $0.children != nil && ($0.name.lowercased().hasPrefix(word.lowercased())
                    || $0.title.lowercased().hasPrefix(word.lowercased()))
            })?.children else { return nil }
            level = children
        }
        return level
    }

    /// The items at one depth: a leaf per entry that ends here, a submenu
    /// per title that goes on (where its first entry is), a list's rows where it stands.
    private static func build(_ entries: [MenuEntry], depth: Int, _ controller: CommandController) -> [MenuItem] {
        var items: [MenuItem] = []
        var submenus: [(title: String, at: Int, entries: [MenuEntry])] = []
        for entry in entries {
            // A list entry names its submenu: its rows go inside, at this place.
            let path = entry.list == nil ? entry.path : entry.path + [""]
            guard path.count > depth else { continue }
            if path.count == depth + 1 {
                if let list = entry.list, path[depth].isEmpty {
                    items += listItems(list, controller)
                } else if entry.isSeparator {
                    items.append(.separator)
                } else {
                    items.append(leaf(entry, controller))
                }
            } else if let i = submenus.firstIndex(where: { $0.title == path[depth] }) {
                submenus[i].entries.append(entry)
            } else {
                submenus.append((path[depth], items.count, [entry]))
                items.append(MenuItem(title: tr(path[depth]), name: path[depth], children: []))
            }
        }
        for submenu in submenus {
            items[submenu.at].children = build(submenu.entries, depth: depth + 1, controller)
        }
        return tidy(items)
    }

    /// No separator first, last or twice (a hidden group leaves them).
    private static func tidy(_ items: [MenuItem]) -> [MenuItem] {
        var out: [MenuItem] = []
        for item in items where !(item.isSeparator && (out.isEmpty || out.last?.isSeparator == true)) { out.append(item) }
        while out.last?.isSeparator == true { out.removeLast() }
        return out
    }

    private static func leaf(_ entry: MenuEntry, _ controller: CommandController) -> MenuItem {
        guard let command = try? Command(parsing: entry.command) else {
            return MenuItem(title: tr(entry.title), name: entry.title, enabled: false)
        }
        let key = controller.bindings.first { $0.command == command && $0.section == .main }?.key
        let (mark, enabled) = state(of: command, controller)
        return MenuItem(title: tr(entry.title), name: entry.title, shortcut: key.map { KeyBindings.displayName($0) } ?? "", mark: mark,
                        enabled: enabled, command: entry.command)
    }

    /// The mark the property now gives a command, and whether it can run
    /// (a setting of a property without a value now cannot).
    private static func state(of command: Command, _ controller: CommandController) -> (MenuItem.Mark, Bool) {
        func read(_ name: String) -> (Property, JSONValue)? {
            guard let property = PropertyTable.named(name), let value = try? controller.value(of: name) else { return nil }
            return (property, value)
        }
        switch command {
        case .set(let name, let value):
            guard let (property, current) = read(name) else { return (.none, false) }
            if case .value = property.kind { return (.none, true) }
            return (.radio(property.meaning(current) == property.meaning(value)), true)
        case .cycle(let name, _):
            guard let (property, current) = read(name) else { return (.none, false) }
            if case .flag = property.kind { return (.check(property.meaning(current) == .bool(true)), true) }
            return (.none, true)
        case .cycleValues(let name, let values):
            guard let (property, current) = read(name) else { return (.none, false) }
            return (.check(values.first.map { property.meaning(.string($0)) == property.meaning(current) } ?? false), true)
        case .add(let name, _), .multiply(let name, _):
            return (.none, read(name) != nil)
        case .openFiles(subtitles: true), .subAdd:
            // Subtitles need a file playing to go on.
            return (.none, controller.tiles.focused?.player.currentItem != nil)
        default:
            return (.none, true)
        }
    }

    /// A list's rows, from what is playing now (a disabled "(none)" when empty).
    private static func listItems(_ list: MenuEntry.List, _ controller: CommandController) -> [MenuItem] {
        var rows: [MenuItem]
        switch list {
        case .recent:
            rows = RecentFiles().paths.prefix(listLimit).map {
                MenuItem(title: DisplayText.shortName($0), command: Command.loadfile($0, .replace).text)
            }
        case .playlist:
            var entries: [JSONValue] = []
            if case .array(let list) = try? controller.value(of: "playlist") { entries = list }
            rows = entries.prefix(listLimit).enumerated().map { i, entry in
                let name = entry["title"]?.string ?? DisplayText.shortName(entry["filename"]?.string ?? "?")
                return MenuItem(title: "\(i + 1). \(name)", mark: .radio(entry["current"] == .bool(true)),
                                command: Command.set(property: "playlist-pos", value: .number(Double(i))).text)
            }
        case .audio, .subtitles:
            let type = list == .audio ? "audio" : "sub"
            let tracks = controller.tiles.focused?.player.currentItem.map(TrackProperties.entries) ?? []
            rows = tracks.filter { $0.type == type }.prefix(listLimit).map { entry in
                MenuItem(title: title(of: entry), mark: .radio(entry.selected),
                         command: Command.set(property: type == "audio" ? "aid" : "sid", value: .number(Double(entry.id))).text)
            }
            if list == .subtitles, controller.tiles.focused?.player.currentItem != nil {
                let off = !tracks.contains { $0.type == "sub" && $0.selected }
                rows.insert(MenuItem(title: tr("Off"), mark: .radio(off), command: "set sid no"), at: 0)
            }
        }
        return rows.isEmpty ? [MenuItem(title: tr("(none)"), enabled: false)] : rows
    }

    /// A track as a person tells it apart: its number, title, language, codec (a file's name when external).
    private static func title(of entry: TrackProperties.Entry) -> String {
        let t = entry.track
        let parts = [t.externalPath.map { ($0 as NSString).lastPathComponent }, t.title, t.language, t.codec]
            .compactMap { $0 }.filter { !$0.isEmpty }
        return "\(entry.id). " + parts.joined(separator: " · ")
    }
}
