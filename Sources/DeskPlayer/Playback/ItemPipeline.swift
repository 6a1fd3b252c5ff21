import CFFmpeg
import Foundation
import Synchronization

/// The running machinery of one opened item: a demux thread feeding bounded
/// packet queues, and one decode thread per stream filling the frame queue
/// (video, converted for display) and the audio ring (resampled to the
/// device format). Every packet and frame carries the serial of its seek
/// generation; a seek bumps it and stale data is dropped downstream.
/// What a player plays from: an opened item's buffers, filled on the item's
/// own threads (a file's demuxer and decoders, or a composition's renderer).
protocol ItemSource: AnyObject, Sendable {
    var info: MediaInfo { get }
    var hasVideo: Bool { get }
    var hasAudio: Bool { get }
    var frames: FrameQueue { get }
    var audioRing: AudioRing { get }
    /// The seek generation the buffers are filled for.
    var serial: Int { get }
    /// The timeline start of every loop pass begun so far (this serial).
    var passStarts: [MediaTime] { get }
    @discardableResult func seek(to time: MediaTime, pass: Int) -> Int
    func setDisplaySize(width: Int, height: Int)
    func setPasses(_ passes: Int?)
    func start(at time: MediaTime)
    func stop()
    /// Every track of the item (streams and subtitle files).
    var tracks: [MediaTrack] { get }
    /// The audio stream playing (nil: none).
    var selectedAudioTrack: Int? { get }
    /// Switches audio to stream `id` from `playhead` on; false when it cannot.
    func selectAudioTrack(_ id: Int, playhead: MediaTime) -> Bool
    /// The item's subtitles (nil when it cannot have any).
    var subtitles: SubtitleTracks? { get }
}

extension ItemSource {
    var tracks: [MediaTrack] { [] }
    var selectedAudioTrack: Int? { nil }
    func selectAudioTrack(_ id: Int, playhead: MediaTime) -> Bool { false }
    var subtitles: SubtitleTracks? { nil }
}

final class ItemPipeline: ItemSource, @unchecked Sendable {  // mutable state lives in `control` (Mutex); the C owners each belong to one thread
    struct Stream {
        let index: Int
        let timeBase: AVRational
        let decoder: Decoder
    }

    /// Where the audio decoder starts delivering for an audio serial.
    private struct AudioStart {
        let serial: Int
        let streamIndex: Int?
        /// On the timeline of the video serial.
        let time: MediaTime
        /// The loop pass it lies in (index into `passStarts`) and that pass's start.
        let pass: Int
        let passOffset: MediaTime
        /// A track switch fades the new track in.
        let fadesIn: Bool
    }

    private struct Control {
        var serial = 0
        /// The serial of the audio queue and ring: the seek's, or a later
        /// one when the audio track changed without a seek.
        var audioSerial = 0
        var audioIndex: Int?
        var audioStart: AudioStart?
        /// A track switch for the demuxer: read the audio again from `media`
        /// in pass `pass` (counted from the last seek).
        var pendingAudioSwitch: (media: MediaTime, pass: Int)?
        var pendingSeek: MediaTime?
        /// The loop pass (0-based, counted since the item began) the seek lands in.
        var pendingSeekPass = 0
        /// Where the decoders start delivering after the seek of `serial`.
        var seekTarget: (serial: Int, time: MediaTime)?
        var displaySize: (width: Int, height: Int)
        var preferences: ItemPreferences
        /// Passes to play in all (nil: loop forever; 1: play once).
        var passes: Int? = 1
        /// Where each loop pass starts on the timeline of the current serial.
        /// Audio is authoritative (it is sample-exact); video follows it.
        var passStarts: [MediaTime] = [.zero]
    }

