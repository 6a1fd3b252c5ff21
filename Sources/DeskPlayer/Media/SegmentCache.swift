// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Synchronization

/// Keeps the segments of a network stream (HLS), up to `limit` bytes, so
/// the later passes of a loop are served without downloading again. A
/// quarter of it (at most 32 MB) is memory; the rest spills to files in a
/// private folder (made by mkdtemp, 0700, marked as ours) under
/// `$XDG_RUNTIME_DIR` (else the temporary folder), removed when the cache goes. When full it
/// keeps what it has rather than evicting: a loop reads the segments in a
/// cycle, where evicting the oldest would miss every time; kept, the first
/// segments hit on every pass and only the rest download. It sits under
/// FFmpeg's HLS demuxer as the input's `io_open`/`io_close2`: a segment read
/// to its end is kept, and opened again from the cache. The demux thread uses
/// it; the counters are read from others. Thread-safe (Mutex).
package final class SegmentCache: Sendable {
    private struct State {
        var entries: [String: Data] = [:]
        var spilled: [String: URL] = [:]
        var inMemory = 0
        var onDisk = 0
        var hits = 0
        /// The most bytes one resource held while it was read (kept until it ends).
        var peakRecording = 0
        var misses = 0
        var folder: URL?
        var spillFailed = false
        /// The first segment that could not be opened, and FFmpeg's error.
        var firstFailure: (url: String, code: Int32)?
        /// The AVIOContexts this cache opened (their opaque's address), to
        /// tell them from FFmpeg's own at close.
        var readers: Set<UInt> = []

        /// The private folder, made at the first spill in `base`; stale ones
        /// left by a player that was killed are removed then.
        mutating func spillFolderCreated(in base: URL) -> URL? {
            if let folder { return folder }
            if spillFailed { return nil }
            SegmentCache.removeStaleFolders(in: base)
            folder = SegmentCache.makeFolder(in: base)
            spillFailed = folder == nil  // memory only, then
            return folder
        }
    }

    /// What a spill folder's name starts with; the process id follows.
    static let folderPrefix = "deskplayer-segments-"
    /// The file that marks a spill folder as one this program made.
    static let markerName = ".deskplayer-segment-cache"

    let limit: Int
    let memoryLimit: Int
    /// Where spill folders are made (and stale ones of ours looked for).
    let spillBase: URL
    private let state = Mutex(State())

    package init(limit: Int, memoryLimit: Int? = nil, spillBase: URL = SegmentCache.defaultSpillBase()) {
        self.limit = limit
        self.memoryLimit = memoryLimit ?? min(limit / 4, 32 << 20)
        self.spillBase = spillBase
    }

    /// `$XDG_RUNTIME_DIR` when it is what the base directory spec says it
    /// is (a folder of ours that no one else may enter), else the temporary folder.
    package static func defaultSpillBase() -> URL {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            var info = stat()
            if lstat(runtime, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 {
                return URL(fileURLWithPath: runtime, isDirectory: true)
            }
        }
        return FileManager.default.temporaryDirectory
    }

    deinit {
        if let folder = spillFolder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Bytes held in all, and of them in memory.
    package var bytes: Int { state.withLock { $0.inMemory + $0.onDisk } }
    package var memoryBytes: Int { state.withLock { $0.inMemory } }
    /// The folder segments spill to (nil until one did).
    var spillFolder: URL? { state.withLock { $0.folder } }
    package var hits: Int { state.withLock { $0.hits } }
    /// The most bytes a resource being read was holding to be kept: never
    /// more than `limit`, however long a segment runs (`--stats-json`).
    package var peakRecordingBytes: Int { state.withLock { $0.peakRecording } }

    fileprivate func recording(_ bytes: Int) { state.withLock { $0.peakRecording = max($0.peakRecording, bytes) } }
    package var misses: Int { state.withLock { $0.misses } }

    func data(for url: String) -> Data? {
        let (memory, file) = state.withLock { ($0.entries[url], $0.spilled[url]) }
        // A spilled segment is read outside the lock (the counters stay quick to read).
        guard let data = memory ?? file.flatMap({ try? Data(contentsOf: $0) }) else { return nil }
        state.withLock { $0.hits += 1 }
        return data
    }

    /// The segment kept for `url`, if any, for a reader other than the
    /// stream's (a thumbnail): not counted as the stream's hit.
    package func kept(_ url: String) -> Data? {
        let (memory, file) = state.withLock { ($0.entries[url], $0.spilled[url]) }
        return memory ?? file.flatMap { try? Data(contentsOf: $0) }
    }

    /// Keeps `data` as the segment at `url` while it fits (a segment
    /// already kept stays as it is).
    package func store(_ data: Data, for url: String) {
        state.withLock { s in
            guard s.inMemory + s.onDisk + data.count <= limit, s.entries[url] == nil, s.spilled[url] == nil else { return }
            if s.inMemory + data.count <= memoryLimit {
                s.entries[url] = data
                s.inMemory += data.count
                return
            }
            guard let folder = s.spillFolderCreated(in: spillBase) else { return }
            let file = folder.appendingPathComponent("\(s.spilled.count).seg")
            guard FileManager.default.createFile(atPath: file.path, contents: data,
                                                 attributes: [.posixPermissions: 0o600]) else { return }
            s.spilled[url] = file
            s.onDisk += data.count
        }
    }

    /// A new folder in `base`: made by mkdtemp (a name no one could have
    /// taken first, mode 0700), with the marker that says it is ours.
    private static func makeFolder(in base: URL) -> URL? {
        var template = Array((base.path + "/" + folderPrefix + "\(getpid())-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        let folder = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        let marker = open(folder.appendingPathComponent(markerName).path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard marker >= 0 else {
            rmdir(folder.path)
            return nil
        }
        close(marker)
        return folder
    }

    /// Folders of ours whose player is no longer running. A folder in a
    /// shared temporary folder may be anyone's: only one that is a real
    /// folder (not a link), owned by us, holding our marker (a file owned
    /// by us), under our name with the id of a process that has ended, is removed.
    private static func removeStaleFolders(in base: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base.path) else { return }
        for name in names where name.hasPrefix(folderPrefix) {
            let pid = name.dropFirst(folderPrefix.count).split(separator: "-").first.flatMap { Int32($0) }
            guard let pid, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let folder = base.appendingPathComponent(name)
            guard isOurs(folder.path, kind: S_IFDIR), isOurs(folder.appendingPathComponent(markerName).path, kind: S_IFREG)
            else { continue }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// `path` itself (not what a link points to) is a `kind` owned by this user.
    private static func isOurs(_ path: String, kind: mode_t) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == kind && info.st_uid == getuid()
    }

    fileprivate func missed() { state.withLock { $0.misses += 1 } }

    /// The first segment that could not be opened (a 404, a refused
    /// connection) and FFmpeg's error: what to name when the stream then
    /// fails to open, which FFmpeg reports as data it does not recognise.
    var firstFailure: (url: String, code: Int32)? { state.withLock { $0.firstFailure } }

    fileprivate func failed(_ url: String, code: Int32) {
        state.withLock { s in if s.firstFailure == nil { s.firstFailure = (url, code) } }
    }

    fileprivate func addReader(_ opaque: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: opaque)
        _ = state.withLock { $0.readers.insert(address) }
    }

    /// True when `opaque` is a reader this cache opened (it is forgotten).
    fileprivate func removeReader(_ opaque: UnsafeMutableRawPointer) -> Bool {
        let address = UInt(bitPattern: opaque)
        return state.withLock { $0.readers.remove(address) != nil }
    }

    /// Segments fetched over the network, not playlists: a playlist may
    /// change (live) and is small. (The input itself may be a data: URL, and
    /// FFmpeg closes that one as its own, so it must stay FFmpeg's.)
    static func caches(_ url: String) -> Bool {
        let lower = url.lowercased()
        return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && !MediaLocation.isPlaylist(url)
    }

    /// Puts the cache under `context`'s input (before avformat_open_input).
    func install(on context: UnsafeMutablePointer<AVFormatContext>) {
        context.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.io_open = cachedOpen
        context.pointee.io_close2 = cachedClose
    }
}

/// One opened resource: served from memory, or read from the network and
/// recorded so it can be kept once read to its end.
private final class CachedReader {
    let url: String
    let cache: SegmentCache
    let memory: Data?
    var position = 0
    var inner: UnsafeMutablePointer<AVIOContext>?
    var recorded = Data()
    var recording = true
    var complete = false

    init(url: String, cache: SegmentCache, memory: Data?, inner: UnsafeMutablePointer<AVIOContext>?) {
        self.url = url
        self.cache = cache
        self.memory = memory
        self.inner = inner
    }

    deinit { avio_closep(&inner) }

    func read(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int32 {
        if let memory {
            guard position < memory.count else { return DP_AVERROR_EOF }
            let n = min(size, memory.count - position)
            memory.copyBytes(to: buffer, from: position..<(position + n))
            position += n
            return Int32(n)
        }
        let n = avio_read(inner, buffer, Int32(size))
        if n > 0 && recording {
            if recorded.count + Int(n) > cache.limit {
                // Larger than the whole cache (a segment that never ends): streamed, never kept.
                recording = false
                recorded = Data()
            } else {
                recorded.append(buffer, count: Int(n))
                cache.recording(recorded.count)
            }
        }
        if n == DP_AVERROR_EOF || (n == 0 && avio_feof(inner) != 0) {
            complete = recording
            return DP_AVERROR_EOF
        }
        return n
    }

    func seek(_ offset: Int64, _ whence: Int32) -> Int64 {
        if let memory {
            switch whence & ~AVSEEK_FORCE {
            case AVSEEK_SIZE: return Int64(memory.count)
            // Offsets come from the demuxer reading the stream: saturating, then clamped below.
            case SEEK_SET: position = Int(offset)
            case SEEK_CUR: position = position.addingReportingOverflow(Int(offset)).overflow ? Int.max : position + Int(offset)
            case SEEK_END: position = memory.count.addingReportingOverflow(Int(offset)).overflow ? Int.max : memory.count + Int(offset)
            default: return -1
            }
            position = min(max(position, 0), memory.count)
            return Int64(position)
        }
        if whence & ~AVSEEK_FORCE == AVSEEK_SIZE { return avio_size(inner) }
        // Reading jumps: what is recorded is no longer the whole resource.
        recording = false
        recorded = Data()
        return avio_seek(inner, offset, whence)
    }
}

private let readerRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, size in
    guard let opaque, let buffer else { return DP_AVERROR_EOF }
    return Unmanaged<CachedReader>.fromOpaque(opaque).takeUnretainedValue().read(buffer, Int(size))
}

private let readerSeek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return -1 }
    return Unmanaged<CachedReader>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence)
}

