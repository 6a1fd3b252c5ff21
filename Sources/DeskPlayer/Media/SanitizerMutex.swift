// SPDX-License-Identifier: GPL-3.0-or-later
#if DESKPLAYER_TSAN
import Foundation

/// Only in `make sanitize`'s ThreadSanitizer build (-DDESKPLAYER_TSAN).
///
/// On Linux, Synchronization's `Mutex` locks with futex system calls inside
/// the uninstrumented standard library, so ThreadSanitizer never sees it
/// taken: every access it guards (the audio ring between a decode thread and
/// the SDL callback, an item's state, ...) is reported as a race. Declared in
/// this module, this `Mutex` (the same calls the project makes: `init`,
/// `withLock`) takes its place there, on a pthread mutex, which TSan
/// intercepts; so a TSan report is a real missing lock. Normal builds never
/// compile it and use Synchronization's.
///
/// In that build `Mutex` names it in each target that locks (a one-line
/// `TSanMutex.swift` there, and the typealias below here): a declaration of
/// the target's own shadows Synchronization's, so the lock sites read the
/// same in both builds. (One declared in Media alone would not: a type name
/// found in two imported modules is ambiguous.)
package final class PthreadMutex<Value>: @unchecked Sendable {  // `value` is only touched with `mutex` held
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ initialValue: Value) {
        value = initialValue
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// The body's result, or nil without waiting when another thread holds the lock.
    func withLockIfAvailable<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

typealias Mutex<Value> = PthreadMutex<Value>
#endif
