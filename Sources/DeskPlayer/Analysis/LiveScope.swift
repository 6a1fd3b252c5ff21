// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import CFFmpeg
import Foundation
import Synchronization
import Playback

/// A scope of the picture a tile shows, live while it plays and while it is
/// paused: the tile's file decoded again on a thread of its own at its own
/// size (`MetricsInput`), kept in step with the tile's time, and the frame
/// on screen run through FFmpeg's scope filter (`ScopeFilter`) up to 15
/// times a second. The player's own pipeline is not touched, so the scope
/// never holds a picture back. Thread-safe: what the window reads is in
/// `state` (Mutex); the decoder and filter belong to the worker.
package final class LiveScope: @unchecked Sendable {  // shared state in `state` (Mutex); decoding and filtering on the worker thread
    private struct State {
        package var kind: ScopeKind
        package var playhead = 0.0
        package var picture: PictureBuffer?
        /// The time of the frame `picture` is of.
        package var pictureTime: Double?
        package var version = 0
        package var problem: String?
        package var stopped = false
    }

    package let path: String
    private let state: Mutex<State>
    /// Moves when the playhead, the kind or `stopped` change: the worker
    /// waits on it between pictures instead of polling.
    private let changed = WakeSignal()
    package static let interval = 1.0 / 15

    package init(path: String, kind: ScopeKind) {
        self.path = path
        state = Mutex(State(kind: kind))
    }

    deinit { stop() }

    package func start() {
        let worker = Thread { [self] in work() }
        worker.name = "scope"
        worker.start()
    }

    package func stop() {
        state.withLock { $0.stopped = true }
        changed.signal()
    }

    package var kind: ScopeKind {
        get { state.withLock { $0.kind } }
        set {
            state.withLock { $0.kind = newValue }
            changed.signal()
        }
    }

    /// The tile's time on screen, each refresh.
    package func follow(playhead seconds: Double) {
        let moved = state.withLock { state in
            defer { state.playhead = seconds }
            return state.playhead != seconds
        }
        if moved { changed.signal() }
    }

    /// The latest scope picture, the time of its frame and its version (a new one each time it is drawn again).
    package var latest: (picture: PictureBuffer?, time: Double?, version: Int, problem: String?) {
        state.withLock { ($0.picture, $0.pictureTime, $0.version, $0.problem) }
    }

    private func work() {
        while !state.withLock({ $0.stopped }) {
            let start = state.withLock { $0.playhead }
            let input: MetricsInput
            do { input = try MetricsInput(path: path, capacity: 4) } catch {
                state.withLock { $0.problem = "\(error)"; $0.version += 1 }
                return
            }
            input.start(at: max(0, start - 0.001))
            follow(input)
            input.stop()
        }
    }

    /// Takes frames up to the playhead, draws the scope of the one on
    /// screen; returns when the playhead jumped away (to start again there) or on stop.
    private func follow(_ input: MetricsInput) {
        let timeBase = input.timeBase
        let step = input.frameRate.num > 0 ? 1 / av_q2d(input.frameRate) : 0.04
        var filter: ScopeFilter?
        var current: Frame?
        var currentTime = -Double.infinity
        var pending: Frame?
        var ended = false
        var drawn: (time: Double, kind: ScopeKind)?
        var lastDrawn: UInt64 = 0
        func time(_ frame: Frame) -> Double { Double(frame.pointer.pointee.pts) * av_q2d(timeBase) }
        while true {
            let seen = changed.generation
            let (playhead, kind, stopped) = state.withLock { ($0.playhead, $0.kind, $0.stopped) }
            if stopped { return }
            // Frames due by now: the last of them is on screen.
            while !ended {
                if pending == nil {
                    switch input.next() {
                    case .frame(let frame)?: pending = frame
                    case .end(let error)?:
                        ended = true
                        if let error { state.withLock { $0.problem = "\(error)" } }
                    case nil: return
                    }
                }
                guard let next = pending, time(next) <= playhead + step / 2 || current == nil else { break }
                current = next
                currentTime = time(next)
                pending = nil
            }
            // A seek back, or far ahead: decode from there instead.
            if playhead < currentTime - step || (!ended && playhead > currentTime + 2) { return }
            let now = HostTime.now()
            if let frame = current, kind != .none, drawn.map({ $0.time != currentTime || $0.kind != kind }) ?? true,
               Double(now &- lastDrawn) / 1e9 >= LiveScope.interval {
                do {
                    if filter?.kind != kind { filter = try ScopeFilter(kind: kind) }
                    let picture = try filter?.picture(of: frame, timeBase: timeBase)
                    state.withLock {
                        if let picture { $0.picture = picture; $0.pictureTime = currentTime }
                        $0.version += 1
                        $0.problem = nil
                    }
                } catch {
                    state.withLock { $0.problem = "\(kind.rawValue): \(error)"; $0.version += 1 }
                }
                drawn = (currentTime, kind)
                lastDrawn = now
            } else {
                // Until the playhead or the kind moves; bounded by the
                // drawing interval, which a picture skipped for it waits out.
                changed.wait(after: seen, timeout: LiveScope.interval)
            }
        }
    }
}
