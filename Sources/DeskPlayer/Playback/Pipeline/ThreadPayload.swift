// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// What a thread runs, handed to it once: the thread takes it, and what it
/// captured (an item, a pipeline) is let go when the work returns, before
/// the thread says it is done, not whenever Foundation frees the `Thread`
/// object (which keeps its block) a moment later. So a caller that waited
/// for the thread holds the last reference and frees the object itself.
final class ThreadPayload<Work>: @unchecked Sendable {  // set once before the thread starts, taken once by it
    private var work: Work?

    init(_ work: Work) { self.work = work }

    /// The work, once; the payload no longer holds it.
    func take() -> Work? {
        defer { work = nil }
        return work
    }
}
