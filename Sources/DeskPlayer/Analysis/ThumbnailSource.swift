// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Foundation
import Synchronization
import Playback

/// Pictures of a file at the times the mouse hovers on its seek bar. A
/// decoder of its own (its own input, one thread at the lowest priority,
/// small pictures, see `ThumbnailDecoder`) makes them on a thread that
/// runs only while there is something to make, so the playing video never
/// waits for it; they are kept in a bounded cache per file.
///
/// The UI asks for the time under the mouse every refresh (`request`), and
/// takes what is ready (`entry`); `cancel` when the mouse leaves stops the
/// decoding. Only the latest time asked for is made. Thread-safe (Mutex).
package final class ThumbnailSource: Sendable {
    /// The largest picture made: wide enough to recognise a scene, small
    /// enough to scale and keep cheaply (192x108 for 16:9).
    package static let maxWidth = 192, maxHeight = 144
    /// Bytes of pictures kept per file (about 190 at 192x108).
    package static let cacheBytes = 16 << 20
    /// A worker with nothing to do keeps its input open this long (the
    /// mouse often comes back), then ends and closes it.
    package static let idleSeconds = 5.0

    fileprivate struct State {
        package var wanted: Double?
        package var cache = ThumbnailCache(byteLimit: ThumbnailSource.cacheBytes)
        /// A file that ends before its stated duration: from this time on,
        /// its last picture.
        package var tail: (from: Double, entry: ThumbnailCache.Entry)?
        package var workerRunning = false
        package var closed = false
        /// Nothing can be made (no video, cannot open): asked once, then quiet.
        package var unavailable = false
        /// An HLS stream's playlist, once read (a worker that ends keeps it for the next).
        var playlist: HLSMediaPlaylist?
        /// A segment being fetched for the times of `span`: given up
        /// through `interrupt` when the mouse leaves, or rests on a time
        /// outside it for longer than `ThumbnailDecoder.patience`.
        var fetch: (span: Range<Double>, interrupt: InterruptFlag, since: UInt64)?

        /// Gives up the fetch under way, if the time now wanted is not in it.
        mutating func giveUpFetch(unlessFor seconds: Double?) {
            guard let fetch else { return }
            if let seconds, fetch.span.contains(seconds)
                || Double(HostTime.now() &- fetch.since) / 1e9 <= ThumbnailDecoder.patience { return }
            fetch.interrupt.set()
        }
    }

    /// What the worker thread shares with the owner (the worker holds this,
    /// not the source, so dropping the source ends the worker).
    fileprivate final class Shared: Sendable {
        package let state = Mutex(State())
        package let wake = DispatchSemaphore(value: 0)
    }

    package let location: MediaLocation
    private let settings: VideoFilterSettings
    /// For an HLS stream: what its pictures are read from, a segment at a time.
    private let stream: HLSThumbnails.Stream?
    private let shared = Shared()

    /// A local file. `settings`: the item's video settings (its rotation is followed).
    package init(location: MediaLocation, settings: VideoFilterSettings) {
        self.location = location
        self.settings = settings
        stream = nil
    }

    /// The pictures of what `item` plays: a local file, or an HLS stream
    /// (the variant it plays, through its segment cache).
    package init(for item: PlayerItem) {
        location = item.location
        settings = item.preferences.video
        if let info = item.info, info.formatName == "hls" {
            stream = HLSThumbnails.Stream(playlist: item.variant.map { MediaLocation($0.uri) } ?? item.location,
                                          cache: item.segmentCache, timelineStart: info.timelineStart)
        } else {
            stream = nil
        }
    }

    deinit {
        shared.state.withLock { s in
            s.closed = true
            s.giveUpFetch(unlessFor: nil)
        }
        shared.wake.signal()
    }

    /// Whether this source can never make a picture (no video in the file, or it cannot be opened).
    package var isUnavailable: Bool { shared.state.withLock { $0.unavailable } }

    /// Whether a stream's segment is being fetched now.
    package var isFetching: Bool { shared.state.withLock { $0.fetch != nil } }

    /// Pictures made by every source of the process, and the CPU time
    /// their threads spent (for `--stats-json`).
    package static var picturesMadeInAll: Int { madeInAll.load(ordering: .relaxed) }
    package static var cpuSecondsInAll: Double { Double(cpuMicrosecondsInAll.load(ordering: .relaxed)) / 1e6 }
    fileprivate static let madeInAll = Atomic<Int>(0)
    fileprivate static let cpuMicrosecondsInAll = Atomic<Int>(0)

    /// The picture for `seconds` if it is made: the entry of its bucket (a
    /// nil picture in it: none can be made there), or a short file's last picture.
    package func entry(at seconds: Double) -> ThumbnailCache.Entry? {
        shared.state.withLock { s in
            if let tail = s.tail, seconds >= tail.from { return tail.entry }
            return s.cache.entry(ThumbnailCache.bucket(seconds))
        }
    }

    /// A picture of the bucket before or after that of `seconds`, if made:
    /// within a second of it, to show while its own is made.
    package func neighbour(of seconds: Double) -> PictureBuffer? {
        let bucket = ThumbnailCache.bucket(seconds)
        return shared.state.withLock { s in
            s.cache.entry(bucket - 1)?.picture ?? s.cache.entry(bucket + 1)?.picture
        }
    }

    /// Asks for the picture at `seconds` (replacing any time asked before);
    /// the worker starts if it is not running.
    package func request(_ seconds: Double) {
        let start = shared.state.withLock { s -> Bool in
            guard !s.closed, !s.unavailable else { return false }
            s.giveUpFetch(unlessFor: seconds)
            if let tail = s.tail, seconds >= tail.from { return false }
            if s.cache.contains(ThumbnailCache.bucket(seconds)) { return false }
            if s.wanted == seconds && s.workerRunning { return false }
            s.wanted = seconds
            if s.workerRunning { return false }
            s.workerRunning = true
            return true
        }
        if start {
            let shared = self.shared, location = self.location, settings = self.settings, stream = self.stream
            let thread = Thread { ThumbnailSource.work(shared, location: location, settings: settings, stream: stream) }
            thread.name = "deskplayer.thumbnails"
            thread.stackSize = 1 << 20
            thread.start()
        } else {
            shared.wake.signal()
        }
    }

    /// The mouse left the seek bar: whatever is being decoded stops.
    package func cancel() {
        let running = shared.state.withLock { s -> Bool in
            s.wanted = nil
            s.giveUpFetch(unlessFor: nil)
            return s.workerRunning
        }
        if running { shared.wake.signal() }
    }

    // MARK: The worker

    private static func work(_ shared: Shared, location: MediaLocation, settings: VideoFilterSettings,
                             stream: HLSThumbnails.Stream?) {
        LowPriority.apply()
        var decoder: (any ThumbnailMaker)?
        while let target = nextWanted(shared) {
            if decoder == nil {
                do throws(MediaError) {
                    decoder = try maker(shared, location: location, settings: settings, stream: stream)
                } catch {
                    // Said nowhere: the seek bar still shows the time, and
                    // the player says what is wrong with the file.
                    shared.state.withLock { s in
                        s.unavailable = true
                        s.wanted = nil
                    }
                    continue
                }
            }
            let cpu = LowPriority.threadCPUMicroseconds()
            decoder?.make(target, progress: Progress(shared))
            cpuMicrosecondsInAll.add(LowPriority.threadCPUMicroseconds() - cpu, ordering: .relaxed)
        }
    }

    /// What makes the pictures: a decoder of the file, or of the stream's
    /// segments (its playlist read once per source).
    private static func maker(_ shared: Shared, location: MediaLocation, settings: VideoFilterSettings,
                              stream: HLSThumbnails.Stream?) throws(MediaError) -> any ThumbnailMaker {
        guard let stream else {
            return try ThumbnailDecoder(location: location, settings: settings, maxWidth: maxWidth, maxHeight: maxHeight)
        }
        let playlist: HLSMediaPlaylist
        if let read = shared.state.withLock({ $0.playlist }) {
            playlist = read
        } else {
            playlist = try HLSThumbnails.playlist(of: stream.playlist, interrupt: InterruptFlag())
            shared.state.withLock { $0.playlist = playlist }
        }
        return HLSThumbnails(stream, playlist: playlist, settings: settings, maxWidth: maxWidth, maxHeight: maxHeight)
    }

    /// The time to make next, waiting for one; nil once closed or idle for
    /// `idleSeconds` (the worker then ends; a later request starts another).
    private static func nextWanted(_ shared: Shared) -> Double? {
        var waited = false
        while true {
            let next = shared.state.withLock { s -> Double?? in
                if s.closed || s.unavailable {
                    s.workerRunning = false
                    return .some(nil)
                }
                if let wanted = s.wanted {
                    if s.cache.contains(ThumbnailCache.bucket(wanted)) || s.tail.map({ wanted >= $0.from }) == true {
                        s.wanted = nil
                    } else {
                        return .some(wanted)
                    }
                }
                if waited {
                    s.workerRunning = false
                    return .some(nil)
                }
                return .none
            }
            if let next { return next }
            waited = shared.wake.wait(timeout: .now() + idleSeconds) == .timedOut
        }
    }

    /// What the decoder asks between packets, and where it puts what it made.
    package struct Progress {
        fileprivate let shared: Shared

        fileprivate init(_ shared: Shared) { self.shared = shared }

        /// The time wanted now (nil: nothing, stop).
        package var wanted: Double? { shared.state.withLock { s in s.closed ? nil : s.wanted } }

        package func has(_ bucket: Int) -> Bool { shared.state.withLock { $0.cache.contains(bucket) } }

        package func store(_ entry: ThumbnailCache.Entry, for bucket: Int) {
            shared.state.withLock { s in
                if entry.picture != nil {
                    ThumbnailSource.madeInAll.add(1, ordering: .relaxed)
                }
                s.cache.insert(entry, for: bucket)
            }
        }

        /// A fetch for the times of `span` begins (false: nothing is wanted
        /// there now, do not begin); `interrupt` gives it up.
        func fetching(_ span: Range<Double>, interrupt: InterruptFlag) -> Bool {
            shared.state.withLock { s in
                guard !s.closed, let wanted = s.wanted, span.contains(wanted) else { return false }
                s.fetch = (span, interrupt, HostTime.now())
                return true
            }
        }

        /// The fetch ended.
        func fetched() { shared.state.withLock { $0.fetch = nil } }

        /// The file ends early: from `seconds` on, `entry` (its last picture) stands for every time.
        package func storeTail(_ entry: ThumbnailCache.Entry, from seconds: Double) {
            shared.state.withLock { s in
                ThumbnailSource.madeInAll.add(1, ordering: .relaxed)
                s.tail = (seconds, entry)
            }
        }
    }
}

/// What the thumbnail worker makes pictures with: a decoder of a whole
/// file, or of an HLS stream's segments.
protocol ThumbnailMaker: AnyObject {
    /// Makes the picture at `target` (timeline seconds) into `progress`, or
    /// returns early when the time wanted moves on.
    func make(_ target: Double, progress: ThumbnailSource.Progress)
}

/// The calling thread runs at the lowest priority (nice 19) so that any
/// playing thread wins the cores from it. Linux nices threads one by one:
/// `who` 0 is the calling thread, not the whole process (setpriority(2), BUGS).
package enum LowPriority {
    package static func apply() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
    }

    /// The CPU time the calling thread has used, in µs.
    package static func threadCPUMicroseconds() -> Int {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return ts.tv_sec * 1_000_000 + ts.tv_nsec / 1000
    }
}
