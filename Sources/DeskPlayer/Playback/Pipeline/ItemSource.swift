// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// What a player plays from: an opened item's buffers, filled on the item's
/// own threads (a file's demuxer and decoders, or a composition's renderer).
package protocol ItemSource: AnyObject, Sendable {
    var info: MediaInfo { get }
    var hasVideo: Bool { get }
    var hasAudio: Bool { get }
    var frames: FrameQueue { get }
    var audioRing: AudioRing { get }
    /// The seek generation the buffers are filled for.
    var serial: Int { get }
    /// The timeline start of every loop pass begun so far (this serial).
    var passStarts: [MediaTime] { get }
    /// Where in the item pass `index` starts (zero, or an A-B loop's A).
    func passOrigin(_ index: Int) -> MediaTime
    /// The A-B loop from the next seek on (nil: none).
    func setLoopInterval(_ interval: LoopInterval?)
    @discardableResult func seek(to time: MediaTime, pass: Int) -> Int
    /// A seek that shows the keyframe at or before `time` (no frame is
    /// decoded only to be dropped); the sound starts at `time`.
    @discardableResult func seekToKeyframe(before time: MediaTime, pass: Int) -> Int
    func setDisplaySize(width: Int, height: Int)
    /// Whether its pictures can be seen: unseen, video is decoded (it
    /// keeps its place) but not converted for display.
    func setPicturesSeen(_ seen: Bool)
    /// Paused (true): decoded frames around a seek are kept for the steps
    /// back that follow (`DecodedFrameCache`); playing lets them go.
    func setKeepsFramesForSteps(_ keeps: Bool)
    /// Playing backward (`Player+Backward`): every seek back keeps as many
    /// decoded frames before its target as the cache holds, not only a step's.
    func setPlaysBackward(_ backward: Bool)
    /// Playing backward, whether the frames before the step showing at
    /// `time` are decoded ahead, so that time can start running.
    func isDecodedAhead(ofBackwardStepAt time: MediaTime) -> Bool
    func setPasses(_ passes: Int?)
    /// How fast its audio is made (the player's speed); the clock follows what is heard.
    func setSpeed(_ speed: PlaybackSpeed)
    /// Starts its threads, from where the last seek (if any) put it.
    func start()
    func stop()
    /// Every track of the item (streams and subtitle files).
    var tracks: [MediaTrack] { get }
    /// The audio stream playing (nil: none).
    var selectedAudioTrack: Int? { get }
    /// Switches audio to stream `id` from `playhead` on; false when it cannot.
    func selectAudioTrack(_ id: Int, playhead: MediaTime) -> Bool
    /// The item's subtitles (nil when it cannot have any).
    var subtitles: SubtitleTracks? { get }
    /// Deinterlacing of its video from the next frame on.
    func setDeinterlace(_ mode: DeinterlaceMode)
    var deinterlace: DeinterlaceMode { get }
    /// `hwdec` for its video from the next packet on, and what decodes it
    /// now (`no`: software; a method's copy-back name).
    func setHardwareDecoding(_ choice: HardwareDecoding)
    var hardwareDecoding: HardwareDecoding { get }
    var hardwareDecodingInUse: String { get }
    /// Its decoding errors (nil: a composition, whose sources are items of their own).
    var decodeErrors: DecodeErrors? { get }
}

/// A source with no tracks to choose from (a composition).
extension ItemSource {
    var tracks: [MediaTrack] { [] }
    func passOrigin(_ index: Int) -> MediaTime { .zero }
    func setLoopInterval(_ interval: LoopInterval?) {}
    func setPicturesSeen(_ seen: Bool) {}
    func setKeepsFramesForSteps(_ keeps: Bool) {}
    func setPlaysBackward(_ backward: Bool) {}
    func isDecodedAhead(ofBackwardStepAt time: MediaTime) -> Bool { true }
    func seekToKeyframe(before time: MediaTime, pass: Int) -> Int { seek(to: time, pass: pass) }
    var selectedAudioTrack: Int? { nil }
    func selectAudioTrack(_ id: Int, playhead: MediaTime) -> Bool { false }
    var subtitles: SubtitleTracks? { nil }
    var decodeErrors: DecodeErrors? { nil }
    func setDeinterlace(_ mode: DeinterlaceMode) {}
    var deinterlace: DeinterlaceMode { .no }
    func setHardwareDecoding(_ choice: HardwareDecoding) {}
    var hardwareDecoding: HardwareDecoding { .no }
    var hardwareDecodingInUse: String { "no" }
}
