// SPDX-License-Identifier: GPL-3.0-or-later
import Synchronization

/// An item's decoding errors (damaged packets, concealed frames), counted
/// from its decode threads and read by the main thread (`decodeErrors` in
/// --stats-json, the `decode-errors` property). The first is said once, by
/// the loop that met it; the count goes on. Thread-safe (atomic).
package final class DecodeErrors: Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    package var total: Int { count.load(ordering: .relaxed) }

    /// Adds what a decoder noted (`Decoder.takeErrors`); says `first` through
    /// `warning` when these are the item's first errors.
    func add(_ noted: (count: Int, first: String?), warning: (String) -> Void) {
        guard noted.count > 0 else { return }
        let before = count.add(noted.count, ordering: .relaxed).oldValue
        if before == 0 {
            warning("damaged data (\(noted.first ?? "decoding error")); FFmpeg conceals it and playback goes on")
        }
    }
}