    let info: MediaInfo
    let video: Stream?
    /// The audio stream selected when the item opened.
    let audio: Stream?
    /// Every audio stream that can play, by stream index (the selected one too).
    private let audioStreams: [Int: Stream]
    let subtitles: SubtitleTracks?
    /// Embedded subtitle streams, decoded on the demux thread as they are read.
    private let subtitleDecoders: [Int: Decoder]
    let tracks: [MediaTrack]
    let frames = FrameQueue()
    let audioRing: AudioRing
    private let input: MediaInput
    private let videoPackets = PacketQueue()
    private let audioPackets = PacketQueue()
    /// Subtracted from container timestamps so the item starts at zero.
    private let startOffset: MediaTime
    private let control: Mutex<Control>
    private let aborted = Atomic<Bool>(false)
    private let threadsDone = DispatchGroup()
    private let warningSink: @Sendable (String) -> Void

    init(input: MediaInput, info: MediaInfo, video: Stream?, audio: Stream?, preferences: ItemPreferences,
         outputFormat: AudioFormat, otherAudio: [Stream] = [], tracks: [MediaTrack] = [],
         subtitles: SubtitleTracks? = nil, subtitleDecoders: [Int: Decoder] = [:],
         warning: @escaping @Sendable (String) -> Void) {
        self.input = input
        self.info = info
        self.video = video
        self.audio = audio
        var streams = [Int: Stream]()
        for s in otherAudio + [audio].compactMap({ $0 }) { streams[s.index] = s }
        audioStreams = streams
        self.tracks = tracks
        self.subtitles = subtitles
        self.subtitleDecoders = subtitleDecoders
        audioRing = AudioRing(format: outputFormat, seconds: preferences.audioBufferSeconds)
        // The earliest start of the streams played, exactly in their own time
        // bases; never negative (AAC priming starts before zero on purpose).
        let starts = [video, audio].compactMap { stream -> MediaTime? in
            guard let stream, let s = input.stream(stream.index), s.pointee.start_time != DP_AV_NOPTS_VALUE else { return nil }
            return MediaTime(s.pointee.start_time, stream.timeBase)
        }
        startOffset = max(starts.min() ?? .zero, .zero)
        var c = Control(displaySize: (info.displayWidth, info.displayHeight), preferences: preferences)
        c.audioIndex = audio?.index
        control = Mutex(c)
        warningSink = warning
    }

    var hasVideo: Bool { video != nil }
    var hasAudio: Bool { audio != nil }

    func start(at time: MediaTime = .zero) {
        if time > .zero { seek(to: time) }
        spawn("demux") { $0.demuxLoop() }
        if video != nil { spawn("video") { $0.videoLoop() } }
        if audio != nil { spawn("audio") { $0.audioLoop() } }
    }

    private func spawn(_ name: String, _ body: @escaping @Sendable (ItemPipeline) -> Void) {
        threadsDone.enter()
        let thread = Thread { [self] in
            body(self)
            self.threadsDone.leave()
        }
        thread.name = "deskplayer.\(name)"
        thread.start()
    }

    /// Stops every thread and waits for them; the pipeline is dead afterwards.
    func stop() {
        guard !aborted.exchange(true, ordering: .relaxed) else { return }
        input.interrupt.set()
        videoPackets.abort()
        audioPackets.abort()
        frames.abort()
        threadsDone.wait()
    }

    deinit { stop() }

    var isAborted: Bool { aborted.load(ordering: .relaxed) }

    var serial: Int { control.withLock { $0.serial } }

    /// Starts an accurate seek: output resumes with the frame that is on
    /// screen at `time` and the audio sample at `time`. Returns the new serial.
    /// `pass` is the loop pass being played (0-based): the passes left are
    /// counted from it, so a seek neither grants nor costs a pass.
    @discardableResult
    func seek(to time: MediaTime, pass: Int = 0) -> Int {
        // Queues first, then the threads: whatever the demuxer or a decoder
        // still produces for the old serial is refused by the queues, and
        // nothing for the new serial can arrive before they accept it.
        let serial = control.withLock { max($0.serial, $0.audioSerial) } + 1
        frames.flush(serial: serial)
        audioRing.flush(serial: serial)
        videoPackets.flush(serial: serial)
        audioPackets.flush(serial: serial)
        control.withLock { c in
            c.serial = serial
            c.audioSerial = serial
            c.pendingSeek = time
            c.pendingSeekPass = pass
            c.seekTarget = (serial, time)
            c.audioStart = AudioStart(serial: serial, streamIndex: c.audioIndex, time: time, pass: 0,
                                      passOffset: .zero, fadesIn: false)
            c.pendingAudioSwitch = nil
            c.passStarts = [.zero]
        }
        return serial
    }

