// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// The built-in file browser's model (used when the desktop has no file
/// dialog: no zenity or kdialog): one folder's entries, folders first, then
/// files, hidden ones left out, ".." on top to go up.
package struct FileBrowser {
    package struct Entry: Equatable {
        let name: String
        let isFolder: Bool
        /// What the list shows: folders end in "/".
        package var label: String { isFolder ? name + "/" : name }
    }

    package private(set) var folder: URL
    package private(set) var entries: [Entry] = []

    package init(folder: URL) {
        self.folder = folder.standardizedFileURL
        reload()
    }

    mutating func reload() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var folders: [Entry] = [], files: [Entry] = []
        for name in names where !name.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
            else { continue }
            (isDirectory.boolValue ? { folders.append(Entry(name: name, isFolder: true)) }
                : { files.append(Entry(name: name, isFolder: false)) })()
        }
        let byName: (Entry, Entry) -> Bool = { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        entries = (folder.path == "/" ? [] : [Entry(name: "..", isFolder: true)]) + folders.sorted(by: byName)
            + files.sorted(by: byName)
    }

    /// Opens entry `index`: a folder is entered (nil returned), a file is the choice.
    package mutating func open(_ index: Int) -> URL? {
        guard entries.indices.contains(index) else { return nil }
        let entry = entries[index]
        if entry.isFolder {
            folder = (entry.name == ".." ? folder.deletingLastPathComponent() : folder.appendingPathComponent(entry.name))
                .standardizedFileURL
            reload()
            return nil
        }
        return folder.appendingPathComponent(entry.name)
    }

    package mutating func goUp() { _ = open(entries.firstIndex { $0.name == ".." } ?? -1) }
}

/// The files played last, newest first, kept in the XDG state folder
/// (`recent.json`), replaced whole on each write.
package struct RecentFiles {
    let url: URL
    package private(set) var paths: [String] = []
    static let limit = 20

    package init(url: URL = ResumeStore.defaultURL().deletingLastPathComponent().appendingPathComponent("recent.json")) {
        self.url = url
        // At most a MiB of recent files (twenty paths are a few kB); more is not ours.
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int ?? 0
        if size <= 1 << 20, let data = try? Data(contentsOf: url), let list = try? JSONDecoder().decode([String].self, from: data) {
            paths = Array(list.prefix(RecentFiles.limit))
        }
    }

    /// Puts `name` first; false when it already was (nothing to write).
    package mutating func add(_ name: String) -> Bool {
        let key = ResumeStore.key(name)
        guard paths.first != key else { return false }
        paths.removeAll { $0 == key }
        paths.insert(key, at: 0)
        if paths.count > RecentFiles.limit { paths.removeLast(paths.count - RecentFiles.limit) }
        return true
    }

    package func save() throws {
        try AtomicFile.write(try JSONEncoder().encode(paths), to: url)
    }
}
