// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Synchronization

/// Where the audio decoder starts delivering for an audio serial.
struct AudioStart: Sendable {
    let serial: Int
    /// The stream to decode (nil: the one the item opened with).
    let streamIndex: Int?
    /// On the timeline of the video serial.
    let time: MediaTime
    /// The loop pass it lies in (index into the pass starts) and that pass's start.
    let pass: Int
    let passOffset: MediaTime
    /// A track switch fades the new track in.
    let fadesIn: Bool
}

/// What the demux thread is to do next, taken once per read.
struct DemuxRequest {
    let serial: Int
    let audioSerial: Int
    /// The audio stream whose packets go to the audio queue.
    let audioIndex: Int?
    /// A seek to act on.
    let seek: MediaTime?
    /// False for a keyframe seek: read from the keyframe at or before the
    /// seek's time, with no pre-roll before it.
    var seekExact = true
    /// The loop pass (0-based, counted since the item began) the last seek landed in.
    let seekPass: Int
    /// A track switch: read the audio again from `media` in pass `pass`
    /// (counted from the last seek).
    let audioSwitch: (media: MediaTime, pass: Int)?
    /// Passes to play in all (nil: loop forever).
    let passes: Int?
    /// The A-B loop: each pass after the first is this interval.
    let interval: LoopInterval?
}

/// What an item's owner (any thread) shares with its demux and decode
/// threads: the serials, the seek and track switch the demuxer has still to
/// act on, where each decoder starts for a serial, the display size, the
/// passes to play, the speed, and the abort flag. Thread-safe (Mutex).
final class PipelineControl: Sendable {
    private struct State {
        var serial = 0
        /// The serial of the audio queue and ring: the seek's, or a later
        /// one when the audio track changed without a seek.
        var audioSerial = 0
        var audioIndex: Int?
        var audioStart: AudioStart?
        var pendingAudioSwitch: (media: MediaTime, pass: Int)?
        var pendingSeek: MediaTime?
        var pendingSeekExact = true
        var pendingSeekPass = 0
        /// Where the decoders start delivering after the seek of `serial`.
        var seekTarget: (serial: Int, time: MediaTime)?
        var displaySize: (width: Int, height: Int)
        var passes: Int? = 1
        var deinterlace = DeinterlaceMode.auto
        /// `hwdec` as asked, and what the video decoder uses now.
        var hardwareDecoding = HardwareDecoding.no
        var hardwareInUse = "no"
        var speed = PlaybackSpeed.normal
        /// The A-B loop for the serials from the next seek on.
        var loopInterval: LoopInterval?
        /// The A-B loop the current seek's passes follow.
        var activeInterval: LoopInterval?
    }

    private let state: Mutex<State>
    /// What receives the live input's video packets as they are read (a recording).
    private let packetTap = Mutex<(any PacketTap)?>(nil)
    private let aborted = Atomic<Bool>(false)
    private let picturesSeen = Atomic<Bool>(true)
    private let keepsFrames = Atomic<Bool>(false)
    private let backward = Atomic<Bool>(false)
    private let cachedFramesShown = Atomic<Int>(0)
    private let readSerial = Atomic<Int>(-1)
    /// What the demuxer waits on when the buffer is full or the input has
    /// ended: new orders (signalled here) or a packet taken (by the queues).
    let demuxerWake = WakeSignal()
    /// The decode loops' errors, counted for the whole item.
    let decodeErrors = DecodeErrors()

    init(displaySize: (width: Int, height: Int), audioIndex: Int?) {
        var s = State(displaySize: displaySize)
        s.audioIndex = audioIndex
        state = Mutex(s)
    }

    var isAborted: Bool { aborted.load(ordering: .relaxed) }

    /// The tap the demuxer hands its video packets to (nil: none).
    var tap: (any PacketTap)? {
        get { packetTap.withLock { $0 } }
        set { packetTap.withLock { $0 = newValue } }
    }

    /// Raises the abort flag; false when it was already up.
    func abort() -> Bool {
        defer { demuxerWake.signal() }
        return !aborted.exchange(true, ordering: .relaxed)
    }

    /// The seek generation (video's).
    var serial: Int { state.withLock { $0.serial } }

    /// The serial after every one given so far (seeks and audio switches).
    var nextSerial: Int { state.withLock { max($0.serial, $0.audioSerial) } + 1 }

    var audioIndex: Int? { state.withLock { $0.audioIndex } }

    /// A seek to `time`, in loop pass `pass`, as `serial`: accurate (the
    /// video thread drops what precedes `time`), or not (`exact` false: the
    /// keyframe it lands on is shown).
    func beginSeek(serial: Int, to time: MediaTime, pass: Int, exact: Bool = true) {
        state.withLock { c in
            c.serial = serial
            c.audioSerial = serial
            c.activeInterval = c.loopInterval
            c.pendingSeek = time
            c.pendingSeekExact = exact
            c.pendingSeekPass = pass
            c.seekTarget = exact ? (serial, time) : nil
            c.audioStart = AudioStart(serial: serial, streamIndex: c.audioIndex, time: time, pass: 0,
                                      passOffset: .zero, fadesIn: false)
            c.pendingAudioSwitch = nil
        }
        demuxerWake.signal()
    }

