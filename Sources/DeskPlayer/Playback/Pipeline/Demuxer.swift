// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media

/// The demux thread of an opened file. It reads packets ahead of the
/// decoders as far as the forward buffer allows and hands them over with
/// their serial: video and the selected audio stream to their packet queues,
/// subtitle packets to their decoders (here, as they are read). At the end of
/// a pass it loops by seeking the same input back to its start on the same
/// serial, so downstream sees one continuous timeline; it acts on seeks and
/// audio track switches between reads. Where a pass is bounded by its video
/// (`PassBounds.video`), audio reaching past the video read so far waits in
/// a `PassEndGate` until the pass's end is known and told to the audio decoder.
final class Demuxer {
    private let input: MediaInput
    private let video: OpenedStream?
    /// The audio stream the item opened with (its time base measures the audio queue).
    private let audio: OpenedStream?
    private let videoPackets: PacketQueue
    private let audioPackets: PacketQueue
    private let subtitleDecoders: [Int: Decoder]
    private let subtitles: SubtitleTracks?
    /// Subtracted from container timestamps so the item starts at zero.
    private let startOffset: MediaTime
    /// Holds audio until the pass's end is known (`PassBounds.video`, `.trimmed`).
    private let gate: PassEndGate?
    /// Closes timestamp jumps inside a pass (MPEG-TS, HLS only).
    private let continuity: TimestampContinuity?
    private var saidJump = false
    /// A video frame's duration when its packet does not say.
    private let nominalFrame: MediaTime
    private var saidAudioOverrun = false
    private let preferences: ItemPreferences
    /// Seconds read ahead of the play head (the preference, or the input's default).
    private let forwardBuffer: Double
    private let control: PipelineControl
    private let warning: @Sendable (String) -> Void
    private let packet: Packet

    /// The serial that has read to its end (it waits for a seek).
    private var endedSerial = -1
    /// Video packets queued since the last seek.
    private var videoQueued = 0
    /// Passes begun so far (a seek sets it to the pass it lands in).
    private var passesDone = 0
    /// The start trim (AAC priming, Opus pre-skip) the first pass had, to
    /// give it again after a loop seek where the demuxer does not (Ogg).
    private var firstAudioSkip: [UInt8]?
    private var checkFirstAudio = true
    private var replaySkip = false
    /// Where the input really starts (µs): before zero when the first
    /// packets are priming (AAC). A loop seeks there, not to zero, or the
    /// demuxer starts at the first real packet and still trims its priming.
    private var inputStart: Int64?
    /// The streams whose first packet was seen; -1 in it: none is recorded
    /// (only the pass read from the very start knows where the input starts).
    private var streamsSeen = Set<Int32>()
    /// The last thing handed to the video decoder: (pass, dts), a pass end
    /// or the stream's end being (pass, max).
    private var videoPosition: (pass: Int, ts: Int64) = (0, Int64.min)
    /// After an audio track switch the input is read again from the play
    /// head; video up to here is already queued and is skipped.
    private var videoCatchUp: (pass: Int, ts: Int64)?
    /// The streams read up to an A-B loop's B in this pass (their later packets are not needed).
    private var pastLoopEnd = Set<Int>()
    /// Something of this pass went to a decoder: an A-B pass that reads
    /// nothing (A at or past the end) ends the stream instead of looping.
    private var passHasPackets = false

    init(input: MediaInput, video: OpenedStream?, audio: OpenedStream?, videoPackets: PacketQueue,
         audioPackets: PacketQueue, subtitleDecoders: [Int: Decoder], subtitles: SubtitleTracks?,
         startOffset: MediaTime, bounds: PassBounds = .streams, frameRate: Double? = nil,
         preferences: ItemPreferences, control: PipelineControl,
         warning: @escaping @Sendable (String) -> Void) throws(MediaError) {
        self.input = input
        self.video = video
        self.audio = audio
        self.videoPackets = videoPackets
        self.audioPackets = audioPackets
        self.subtitleDecoders = subtitleDecoders
        self.subtitles = subtitles
        self.startOffset = startOffset
        switch bounds {
        case .video where video != nil && audio != nil:
            gate = PassEndGate(anchor: .video)
        case .trimmed(let trim) where audio != nil:
            let rate = audio.map { Int64(max($0.decoder.context.pointee.sample_rate, 1)) } ?? 1
            gate = PassEndGate(anchor: .audioEnd(less: MediaTime(value: Int64(trim.end), timescale: rate)))
        default:
            gate = nil
        }
        continuity = PassBounds.timestampsMayJump(format: input.formatName) ? TimestampContinuity() : nil
        nominalFrame = frameRate.map { MediaTime(seconds: 1 / $0) } ?? MediaTime(value: 1, timescale: 25)
        self.preferences = preferences
        forwardBuffer = preferences.forwardBuffer(isNetwork: input.isNetwork)
        self.control = control
        self.warning = warning
        packet = try Packet()
    }

