// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media
import Synchronization

/// What takes the video packets a live input's demuxer reads, as it reads
/// them (a reference to each, the player going on with its own).
package protocol PacketTap: AnyObject, Sendable {
    func take(_ packet: Packet)
    /// A packet could not be referenced (out of memory): a frame lost.
    func lost()
    /// The input ended (`reason`: the read error; nil: its end).
    func inputEnded(_ reason: String?)
}

/// Records a live input's video to an MP4 file: the demuxer's packets go
/// through a bounded queue to a thread of its own that decodes them
/// (raw, MJPEG or H.264 from a camera), encodes H.264 (libx264, veryfast,
/// zerolatency, a keyframe every second) stamped with the camera's own
/// times, and writes fragmented MP4 (`frag_keyframe+empty_moov`) so that
/// a killed recording still plays up to its last second. The file is
/// written under an exclusive temporary name in its folder and renamed to
/// `url` (or `url` with " (2)"… when that was taken meanwhile) when it ends.
package final class CameraRecorder: PacketTap, @unchecked Sendable {  // the mutable parts are the recording thread's own; the rest is behind `shared`
    /// How a recording ended.
    package enum Outcome: Sendable, Equatable {
        /// Stopped as asked; the file is complete.
        case finished(URL)
        /// The input ended or failed (a camera unplugged): closed and kept.
        case inputEnded(URL, reason: String?)
        /// Writing failed (a full disk): what was written is kept at the URL, if any.
        case failed(URL?, reason: String)
    }

    /// Where a recording stands, for the OSD and the properties.
    package struct Progress: Sendable {
        package var seconds = 0.0
        package var bytes: Int64 = 0
        package var frames = 0
        /// Packets the queue had no room for (the encoder fell behind).
        package var dropped = 0
        package var outcome: Outcome?
    }

    /// The name the file gets when it ends.
    package let url: URL
    private let shared = Mutex(Shared())
    private let wake = DispatchSemaphore(value: 0)

    private struct Shared {
        var packets: [Packet] = []
        var bytes = 0
        /// The microphone's samples (48 kHz stereo float) and when each chunk arrived.
        var audio: [(samples: [Float], arrived: UInt64)] = []
        var audioCount = 0
        /// When the first video packet arrived: the recording's time zero on the host clock.
        var firstVideoHost: UInt64?
        var stopping = false
        var ended: String??
        var progress = Progress()
    }

    /// At most this much waits for the encoder: four seconds of 30 fps,
    /// and never more than 256 MB of raw 1080p frames.
    static let queueLimit = 120
    static let queueBytesLimit = 256 << 20
    /// Four seconds of 48 kHz stereo waiting, at most.
    static let audioQueueLimit = 4 * 48_000 * 2

    // The recording thread's own.
    private let decoder: Decoder
    private var encoder: MovieEncoder?
    private let frame: Frame
    private let streamTimeBase: AVRational
    private let descriptor: Int32
    private let temporary: URL
    private var firstStamp: Int64?
    private var lastPts: Int64 = -1
    /// The microphone's first samples were placed on the video's clock.
    private var audioPlaced = false
    private let hasAudio: Bool
    /// The recording's stamps: 90 kHz ticks, fine enough for any camera's rate.
    private static let ticksPerSecond: Int32 = 90_000
    private static let timeBase = AVRational(num: 1, den: ticksPerSecond)

    /// Opens the encoder for `stream` (its decoder made here) writing to a
    /// temporary file beside `url`; `start()` begins the thread.
    /// `audio`: a microphone's samples come through `takeAudio` (AAC).
    package init(stream: UnsafeMutablePointer<AVStream>, to url: URL, audio: Bool = false,
                 preset: String = "veryfast") throws(MediaError) {
        hasAudio = audio
        decoder = try Decoder(stream: stream, threads: 1)
        frame = try Frame()
        streamTimeBase = stream.pointee.time_base
        let parameters = stream.pointee.codecpar.pointee
        guard parameters.width > 0, parameters.height > 0, parameters.width <= 8192, parameters.height <= 8192 else {
            throw MediaError("the camera's picture size \(parameters.width)x\(parameters.height) cannot be recorded")
        }
        var rate = stream.pointee.avg_frame_rate.num > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        if rate.num <= 0 || rate.den <= 0 || (ContainerMath.value(rate) ?? 0) > 240 { rate = AVRational(num: 30, den: 1) }
        let perSecond = min(max(ContainerMath.wholeFramesPerSecond(rate) ?? 30, 1), 240)
        let (fd, temporary) = try AtomicFile.createTemporary(beside: url)
        // Held while this process writes it: a recording whose lock is free
        // was left by a player that was killed (`InterruptedRecordings`).
        _ = flock(fd, LOCK_EX | LOCK_NB)
        self.url = url
        self.temporary = temporary
        descriptor = fd
        do {
            // The exclusive descriptor itself, through FFmpeg's pipe protocol:
            // the name is never opened again.
            encoder = try MovieEncoder(
                path: "pipe:\(fd)", name: url.path, width: Int(parameters.width), height: Int(parameters.height),
                frameRate: rate, audio: audio ? MovieEncoder.AudioInput(sampleRate: AudioFormat.device.sampleRate) : nil,
                pictures: .compatible, quality: 23, preset: preset,
                live: MovieEncoder.Live(tune: "zerolatency", timeBase: CameraRecorder.timeBase, keyframeInterval: perSecond,
                                        muxerOptions: ["movflags": "frag_keyframe+empty_moov+default_base_moof"]))
        } catch {
            close(fd)
            unlink(temporary.path)
            throw error
        }
    }

    deinit {
        encoder = nil
        close(descriptor)
    }

    /// Starts the recording thread.
    package func start() {
        let thread = Thread { [self] in run() }
        thread.name = "deskplayer.record"
        thread.start()
    }

    /// Ends the recording: what is queued is encoded, the file finished and renamed.
    package func stop() {
        shared.withLock { $0.stopping = true }
        wake.signal()
    }

    package var progress: Progress { shared.withLock { $0.progress } }

    // MARK: PacketTap (the demux thread)

    package func take(_ packet: Packet) {
        let queued = shared.withLock { s -> Bool in
            guard !s.stopping, s.ended == nil else { return false }
            if s.firstVideoHost == nil { s.firstVideoHost = HostTime.now() }
            guard s.packets.count < CameraRecorder.queueLimit, s.bytes + packet.size <= CameraRecorder.queueBytesLimit else {
                s.progress.dropped += 1
                return false
            }
            s.packets.append(packet)
            s.bytes += packet.size
            return true
        }
        if queued { wake.signal() }
    }

    package func lost() { shared.withLock { $0.progress.dropped += 1 } }

    /// A microphone's samples (48 kHz stereo float, interleaved) that
    /// arrived at `host` (the end of the chunk, on the host clock).
    package func takeAudio(_ samples: [Float], arrivedAt host: UInt64) {
        guard hasAudio else { return }
        let queued = shared.withLock { s -> Bool in
            guard !s.stopping, s.ended == nil, s.audioCount + samples.count <= CameraRecorder.audioQueueLimit else { return false }
            s.audio.append((samples, host))
            s.audioCount += samples.count
            return true
        }
        if queued { wake.signal() }
    }

    package func inputEnded(_ reason: String?) {
        shared.withLock { if $0.ended == nil { $0.ended = .some(reason) } }
        wake.signal()
    }

    // MARK: The recording thread

    private func run() {
        var failure: String?
        while failure == nil {
            wake.wait()
            let (packets, audio, zero, stopping, ended) = shared.withLock { s in
                defer { s.packets = []; s.bytes = 0; s.audio = []; s.audioCount = 0 }
                return (s.packets, s.audio, s.firstVideoHost, s.stopping, s.ended)
            }
            for packet in packets where failure == nil {
                failure = encode(packet)
            }
            if let zero {
                for chunk in audio where failure == nil { failure = encodeAudio(chunk.samples, arrived: chunk.arrived, zero: zero) }
            }
            if stopping || ended != nil || failure != nil {
                finish(failure: failure, ended: ended)
                return
            }
        }
    }

    /// Decodes `packet` and encodes its pictures; the failure, said, or nil.
    private func encode(_ packet: Packet?) -> String? {
        var failure: String?
        decoder.decode(packet, into: frame, until: { failure != nil }) { decoded in
            let f = decoded.pointer
            let stamp = f.pointee.best_effort_timestamp != DP_AV_NOPTS_VALUE ? f.pointee.best_effort_timestamp : f.pointee.pts
            guard stamp != DP_AV_NOPTS_VALUE else { return }
            let first = firstStamp ?? stamp
            firstStamp = first
            // Stamps as the camera gave them, from zero; never backwards.
            let pts = max(av_rescale_q(stamp &- first, streamTimeBase, CameraRecorder.timeBase), lastPts + 1)
            lastPts = pts
            do {
                try encoder?.writeVideo(frame: f, pts: pts)
            } catch {
                failure = "\(error)"
                return
            }
            let bytes = encoder?.bytesWritten ?? 0
            shared.withLock {
                $0.progress.frames += 1
                $0.progress.seconds = Double(pts) / Double(CameraRecorder.ticksPerSecond)
                $0.progress.bytes = bytes
            }
        }
        return failure
    }

    /// The microphone's samples on the video's clock: its first chunk is
    /// placed where it arrived after the first frame (silence before it, or
    /// its samples from before the first frame left out), the rest follow on.
    private func encodeAudio(_ samples: [Float], arrived: UInt64, zero: UInt64) -> String? {
        var samples = samples
        if !audioPlaced {
            audioPlaced = true
            let rate = Double(AudioFormat.device.sampleRate)
            // Within ten seconds either way: the host clock is the host's, but bounded all the same.
            let start = min(max(Double(Int64(bitPattern: arrived &- zero)) / 1e9 - Double(samples.count / 2) / rate, -10), 10)
            let frames = Int((start * rate).rounded())
            if frames > 0 {
                samples = [Float](repeating: 0, count: min(frames, 10 * 48_000) * 2) + samples
            } else {
                samples.removeFirst(min(-frames * 2, samples.count))
            }
        }
        do { try encoder?.writeAudio(samples) } catch { return "\(error)" }
        return nil
    }

    private func finish(failure: String?, ended: String??) {
        var failure = failure
        if failure == nil { failure = encode(nil) }
        if failure == nil {
            do { try encoder?.finish() } catch { failure = "\(error)" }
        }
        encoder = nil  // flushes what the muxer holds to the descriptor
        let synced = fsync(descriptor) == 0 || failure != nil
        let outcome: Outcome
        switch (placeFile(), failure) {
        case (.success(let placed), nil) where synced:
            if let ended { outcome = .inputEnded(placed, reason: ended ?? nil) } else { outcome = .finished(placed) }
        case (.success(let placed), let failure):
            outcome = .failed(placed, reason: failure ?? "cannot write the file (disk full?)")
        case (.failure(let error), let failure):
            outcome = .failed(nil, reason: failure ?? "\(error)")
        }
        shared.withLock { $0.progress.outcome = outcome }
    }

    /// The temporary file under `url`, or `url` with " (2)", " (3)"… where
    /// another file took the name meanwhile; never over an existing file
    /// (a hard link fails where the name is taken).
    private func placeFile() -> Result<URL, MediaError> {
        var size = stat()
        if fstat(descriptor, &size) == 0, size.st_size == 0 {
            unlink(temporary.path)
            return .failure(MediaError("nothing was recorded"))
        }
        return RecordingName.place(temporary, as: url)
    }
}