    /// An audio track switch to stream `index` as audio serial `serial`,
    /// from timeline time `time` in pass `pass` (which starts at `passOffset`).
    func beginAudioSwitch(serial: Int, to index: Int, at time: MediaTime, pass: Int, passOffset: MediaTime) {
        state.withLock { c in
            c.audioSerial = serial
            c.audioIndex = index
            c.audioStart = AudioStart(serial: serial, streamIndex: index, time: time, pass: pass,
                                      passOffset: passOffset, fadesIn: true)
            c.pendingAudioSwitch = (time - passOffset, pass)
        }
        demuxerWake.signal()
    }

    /// The demuxer's next orders; a seek or switch is handed over once.
    func takeDemuxRequest() -> DemuxRequest {
        state.withLock { c in
            defer {
                c.pendingSeek = nil
                c.pendingAudioSwitch = nil
            }
            var request = DemuxRequest(serial: c.serial, audioSerial: c.audioSerial, audioIndex: c.audioIndex,
                                seek: c.pendingSeek, seekPass: c.pendingSeekPass,
                                audioSwitch: c.pendingAudioSwitch, passes: c.passes, interval: c.activeInterval)
            request.seekExact = c.pendingSeekExact
            return request
        }
    }

    func audioStart(for serial: Int) -> AudioStart? {
        state.withLock { c in c.audioStart.flatMap { $0.serial == serial ? $0 : nil } }
    }

    func seekTarget(for serial: Int) -> MediaTime? {
        state.withLock { c in c.seekTarget.flatMap { $0.serial == serial ? $0.time : nil } }
    }

    /// The size pictures are converted to (the area they are drawn in).
    var displaySize: (width: Int, height: Int) { state.withLock { $0.displaySize } }

    /// Whether anyone can see the pictures (false: the window is
    /// minimized): decoding goes on, conversion stops.
    var arePicturesSeen: Bool {
        get { picturesSeen.load(ordering: .relaxed) }
        set { picturesSeen.store(newValue, ordering: .relaxed) }
    }

    /// Whether the video thread keeps decoded frames around a seek for the
    /// steps back that follow (while paused).
    var keepsFramesForSteps: Bool {
        get { keepsFrames.load(ordering: .relaxed) }
        set { keepsFrames.store(newValue, ordering: .relaxed) }
    }

    /// Whether the player plays backward: a seek back (a step that fell
    /// behind the clock) keeps the whole cache's worth, as a step does.
    var playsBackward: Bool {
        get { backward.load(ordering: .relaxed) }
        set { backward.store(newValue, ordering: .relaxed) }
    }

    /// The video decode thread decodes the packets of video serial
    /// `serial`: playing backward, the demux thread reads them past the
    /// first only then (a step served from the cache needs none).
    func readOn(serial: Int) {
        readSerial.store(serial, ordering: .relaxed)
        demuxerWake.signal()
    }

    /// Whether the packets of `serial` are wanted past its first (`readOn`).
    func readsOn(serial: Int) -> Bool { readSerial.load(ordering: .relaxed) == serial }

    /// Frames a seek or step took from the decoded-frame cache (not decoded again).
    var framesFromCache: Int { cachedFramesShown.load(ordering: .relaxed) }
    func countFrameFromCache() { cachedFramesShown.add(1, ordering: .relaxed) }

    /// `displaySize`, as the size of the pictures drawn.
    var shownSize: PictureSize {
        let size = displaySize
        return PictureSize(width: size.width, height: size.height)
    }

    func setDisplaySize(width: Int, height: Int) {
        state.withLock { $0.displaySize = (max(width, 1), max(height, 1)) }
    }

    /// Whether the video thread deinterlaces (read for every frame).
    var deinterlace: DeinterlaceMode {
        get { state.withLock { $0.deinterlace } }
        set { state.withLock { $0.deinterlace = newValue } }
    }

    /// `hwdec`, taken by the video thread before each packet.
    var hardwareDecoding: HardwareDecoding {
        get { state.withLock { $0.hardwareDecoding } }
        set { state.withLock { $0.hardwareDecoding = newValue } }
    }

    /// What the video decoder decodes with now (`hwdec-current`), as the video thread last said.
    var hardwareInUse: String {
        get { state.withLock { $0.hardwareInUse } }
        set { state.withLock { $0.hardwareInUse = newValue } }
    }

    /// The speed the audio decoder plays at (read for every chunk it writes).
    var speed: PlaybackSpeed {
        get { state.withLock { $0.speed } }
        set { state.withLock { $0.speed = newValue } }
    }

    /// The A-B loop (nil: none); it takes effect with the next seek, or at
    /// once (`now`) before the threads have started.
    func setLoopInterval(_ interval: LoopInterval?, now: Bool) {
        state.withLock { c in
            c.loopInterval = interval
            if now { c.activeInterval = interval }
        }
        demuxerWake.signal()
    }

    /// The A-B loop the next seek's passes will follow.
    var pendingLoopInterval: LoopInterval? { state.withLock { $0.loopInterval } }

    /// The A-B loop the passes of the current seek follow.
    var activeLoopInterval: LoopInterval? { state.withLock { $0.activeInterval } }

    func setPasses(_ passes: Int?) {
        state.withLock { $0.passes = passes.map { max($0, 1) } }
        demuxerWake.signal()
    }
}