    /// Runs until the pipeline is aborted.
    func run() {
        while !control.isAborted {
            let seen = control.demuxerWake.generation
            let request = control.takeDemuxRequest()
            if let time = request.seek {
                handleSeek(to: time, pass: request.seekPass, exact: request.seekExact)
            } else if let audioSwitch = request.audioSwitch {
                handleAudioSwitch(from: audioSwitch.media, pass: request.seekPass + audioSwitch.pass)
            }
            let full = isFull
            // A camera being recorded is read on when the preview's buffer is
            // full (paused): the recording takes every packet, the preview
            // only those it has room for.
            let recordingLive = input.isLiveDevice && control.tap != nil
            if endedSerial == request.serial || (full && !recordingLive) || holdsStep(request) {
                control.demuxerWake.wait(after: seen, timeout: WakeSignal.safetyBound)
                continue
            }
            do {
                if try input.read(into: packet) {
                    guard !full else {
                        tapVideo()
                        packet.unref()
                        continue
                    }
                    route(request)
                    if let interval = request.interval, readPastLoopEnd(request), passHasPackets {
                        loop(to: interval, request)
                    }
                } else if let interval = request.interval {
                    // An A-B pass read to the end of the file: back to A, unless it read nothing.
                    if passHasPackets { loop(to: interval, request) } else { endOfStream(request) }
                } else if request.passes.map({ passesDone + 1 < $0 }) ?? true {
                    try loopToStart(request)
                } else {
                    endOfStream(request)
                }
            } catch {
                if control.isAborted { return }
                endAtDamage(error, request)
            }
        }
    }

    // MARK: Requests

    private func handleSeek(to time: MediaTime, pass: Int, exact: Bool) {
        passesDone = pass
        pastLoopEnd = []
        passHasPackets = true
        seekInput(to: time, preroll: exact)
        endedSerial = -1
        videoQueued = 0
        checkFirstAudio = false
        replaySkip = false
        streamsSeen = [-1]
        videoPosition = (passesDone, Int64.min)
        videoCatchUp = nil
        gate?.reset()
        continuity?.reset()
    }

    /// The new audio track is read again from the play head (`media`, in
    /// pass `pass`); what video already has is skipped until the demuxer is past it.
    private func handleAudioSwitch(from media: MediaTime, pass: Int) {
        passesDone = pass
        pastLoopEnd = []
        seekInput(to: media)
        videoCatchUp = video != nil ? videoPosition : nil
        endedSerial = -1
        videoQueued = 0
        checkFirstAudio = false
        replaySkip = false
        streamsSeen = [-1]
        gate?.reset()
        continuity?.reset()
    }

    /// Seeks the input so that decoding can start exactly at media time
    /// `time`; without `preroll` (a keyframe seek), at the keyframe at or
    /// before it.
    private func seekInput(to time: MediaTime, preroll exact: Bool = true) {
        do {
            // Audio decoders need what comes before the target (AAC's
            // overlap, MP3's bit reservoir, Opus's 80 ms pre-roll) to
            // give the exact samples at it: start a little earlier;
            // the accurate seek drops what precedes the target.
            let preroll = audio != nil && exact ? MediaTime(value: 1, timescale: 5) : .zero
            let from = time - preroll
            if from <= .zero {
                // From the start: all of it, priming too (the first real
                // sample decodes right only after it), as a loop reads it.
                try rewind()
            } else {
                try input.seek(toMicroseconds: (from + startOffset).microseconds)
            }
        } catch {
            warning("seek failed: \(error)")
        }
    }

    // MARK: Packets

