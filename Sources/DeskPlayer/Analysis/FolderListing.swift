// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
#if canImport(Glibc)
import Glibc
#endif

/// One name in a folder as the roll's scan needs it: what it is, and for a
/// video its modification time and size (from `stat`, never an open).
package struct FolderItem: Sendable, Equatable {
    package enum Kind: Sendable, Equatable { case folder, file }

    package let name: String
    package let kind: Kind
    /// Seconds since the epoch; 0 for a folder.
    package let modified: Int
    package let bytes: Int

    package init(name: String, kind: Kind, modified: Int = 0, bytes: Int = 0) {
        self.name = name
        self.kind = kind
        self.modified = modified
        self.bytes = bytes
    }
}

/// Lists one folder with `readdir` and `fstatat` on the folder's own
/// descriptor: the kind comes from the directory entry itself, so only the
/// videos (by their name) and the links are stat'ed, and nothing is built
/// for a name but the name (10,000 videos list in a few hundredths of a
/// second, where Foundation's listing and a stat of every path took ten
/// times as long). Hidden names are left out; a link to a file is that
/// file, a link to a folder is left out (it could loop).
package enum FolderListing {
    /// `wanted`: whether a file of this name is worth a stat (the roll's videos).
    package static func list(_ folder: String, wanted: (String) -> Bool) throws(MediaError) -> [FolderItem] {
        guard let dir = opendir(folder) else {
            throw MediaError(String(cString: strerror(errno)))
        }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        var items: [FolderItem] = []
        while let entry = readdir(dir) {
            // A name that is not UTF-8 could not be given back as a path: left out.
            guard let name = withUnsafeBytes(of: entry.pointee.d_name, { raw in
                String(validating: raw.prefix { $0 != 0 }, as: UTF8.self)
            }), !name.hasPrefix(".") else { continue }
            var type = Int(entry.pointee.d_type)
            var info = stat()
            if type == DT_UNKNOWN {
                // A file system that does not fill d_type (some FUSE mounts): lstat tells.
                guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                let kind = info.st_mode & S_IFMT
                type = kind == S_IFDIR ? DT_DIR : kind == S_IFLNK ? DT_LNK : kind == S_IFREG ? DT_REG : DT_UNKNOWN
            }
            if type == DT_DIR {
                items.append(FolderItem(name: name, kind: .folder))
                continue
            }
            // A link is listed when it leads to a file (a linked folder is not entered: it could loop).
            guard type == DT_REG || type == DT_LNK, wanted(name) else { continue }
            guard fstatat(fd, name, &info, 0) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            items.append(FolderItem(name: name, kind: .file, modified: Int(info.st_mtim.tv_sec),
                                    bytes: Int(clamping: info.st_size)))
        }
        return items
    }
}