    var selectedAudioTrack: Int? { control.withLock { $0.audioIndex } }

    /// Switches the audio track while playing: the picture goes on untouched.
    /// The old track plays on for what is already queued (at most 0.1 s,
    /// faded out over its last 5 ms); the new one is read again from there
    /// and fades in, so nothing clicks and the clock never jumps.
    func selectAudioTrack(_ id: Int, playhead: MediaTime) -> Bool {
        guard audioStreams[id] != nil, !isAborted else { return false }
        if control.withLock({ $0.audioIndex }) == id { return true }
        let serial = control.withLock { max($0.serial, $0.audioSerial) } + 1
        let rate = audioRing.format.sampleRate
        let keptEnd = audioRing.flush(serial: serial, keeping: rate / 10, fadeOut: rate / 200)
        audioPackets.flush(serial: serial)
        control.withLock { c in
            let time = max(keptEnd ?? playhead, .zero)
            let pass = max(0, c.passStarts.lastIndex { $0 <= time } ?? 0)
            let offset = c.passStarts[pass]
            c.audioSerial = serial
            c.audioIndex = id
            c.audioStart = AudioStart(serial: serial, streamIndex: id, time: time, pass: pass,
                                      passOffset: offset, fadesIn: true)
            c.pendingAudioSwitch = (time - offset, pass)
        }
        return true
    }

    private func audioStart(for serial: Int) -> AudioStart? {
        control.withLock { c in c.audioStart.flatMap { $0.serial == serial ? $0 : nil } }
    }

    /// The size pictures are converted to (the area they are drawn in).
    func setDisplaySize(width: Int, height: Int) {
        control.withLock { $0.displaySize = (max(width, 1), max(height, 1)) }
    }

    /// How many passes to play in all (nil: forever). Looping seeks the same
    /// input back to zero: no copy, no reopen, one continuous timeline.
    func setPasses(_ passes: Int?) {
        control.withLock { $0.passes = passes.map { max($0, 1) } }
    }

    var passStarts: [MediaTime] { control.withLock { $0.passStarts } }

    /// Records where pass `index` starts. Audio's figure wins over video's.
    private func publishPassStart(_ index: Int, _ time: MediaTime, fromAudio: Bool, serial: Int) -> MediaTime {
        control.withLock { c in
            guard (fromAudio ? c.audioSerial : c.serial) == serial else { return time }
            if index < c.passStarts.count {
                if fromAudio { c.passStarts[index] = time }
                return c.passStarts[index]
            }
            if index == c.passStarts.count && (fromAudio || audio == nil) { c.passStarts.append(time) }
            return time
        }
    }

    private func passStart(_ index: Int, serial: Int) -> MediaTime? {
        control.withLock { c in c.serial == serial && index < c.passStarts.count ? c.passStarts[index] : nil }
    }