    private func route(_ request: DemuxRequest) {
        if let interval = request.interval, reachesLoopEnd(interval, request) {
            packet.unref()
            return
        }
        passHasPackets = true
        if let continuity, let stream = input.stream(Int(packet.streamIndex)),
           let jump = continuity.place(packet, timeBase: stream.pointee.time_base), !saidJump {
            saidJump = true
            warning(String(format: "the timestamps jump by %+.3f s (a discontinuity): played on as one timeline",
                           jump.seconds))
        }
        recordInputStart()
        let index = Int(packet.streamIndex)
        tapVideo()
        if index == request.audioIndex {
            // Backward the sound is off, and every step is a seek: its audio
            // would be decoded from the keyframe only to be thrown away.
            if control.playsBackward && request.interval == nil && request.passes == 1 {
                packet.unref()
                return
            }
            replayFirstAudioSkip()
            if let gate {
                let (start, end) = (packetStart, packetEnd(nominal: nil))
                guard let owned = try? packet.take() else { packet.unref(); return }
                gate.audio(owned, startingAt: start, endingAt: end) { audioPackets.put(.packet($0, serial: request.audioSerial)) }
                warnOfAudioOverrun(gate)
            } else {
                put(in: audioPackets, serial: request.audioSerial)
            }
        } else if index == video?.index {
            let end = gate != nil ? packetEnd(nominal: nominalFrame) : nil
            let ts = packet.dts != DP_AV_NOPTS_VALUE ? packet.dts : packet.pts
            if ts == DP_AV_NOPTS_VALUE ? videoCatchUp == nil : forwardsVideo((passesDone, ts)) {
                put(in: videoPackets, serial: request.serial)
                videoQueued += 1
            } else {
                packet.unref()
            }
            if let gate, let end {
                gate.video(endingAt: end) { audioPackets.put(.packet($0, serial: request.audioSerial)) }
            }
        } else {
            if let decoder = subtitleDecoders[index], let subtitles,
               let subtitle = decoder.decodeSubtitle(packet, origin: startOffset) {
                subtitles.add(subtitle, to: index)
            }
            packet.unref()
        }
    }

    /// Where the packet read starts in container time (pts, else dts); nil when it does not say.
    private var packetStart: MediaTime? {
        guard let stream = input.stream(Int(packet.streamIndex)) else { return nil }
        let ts = packet.pts != DP_AV_NOPTS_VALUE ? packet.pts : packet.dts
        return ts != DP_AV_NOPTS_VALUE ? MediaTime(ts, stream.pointee.time_base) : nil
    }

    /// Where the packet read ends in container time (its start plus its
    /// duration, else `nominal`); nil when it does not say.
    private func packetEnd(nominal: MediaTime?) -> MediaTime? {
        guard let stream = input.stream(Int(packet.streamIndex)), let start = packetStart else { return nil }
        if packet.duration > 0 { return start + MediaTime(packet.duration, stream.pointee.time_base) }
        return nominal.map { start + $0 }
    }

    private func warnOfAudioOverrun(_ gate: PassEndGate) {
        guard !saidAudioOverrun, gate.isOverrun else { return }
        saidAudioOverrun = true
        warning("the audio runs on more than 5 s past the video: a loop pass ends where the audio does")
    }

    /// The earliest timestamp of the pass read from the very start.
    private func recordInputStart() {
        guard !streamsSeen.contains(-1), !streamsSeen.contains(packet.streamIndex),
              let stream = input.stream(Int(packet.streamIndex)) else { return }
        streamsSeen.insert(packet.streamIndex)
        let ts = packet.dts != DP_AV_NOPTS_VALUE ? packet.dts : packet.pts
        if ts != DP_AV_NOPTS_VALUE {
            let us = MediaTime(ts, stream.pointee.time_base).floor(in: 1_000_000)
            inputStart = min(inputStart ?? us, us)
        }
    }

    /// The first audio packet's start trim is noted; the first packet of a
    /// later pass gets it again when the demuxer left it out.
    private func replayFirstAudioSkip() {
        if checkFirstAudio {
            firstAudioSkip = packet.skipSamplesSideData
            checkFirstAudio = false
        } else if replaySkip {
            if packet.skipSamplesSideData == nil, let skip = firstAudioSkip {
                packet.setSkipSamplesSideData(skip)
            }
            replaySkip = false
        }
    }

    /// Whether video at `position` goes to the decoder: not while catching
    /// up after an audio track switch. Records what was handed over.
    private func forwardsVideo(_ position: (pass: Int, ts: Int64)) -> Bool {
        if let c = videoCatchUp, position.pass < c.pass || (position.pass == c.pass && position.ts <= c.ts) {
            return false
        }
        videoCatchUp = nil
        videoPosition = position
        return true
    }

    private func put(in queue: PacketQueue, serial: Int) {
        guard let owned = try? packet.take() else { packet.unref(); return }
        queue.put(.packet(owned, serial: serial))
    }

    // MARK: A-B loop

    /// Whether the packet read lies at or past the A-B loop's B: audio from
    /// its timestamp, video from its decode timestamp (what follows it in
    /// decode order is shown at B or later). It marks its stream done.
    private func reachesLoopEnd(_ interval: LoopInterval, _ request: DemuxRequest) -> Bool {
        let index = Int(packet.streamIndex)
        guard index == request.audioIndex || index == video?.index, let stream = input.stream(index) else { return false }
        if pastLoopEnd.contains(index) { return true }
        let isVideo = index == video?.index
        let ts = isVideo ? (packet.dts != DP_AV_NOPTS_VALUE ? packet.dts : packet.pts)
            : (packet.pts != DP_AV_NOPTS_VALUE ? packet.pts : packet.dts)
        guard ts != DP_AV_NOPTS_VALUE, MediaTime(ts, stream.pointee.time_base) - startOffset >= interval.b else { return false }
        pastLoopEnd.insert(index)
        return true
    }

