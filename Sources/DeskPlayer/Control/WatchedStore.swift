// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// The files played to their end, beside the resume positions
/// (`$XDG_STATE_HOME/deskplayer/watched.json`, a list of absolute paths,
/// the newest last): the camera roll marks them. Bounded to the newest
/// `limit`; written as `ResumeStore` is (under a lock beside it, to a
/// temporary file renamed over the old one), so two players ending files
/// together each keep theirs.
package enum WatchedStore {
    /// Paths kept at most (some 1 MB of JSON).
    static let limit = 10_000
    /// A larger file is not ours to trust: read as empty.
    static let sizeLimit = 4 << 20

    package static func defaultURL(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ResumeStore.defaultURL(environment).deletingLastPathComponent().appendingPathComponent("watched.json")
    }

    /// The paths recorded (empty when there is no file, or it is not one of ours).
    package static func read(url: URL = defaultURL()) -> [String] {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size <= sizeLimit,
              let data = try? Data(contentsOf: url), let paths = try? JSONDecoder().decode([String].self, from: data)
        else { return [] }
        return Array(paths.suffix(limit))
    }

    /// Records `name` (a local file; a URL is not the roll's) as watched to its end.
    package static func add(_ name: String, url: URL = defaultURL()) throws {
        guard !name.contains("://") else { return }
        let key = ResumeStore.key(name)
        try LockFile.holding(beside: url) {
            var paths = read(url: url)
            guard paths.last != key else { return }
            paths.removeAll { $0 == key }
            paths.append(key)
            try AtomicFile.write(try JSONEncoder().encode(Array(paths.suffix(limit))), to: url)
        }
    }
}