    /// The video thread takes the seam time from audio, which knows it to the
    /// sample, so the two never drift apart over many loops. Audio decodes
    /// further ahead and normally got there first; the wait is bounded.
    private func awaitAudioPassStart(_ index: Int, serial: Int) -> MediaTime? {
        guard audio != nil else { return passStart(index, serial: serial) }
        let deadline = HostTime.now() + 2_000_000_000
        while !isAborted && HostTime.now() < deadline && self.serial == serial {
            if let t = passStart(index, serial: serial) { return t }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return passStart(index, serial: serial)
    }

    private func seekTarget(for serial: Int) -> MediaTime? {
        control.withLock { c in c.seekTarget.flatMap { $0.serial == serial ? $0.time : nil } }
    }

    // MARK: Demux thread

    private func demuxLoop() {
        guard let packet = try? Packet() else { return }
        var endedSerial = -1
        // Passes begun so far (a seek sets it to the pass it lands in).
        var passesDone = 0
        // The start trim (AAC priming, Opus pre-skip) the first pass had, to
        // give it again after a loop seek where the demuxer does not (Ogg).
        var firstAudioSkip: [UInt8]?
        var checkFirstAudio = true
        var replaySkip = false
        // Where the input really starts (µs): before zero when the first
        // packets are priming (AAC). A loop seeks there, not to zero, or the
        // demuxer starts at the first real packet and still trims its priming.
        var inputStart: Int64?
        var streamsSeen = Set<Int32>()
        // The last thing handed to the video decoder: (pass, dts), a pass end
        // or the stream's end being (pass, max). After an audio track switch
        // the demuxer reads again from the play head; video up to here is
        // already queued and is skipped (`videoCatchUp`).
        var videoPosition: (pass: Int, ts: Int64) = (0, Int64.min)
        var videoCatchUp: (pass: Int, ts: Int64)?
        func forwardsVideo(_ position: (pass: Int, ts: Int64)) -> Bool {
            if let c = videoCatchUp, position.pass < c.pass || (position.pass == c.pass && position.ts <= c.ts) {
                return false
            }
            videoCatchUp = nil
            videoPosition = position
            return true
        }
        while !isAborted {
            let (serial, audioSerial, audioIndex, seekTo, seekPass, audioSwitch, preferences, passes) = control.withLock { c in
                let s = c.pendingSeek, a = c.pendingAudioSwitch
                c.pendingSeek = nil
                c.pendingAudioSwitch = nil
                return (c.serial, c.audioSerial, c.audioIndex, s, c.pendingSeekPass, a, c.preferences, c.passes)
            }
            if let seekTo {
                passesDone = seekPass
                seekInput(to: seekTo)
                endedSerial = -1
                checkFirstAudio = false
                replaySkip = false
                streamsSeen = [-1]  // only the pass read from the very start records it
                videoPosition = (passesDone, Int64.min)
                videoCatchUp = nil
            } else if let audioSwitch {
                // The new audio track is read again from the play head; what
                // video already has is skipped until the demuxer is past it.
                passesDone = seekPass + audioSwitch.pass
                seekInput(to: audioSwitch.media)
                videoCatchUp = video != nil ? videoPosition : nil
                endedSerial = -1
                checkFirstAudio = false
                replaySkip = false
                streamsSeen = [-1]
            }
            if endedSerial == serial || isFull(preferences) {
                Thread.sleep(forTimeInterval: 0.005)
                continue
            }
            do {
                if try input.read(into: packet) {
                    if !streamsSeen.contains(-1), !streamsSeen.contains(packet.streamIndex),
                       let stream = input.stream(Int(packet.streamIndex)) {
                        streamsSeen.insert(packet.streamIndex)
                        let ts = packet.dts != DP_AV_NOPTS_VALUE ? packet.dts : packet.pts
                        if ts != DP_AV_NOPTS_VALUE {
                            let us = MediaTime(ts, stream.pointee.time_base).floor(in: 1_000_000)
                            inputStart = min(inputStart ?? us, us)
                        }
                    }
                    let index = Int(packet.streamIndex)
                    if index == audioIndex {
                        if checkFirstAudio {
                            firstAudioSkip = packet.skipSamplesSideData
                            checkFirstAudio = false
                        } else if replaySkip {
                            if packet.skipSamplesSideData == nil, let skip = firstAudioSkip {
                                packet.setSkipSamplesSideData(skip)
                            }
                            replaySkip = false
                        }
                        put(packet, in: audioPackets, serial: audioSerial)
                    } else if index == video?.index {
                        let ts = packet.dts != DP_AV_NOPTS_VALUE ? packet.dts : packet.pts
                        if ts == DP_AV_NOPTS_VALUE ? videoCatchUp == nil : forwardsVideo((passesDone, ts)) {
                            put(packet, in: videoPackets, serial: serial)
                        } else {
                            packet.unref()
                        }
                    } else {
                        if let decoder = subtitleDecoders[index], let subtitles,
                           let subtitle = decoder.decodeSubtitle(packet, origin: startOffset) {
                            subtitles.add(subtitle, to: index)
                        }
                        packet.unref()
                    }
                } else if passes.map({ passesDone + 1 < $0 }) ?? true {
                    // Loop: the same input from zero, on the same serial.
                    try input.seek(toMicroseconds: min(inputStart ?? Int64.max, startOffset.microseconds))
                    if video != nil && forwardsVideo((passesDone, Int64.max)) {
                        videoPackets.put(.passEnd(serial: serial))
                    }
                    passesDone += 1
                    replaySkip = true
                    if audio != nil { audioPackets.put(.passEnd(serial: audioSerial)) }
                } else {
                    if video != nil && forwardsVideo((passesDone, Int64.max)) {
                        videoPackets.put(.endOfStream(serial: serial))
                    }
                    if audio != nil { audioPackets.put(.endOfStream(serial: audioSerial)) }
                    endedSerial = serial
                }
            } catch {
                if isAborted { return }
                // A truncated or damaged file ends where the damage starts.
                warningSink("\(error); playing what could be read")
                if video != nil { videoPackets.put(.endOfStream(serial: serial)) }
                if audio != nil { audioPackets.put(.endOfStream(serial: audioSerial)) }
                endedSerial = serial
            }
        }
    }

    /// Seeks the input so that decoding can start exactly at media time `time`.
    private func seekInput(to time: MediaTime) {
        do {
            // Audio decoders need what comes before the target (AAC's
            // overlap, MP3's bit reservoir, Opus's 80 ms pre-roll) to
            // give the exact samples at it: start a little earlier;
            // the accurate seek drops what precedes the target.
            let preroll = audio != nil ? MediaTime(value: 1, timescale: 5) : .zero
            let from = max(time - preroll, .zero)
            try input.seek(toMicroseconds: (from + startOffset).microseconds)
        } catch {
            warningSink("seek failed: \(error)")
        }
    }

    private func put(_ packet: Packet, in queue: PacketQueue, serial: Int) {
        guard let owned = try? packet.take() else { packet.unref(); return }
        queue.put(.packet(owned, serial: serial))
    }

    /// Seconds of compressed media queued ahead of each decoder (video, audio).
    var queuedSeconds: (video: Double?, audio: Double?) {
        func seconds(_ stream: Stream?, _ queue: PacketQueue) -> Double? {
            stream.map { MediaTime(queue.fill.ticks, $0.timeBase).seconds }
        }
        return (seconds(video, videoPackets), seconds(audio, audioPackets))
    }

    /// The forward buffer is full when the bytes cap is reached or every
    /// stream holds at least the preferred duration.
    private func isFull(_ preferences: ItemPreferences) -> Bool {
        var bytes = 0
        var allEnough = true
        for (stream, queue) in [(video, videoPackets), (audio, audioPackets)] {
            guard let stream else { continue }
            let fill = queue.fill
            bytes += fill.bytes
            let seconds = MediaTime(fill.ticks, stream.timeBase).seconds
            if seconds < preferences.forwardBufferDuration && fill.count < 2048 { allEnough = false }
        }
        return bytes >= preferences.maxBufferBytes || allEnough
    }

    // MARK: Video decode thread

    private func videoLoop() {
        guard let stream = video, let frame = try? Frame(), let held = try? Frame() else { return }
        let scaler = Scaler()
        let nominal = info.frameRate.map { MediaTime(seconds: 1 / $0) } ?? MediaTime(value: 1, timescale: 25)
        var serial = -1
        var target: MediaTime?
        var delivered = 0
        var hasHeld = false
        var pass = 0
        var passOffset = MediaTime.zero
        var lastEnd: MediaTime?

        func deliver(_ source: Frame) {
            let pts = MediaTime(source.bestEffortTimestamp, stream.timeBase) - startOffset + passOffset
            let d = source.pointer.pointee.pkt_duration
            let duration = d > 0 ? MediaTime(d, stream.timeBase) : nominal
            if let t = target, pts + duration <= t {
                // Before the seek target: keep only the latest, in case nothing later comes.
                held.unref()
                av_frame_move_ref(held.pointer, source.pointer)
                hasHeld = true
                return
            }
            guard let picture = frames.acquireBuffer(serial: serial) else { return }
            let size = control.withLock { $0.displaySize }
            picture.resize(width: size.width, height: size.height)
            do {
                try scaler.scale(source.pointer, into: picture)
                subtitles?.draw(on: picture, at: pts - passOffset, warning: warningSink)
            } catch {
                frames.recycle(picture)
                warningSink("video: \(error)")
                return
            }
            frames.push(VideoFrame(picture: picture, pts: pts, duration: duration, serial: serial))
            delivered += 1
            lastEnd = pts + duration
        }

        func receiveAll() {
            while !isAborted {
                let result: Decoder.Output
                do { result = try stream.decoder.receive(into: frame) } catch { return }
                guard result == .frame else { return }
                deliver(frame)
                frame.unref()
            }
        }

        while let entry = videoPackets.get() {
            if entry.serial != serial {
                stream.decoder.flush()
                serial = entry.serial
                target = seekTarget(for: serial)
                delivered = 0
                hasHeld = false
                pass = 0
                passOffset = .zero
                lastEnd = nil
            }
            switch entry {
            case .packet(let packet, _):
                decode(packet, with: stream.decoder, receive: receiveAll)
            case .passEnd:
                // Every frame of this pass out; the next pass follows the last
                // frame's end (or audio's exact seam when audio has one).
                decode(nil, with: stream.decoder, receive: receiveAll)
                stream.decoder.flush()
                pass += 1
                passOffset = awaitAudioPassStart(pass, serial: serial)
                    ?? publishPassStart(pass, lastEnd ?? passOffset, fromAudio: false, serial: serial)
            case .endOfStream:
                decode(nil, with: stream.decoder, receive: receiveAll)
                if delivered == 0 && hasHeld {
                    target = nil  // a seek at or past the end shows the last frame
                    deliver(held)
                }
                frames.markEnded(serial: serial)
                stream.decoder.flush()
            }
        }
    }

    /// Sends a packet (nil drains), receiving frames whenever the decoder is full.
    private func decode(_ packet: Packet?, with decoder: Decoder, receive: () -> Void) {
        while !isAborted {
            do {
                if try decoder.send(packet) { break }
                receive()
            } catch {
                // A damaged packet: skip it, keep decoding (as ffplay and mpv do).
                break
            }
        }
        receive()
    }

    // MARK: Audio decode thread

    private func audioLoop() {
        guard var stream = audio, let frame = try? Frame() else { return }
        let resampler = Resampler(output: audioRing.format)
        let outRate = Int64(audioRing.format.sampleRate)
        // The stream's real end: decoders may return padding beyond it (AAC).
        func end(of stream: Stream) -> MediaTime? {
            guard let s = input.stream(stream.index) else { return nil }
            let start = s.pointee.start_time == DP_AV_NOPTS_VALUE ? 0 : s.pointee.start_time
            guard s.pointee.duration != DP_AV_NOPTS_VALUE, s.pointee.duration > 0 else { return nil }
            return MediaTime(start + s.pointee.duration, stream.timeBase) - startOffset
        }
        var streamEnd = end(of: stream)
        // One tick of the stream's time base: timestamps are only this exact.
        var timestampPrecision = MediaTime(1, stream.timeBase).seconds
        // A switched-to track fades in over its first 5 ms.
        let fadeLength = Int(outRate / 200)
        var fadeDone = fadeLength
        var serial = -1
        var target: MediaTime?
        var nextTime: MediaTime?
        var pass = 0
        var passOffset = MediaTime.zero
        /// Timeline end of the last input sample kept (for overlap trimming).
        var inputEnd: MediaTime?

        func write(_ count: Int, at time: MediaTime) {
            var offset = 0
            var time = time
            if let t = target {
                // Accurate seek: drop output samples before the target.
                let skip = Int(min(Int64(count), max(0, (t - time).converted(to: outRate).value)))
                offset = skip
                time = time + MediaTime(value: Int64(skip), timescale: outRate)
                if offset < count { target = nil }
            }
            let channels = audioRing.format.channels
            if fadeDone < fadeLength {
                // A switched-to track: fade its first samples in (after the skip).
                let n = min(count - offset, fadeLength - fadeDone)
                for k in 0..<n {
                    let gain = Float(fadeDone + k) / Float(fadeLength)
                    for c in 0..<channels { resampler.buffer[(offset + k) * channels + c] *= gain }
                }
                fadeDone += n
            }
            while offset < count && !isAborted {
                let n = audioRing.write(resampler.buffer + offset * channels, frames: count - offset,
                                        time: time, serial: serial)
                if n == 0 {
                    if audioRing.serial != serial { return }
                    Thread.sleep(forTimeInterval: 0.004)
                    continue
                }
                offset += n
                time = time + MediaTime(value: Int64(n), timescale: outRate)
            }
            nextTime = time
        }

        func convert(_ source: UnsafeMutablePointer<AVFrame>?, at time: MediaTime) {
            do {
                let (count, outTime) = try resampler.convert(source, startingAt: time)
                if count > 0 { write(count, at: outTime ?? time) }
            } catch {
                warningSink("audio: \(error)")
            }
        }

        func receiveAll() {
            while !isAborted {
                let result: Decoder.Output
                do { result = try stream.decoder.receive(into: frame) } catch { return }
                guard result == .frame else { return }
                defer { frame.unref() }
                let rate = Int64(max(frame.pointer.pointee.sample_rate, 1))
                let ts = frame.bestEffortTimestamp
                let relative = ts != DP_AV_NOPTS_VALUE ? MediaTime(ts, stream.timeBase) - startOffset
                    : ((inputEnd ?? passOffset) - passOffset)
                if let end = streamEnd {
                    // Encoder padding past the stream's real end (AAC's last packet).
                    let keep = max(0, (end - relative).floor(in: rate))
                    if keep < Int64(frame.sampleCount) { frame.pointer.pointee.nb_samples = Int32(keep) }
                    if keep == 0 { continue }
                }
                var pts = relative + passOffset
                if let e = inputEnd {
                    if abs((pts - e).seconds) <= timestampPrecision + 1 / Double(rate) {
                        // Within what the container's clock can say (Matroska
                        // counts milliseconds): the samples simply follow on.
                        pts = e
                    } else if pts < e {
                        // Overlaps what was already written (a start trim the
                        // decoder did not apply): drop the overlap, keep the seam exact.
                        let overlap = (e - pts).converted(to: rate).value
                        if overlap < Int64(rate) / 2 {
                            guard frame.dropLeadingSamples(Int(overlap)) else { continue }
                            pts = e
                        }
                    }
                }
                inputEnd = pts + MediaTime(value: Int64(frame.sampleCount), timescale: rate)
                convert(frame.pointer, at: pts)
            }
        }

        while let entry = audioPackets.get() {
            if entry.serial != serial {
                serial = entry.serial
                let start = audioStart(for: serial)
                if let index = start?.streamIndex, index != stream.index, let other = audioStreams[index] {
                    stream = other
                    streamEnd = end(of: stream)
                    timestampPrecision = MediaTime(1, stream.timeBase).seconds
                }
                stream.decoder.flush()
                resampler.reset()
                target = start?.time
                nextTime = nil
                pass = start?.pass ?? 0
                passOffset = start?.passOffset ?? .zero
                inputEnd = nil
                fadeDone = start?.fadesIn == true ? 0 : fadeLength
            }
            switch entry {
            case .packet(let packet, _):
                decode(packet, with: stream.decoder, receive: receiveAll)
            case .passEnd:
                // The pass's last samples out, then the next pass starts exactly
                // where they end. The resampler is not reset: the signal runs
                // through it continuously, as it would through a gapless album.
                decode(nil, with: stream.decoder, receive: receiveAll)
                stream.decoder.flush()
                pass += 1
                passOffset = inputEnd ?? passOffset
                _ = publishPassStart(pass, passOffset, fromAudio: true, serial: serial)
            case .endOfStream:
                decode(nil, with: stream.decoder, receive: receiveAll)
                if let t = nextTime {
                    // Drain what the resampler still holds; it follows on from the last write.
                    do {
                        let (count, _) = try resampler.convert(nil)
                        if count > 0 { write(count, at: t) }
                    } catch {
                        warningSink("audio: \(error)")
                    }
                }
                audioRing.markEnded(serial: serial)
                stream.decoder.flush()
            }
        }
    }
}