    /// Every stream played has been read up to B.
    private func readPastLoopEnd(_ request: DemuxRequest) -> Bool {
        (video == nil || pastLoopEnd.contains(video?.index ?? -1))
            && (request.audioIndex == nil || pastLoopEnd.contains(request.audioIndex ?? -1))
    }

    /// The next pass of an A-B loop: the decoders end this one (they cut it
    /// at B), and the input is read again from A (a little before, for the
    /// decoders' preroll; they cut what precedes A).
    private func loop(to interval: LoopInterval, _ request: DemuxRequest) {
        releaseHeldAudio(request)
        seekInput(to: interval.a)
        if video != nil && forwardsVideo((passesDone, Int64.max)) {
            videoPackets.put(.passEnd(serial: request.serial))
        }
        passesDone += 1
        pastLoopEnd = []
        passHasPackets = false
        replaySkip = false
        continuity?.reset()
        if audio != nil { audioPackets.put(.passEnd(serial: request.audioSerial)) }
    }

    // MARK: Ends

    /// Back to where the input really starts: before zero when the first
    /// packets are priming, so they are read (and cut) again.
    private func rewind() throws(MediaError) {
        try input.rewind(toMicroseconds: min(inputStart ?? Int64.max, startOffset.microseconds))
        continuity?.reset()
    }

    /// The pass's end to the audio decoder, then the audio held for it.
    private func releaseHeldAudio(_ request: DemuxRequest) {
        guard let gate else { return }
        gate.endPass(announce: { audioPackets.put(.passEndsAt($0, serial: request.audioSerial)) },
                      release: { audioPackets.put(.packet($0, serial: request.audioSerial)) })
    }

    /// Loop: the same input from its start, on the same serial.
    private func loopToStart(_ request: DemuxRequest) throws(MediaError) {
        releaseHeldAudio(request)
        try rewind()
        if video != nil && forwardsVideo((passesDone, Int64.max)) {
            videoPackets.put(.passEnd(serial: request.serial))
        }
        passesDone += 1
        replaySkip = true
        if audio != nil { audioPackets.put(.passEnd(serial: request.audioSerial)) }
    }

    /// A recording takes every video packet as read, whatever the player shows or drops.
    private func tapVideo() {
        guard Int(packet.streamIndex) == video?.index, let tap = control.tap else { return }
        if let copy = packet.reference() { tap.take(copy) } else { tap.lost() }
    }

    private func endOfStream(_ request: DemuxRequest) {
        control.tap?.inputEnded(nil)
        releaseHeldAudio(request)
        if video != nil && forwardsVideo((passesDone, Int64.max)) {
            videoPackets.put(.endOfStream(serial: request.serial))
        }
        if audio != nil { audioPackets.put(.endOfStream(serial: request.audioSerial)) }
        endedSerial = request.serial
    }

    /// A truncated or damaged file ends where the damage starts.
    private func endAtDamage(_ error: any Error, _ request: DemuxRequest) {
        warning("\(error); playing what could be read")
        control.tap?.inputEnded("\(error)")
        releaseHeldAudio(request)
        if video != nil { videoPackets.put(.endOfStream(serial: request.serial)) }
        if audio != nil { audioPackets.put(.endOfStream(serial: request.audioSerial)) }
        endedSerial = request.serial
    }

    /// Playing backward, every step is a seek whose frame is most often in
    /// the decoded-frame cache already: after its first video packet (the
    /// video decode thread sees the step by it), nothing more is read until
    /// that thread says it decodes (`PipelineControl.readOn`). Read on at
    /// once, each step read from its keyframe until the next step (the
    /// audio, not read backward, never filled its queue): 1 GB read in 10
    /// s of 1080p backward, all of it thrown away.
    private func holdsStep(_ request: DemuxRequest) -> Bool {
        control.playsBackward && videoQueued > 0 && !control.readsOn(serial: request.serial)
    }

    // MARK: Forward buffer

    /// The forward buffer is full when the bytes cap is reached or every
    /// stream holds at least the preferred duration.
    private var isFull: Bool {
        var bytes = 0
        var allEnough = true
        for (stream, queue) in [(video, videoPackets), (audio, audioPackets)] {
            guard let stream else { continue }
            let fill = queue.fill
            bytes += fill.bytes
            let seconds = MediaTime(fill.ticks, stream.timeBase).seconds
            if seconds < forwardBuffer && fill.count < 2048 { allEnough = false }
        }
        return bytes >= preferences.maxBufferBytes || allEnough
    }
}
