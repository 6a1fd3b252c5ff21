// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// What the player remembers between runs, as VLC does: the volume, mute,
/// and the main window's size and place, in
/// `$XDG_STATE_HOME/deskplayer/remembered.json` (default
/// `~/.local/state/deskplayer/`). Written whole or not at all (AtomicFile);
/// read with bounds: a file that is not a small regular file of this shape
/// is ignored with a one-line warning, and each value outside its range is
/// left out. The command line wins over it; `--no-remember` neither reads
/// nor writes it.
package struct RememberedState: Codable, Equatable, Sendable {
    package struct WindowFrame: Codable, Equatable, Sendable {
        package var width: Int, height: Int, x: Int, y: Int

        package init(width: Int, height: Int, x: Int, y: Int) {
            self.width = width
            self.height = height
            self.x = x
            self.y = y
        }

        /// A size a window can have and a place on some screen's plane.
        var isPlausible: Bool {
            (64...16384).contains(width) && (64...16384).contains(height) && (-32768...32767).contains(x) && (-32768...32767).contains(y)
        }
    }

    package var volume: Int?
    package var mute: Bool?
    package var window: WindowFrame?

    package init(volume: Int? = nil, mute: Bool? = nil, window: WindowFrame? = nil) {
        self.volume = volume
        self.mute = mute
        self.window = window
    }

    private enum CodingKeys: String, CodingKey { case volume, mute, window }

    /// Each value on its own: one that does not read (a volume of 1e300)
    /// is left out, the others kept; only a file that is no JSON object fails.
    package init(from decoder: any Swift.Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        volume = try? c.decodeIfPresent(Int.self, forKey: .volume)
        mute = try? c.decodeIfPresent(Bool.self, forKey: .mute)
        window = try? c.decodeIfPresent(WindowFrame.self, forKey: .window)
    }

    /// The largest file read: what it holds takes some 100 bytes.
    static let sizeLimit = 64 << 10

    package static func defaultURL(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ResumeStore.defaultURL(environment).deletingLastPathComponent().appendingPathComponent("remembered.json")
    }

    /// The state at `url`: nothing (and no problem) when there is no file;
    /// nothing and a one-line problem when it is not one to trust.
    package static func load(from url: URL = defaultURL()) -> (state: RememberedState, problem: String?) {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return (RememberedState(), nil) }
        let ignored = "; not remembered"
        guard info.st_mode & S_IFMT == S_IFREG else { return (RememberedState(), "\(url.path): not a regular file" + ignored) }
        guard info.st_size <= sizeLimit else {
            return (RememberedState(), "\(url.path): larger than \(sizeLimit >> 10) KiB" + ignored)
        }
        // Read at most the limit, whatever the file grew to meanwhile.
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return (RememberedState(), "\(url.path): cannot read" + ignored) }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: sizeLimit + 1)) ?? Data()
        guard data.count <= sizeLimit else { return (RememberedState(), "\(url.path): larger than \(sizeLimit >> 10) KiB" + ignored) }
        guard let decoded = try? JSONDecoder().decode(RememberedState.self, from: data) else {
            return (RememberedState(), "\(url.path): not a DeskPlayer state file" + ignored)
        }
        return (decoded.bounded, nil)
    }

    /// Only the values inside their ranges.
    var bounded: RememberedState {
        RememberedState(volume: volume.flatMap { (0...100).contains($0) ? $0 : nil }, mute: mute,
                        window: window.flatMap { $0.isPlausible ? $0 : nil })
    }

    package func save(to url: URL = defaultURL()) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try AtomicFile.write(try encoder.encode(self), to: url)
    }
}
