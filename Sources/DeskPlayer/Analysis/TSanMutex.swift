// SPDX-License-Identifier: GPL-3.0-or-later
// In `make sanitize-thread`'s build (-DDESKPLAYER_TSAN) this target's locks
// are Media's PthreadMutex, which ThreadSanitizer sees (Media/SanitizerMutex.swift
// says why); normal builds use Synchronization's Mutex.
#if DESKPLAYER_TSAN
import Media

typealias Mutex<Value> = PthreadMutex<Value>
#endif