/// The names a recording takes: `Video YYYY-MM-DD HH-MM-SS.mp4`, then
/// the same with " (2)", " (3)"… where a name is taken.
package enum RecordingName {
    package static func base(at date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH-mm-ss"
        return "Video " + formatter.string(from: date)
    }

    /// The first name in `folder` for `date` that no file has.
    package static func free(in folder: URL, at date: Date) -> URL {
        let first = folder.appendingPathComponent(base(at: date) + ".mp4")
        return candidates(for: first).prefix(1000).first { !FileManager.default.fileExists(atPath: $0.path) } ?? first
    }

    /// `temporary` under `url`, or `url` with " (2)", " (3)"… where another
    /// file has the name; never over an existing file (a hard link fails
    /// where the name is taken).
    package static func place(_ temporary: URL, as url: URL) -> Result<URL, MediaError> {
        for candidate in candidates(for: url).prefix(1000) {
            if link(temporary.path, candidate.path) == 0 {
                unlink(temporary.path)
                return .success(candidate)
            }
            guard errno == EEXIST else { break }
        }
        let reason = String(cString: strerror(errno))
        return .failure(MediaError("cannot name the recording \(url.lastPathComponent) (\(reason)); it is kept as \(temporary.path)"))
    }

    /// `url`, then `url` with " (2)", " (3)"… before its extension.
    package static func candidates(for url: URL) -> some Sequence<URL> {
        let folder = url.deletingLastPathComponent()
        let stem = url.deletingPathExtension().lastPathComponent, ext = url.pathExtension
        return (1...).lazy.map { n in
            folder.appendingPathComponent((n == 1 ? stem : "\(stem) (\(n))") + (ext.isEmpty ? "" : "." + ext))
        }
    }
}
