// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Playback

/// The cover picture of the item MPRIS describes, as a file a client can
/// read (`mpris:artUrl` is a URL): an image beside the media is named as it
/// is; a cover the file carries is written to a folder of our own (0700,
/// made by mkdtemp) in the temporary directory, which holds one cover at a
/// time (0600) and goes when this does. Main thread only.
final class CoverArtFile {
    private var folder: URL?
    /// The item whose cover was looked at, and where it went (nil: it has none).
    private weak var item: PlayerItem?
    private var written: URL?
    /// What `url(for:)` answers for that item.
    private var answer: String?
    private var count = 0

    deinit {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A file URL of `item`'s cover; nil when it has none, or is still opening.
    func url(for item: PlayerItem) -> String? {
        if item === self.item { return answer }
        guard let info = item.info else { return nil }  // asked again once it has opened
        self.item = item
        if let old = written { try? FileManager.default.removeItem(at: old) }
        written = nil
        answer = nil
        guard let cover = info.coverArt else { return nil }
        // An image beside the file is a file already: named as it is.
        if let path = cover.path {
            answer = URL(fileURLWithPath: path).absoluteString
            return answer
        }
        guard let folder = makeFolder() else { return nil }
        count += 1
        let file = folder.appendingPathComponent("cover-\(count).\(cover.fileExtension)")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(cover.bytes),
                                             attributes: [.posixPermissions: 0o600]) else {
            PlayerApp.printError("cannot write the cover picture to \(file.path)")
            return nil
        }
        written = file
        answer = file.absoluteString
        return answer
    }

    private func makeFolder() -> URL? {
        if let folder { return folder }
        var template = Array((NSTemporaryDirectory() + "/deskplayer-covers-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            PlayerApp.printError("cannot make a folder for cover pictures: \(String(cString: strerror(errno)))")
            return nil
        }
        folder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        return folder
    }
}
