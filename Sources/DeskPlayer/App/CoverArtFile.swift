import Foundation

/// The cover picture of the item MPRIS describes, as a file a client can
/// read (`mpris:artUrl` is a URL): a folder of our own (0700, made by
/// mkdtemp) in the temporary directory holds one cover at a time (0600);
/// the folder goes when this does. Main thread only.
final class CoverArtFile {
    private var folder: URL?
    /// The item whose cover was looked at, and where it went (nil: it has none).
    private weak var item: PlayerItem?
    private var written: URL?
    private var count = 0

    deinit {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// A file URL of `item`'s cover; nil when it has none, or is still opening.
    func url(for item: PlayerItem) -> String? {
        if item === self.item { return written?.absoluteString }
        guard let info = item.info else { return nil }  // asked again once it has opened
        self.item = item
        if let old = written { try? FileManager.default.removeItem(at: old) }
        written = nil
        guard let cover = info.coverArt, let folder = makeFolder() else { return nil }
        count += 1
        let file = folder.appendingPathComponent("cover-\(count).\(cover.fileExtension)")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(cover.bytes),
                                             attributes: [.posixPermissions: 0o600]) else {
            PlayerApp.printError("cannot write the cover picture to \(file.path)")
            return nil
        }
        written = file
        return file.absoluteString
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