/// The input's io_open: playlists open as usual (FFmpeg's own context);
/// segments through a CachedReader.
private let cachedOpen: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?,
                                        UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Int32 = {
    s, pb, url, flags, options in
    guard let s, let pb, let url, let opaque = s.pointee.opaque else { return DP_AVERROR_EINVAL }
    let cache = Unmanaged<SegmentCache>.fromOpaque(opaque).takeUnretainedValue()
    let name = String(cString: url)
    // The input's own whitelist holds for everything it opens.
    if let whitelist = s.pointee.protocol_whitelist { av_dict_set(options, "protocol_whitelist", whitelist, 0) }
    // A server error or a dropped connection is retried with back-off (1, 2 s)
    // before the segment is given up.
    for (key, value) in [("reconnect", "1"), ("reconnect_on_network_error", "1"), ("reconnect_on_http_error", "5xx"),
                         ("reconnect_delay_max", "2")] {
        av_dict_set(options, key, value, 0)
    }
    guard SegmentCache.caches(name), flags & AVIO_FLAG_WRITE == 0 else {
        return avio_open2(pb, url, flags, &s.pointee.interrupt_callback, options)
    }
    let reader: CachedReader
    if let memory = cache.data(for: name) {
        reader = CachedReader(url: name, cache: cache, memory: memory, inner: nil)
    } else {
        cache.missed()
        var inner: UnsafeMutablePointer<AVIOContext>?
        let ret = avio_open2(&inner, url, flags, &s.pointee.interrupt_callback, options)
        guard ret >= 0 else {
            if ret != DP_AVERROR_EXIT { cache.failed(name, code: ret) }
            return ret
        }
        reader = CachedReader(url: name, cache: cache, memory: nil, inner: inner)
    }
    let size: Int32 = 32768
    guard let buffer = av_malloc(Int(size))?.assumingMemoryBound(to: UInt8.self) else { return DP_AVERROR_ENOMEM }
    let opaqueReader = Unmanaged.passRetained(reader).toOpaque()
    guard let context = avio_alloc_context(buffer, size, 0, opaqueReader, readerRead, nil, readerSeek) else {
        av_free(buffer)
        Unmanaged<CachedReader>.fromOpaque(opaqueReader).release()
        return DP_AVERROR_ENOMEM
    }
    context.pointee.seekable = reader.memory != nil ? AVIO_SEEKABLE_NORMAL : (reader.inner?.pointee.seekable ?? 0)
    cache.addReader(opaqueReader)
    pb.pointee = context
    return 0
}

/// The input's io_close2: a segment read to its end goes into the cache.
private let cachedClose: @convention(c) (UnsafeMutablePointer<AVFormatContext>?, UnsafeMutablePointer<AVIOContext>?) -> Int32 = {
    s, pb in
    guard let pb else { return 0 }
    guard let cacheOpaque = s?.pointee.opaque, let opaque = pb.pointee.opaque,
          Unmanaged<SegmentCache>.fromOpaque(cacheOpaque).takeUnretainedValue().removeReader(opaque) else {
        var plain: UnsafeMutablePointer<AVIOContext>? = pb
        return avio_closep(&plain)
    }
    let reader = Unmanaged<CachedReader>.fromOpaque(opaque).takeRetainedValue()
    if reader.memory == nil && reader.complete { reader.cache.store(reader.recorded, for: reader.url) }
    av_freep(&pb.pointee.buffer)
    var context: UnsafeMutablePointer<AVIOContext>? = pb
    avio_context_free(&context)
    return 0
}
