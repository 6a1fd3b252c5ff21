// SPDX-License-Identifier: GPL-3.0-or-later
import Collections
import Foundation
import Media

/// A decoded video frame waiting to be shown: a reference to the picture
/// as the decoder and filters left it (FFmpeg counts the users of its
/// buffers), made into a displayable picture only if and when it is shown,
/// at the size it is shown (`FramePictureMaker`).
package struct VideoFrame: @unchecked Sendable {  // the source is only read once queued
    package let source: Frame
    /// When it is shown, on the item's timeline.
    let pts: MediaTime
    /// How long it is shown if no later frame says otherwise.
    let duration: MediaTime
    let serial: Int
    /// Its time in the item's media (where its subtitles are looked up).
    let itemTime: MediaTime
    /// Decoded without the loop filter, for a picture shown at half size or
    /// less: not to be made again larger (it is decoded again instead).
    package let decodedFast: Bool
    /// What its picture is made with.
    let origin: FrameOrigin
    /// Resized ahead for the size shown then (playing backward,
    /// `BackwardWindowDecoder`): shown at another size, it too is decoded
    /// again rather than made from a picture of the old size.
    package var resizedAhead = false

    /// Whether a picture at another size is made from a decode of it
    /// again, not from this frame (decoded fast, or resized ahead).
    package var isForOneSize: Bool { decodedFast || resizedAhead }
}

/// The few decoded frames waiting between a video decode thread and the
/// presenter: the decoder waits when the presenter is behind. Two, as mpv
/// holds (ffplay three): on 2 cores 2160p60 HEVC Main 10 drops none of 300
/// with two as with five, nor do 9 or 16 grainy 720p tiles, and each one
/// less is a decoded picture less held (3 MB at 1080p).
/// Thread-safe: guarded by its NSCondition.
package final class FrameQueue: @unchecked Sendable {  // guarded by `condition`: the decoder waits on it for room
    private let condition = NSCondition()
    private var frames = Deque<VideoFrame>()
    private let capacity: Int
    private var aborted = false
    private(set) var serial = 0
    private var endedSerial = -1
    /// Called once, on the decode thread, when the queue next gets a frame
    /// or ends: the main loop sleeps on it rather than on a timer while its
    /// player waits for a picture the decoder has not made yet.
    private var wakeOnFrame: (@Sendable () -> Void)?

    init(capacity: Int = 2) {
        self.capacity = max(capacity, 1)
    }

    /// Waits for room for a frame; false once aborted or when `serial` went stale.
    func waitForRoom(serial wanted: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while frames.count >= capacity && !aborted && wanted == serial { condition.wait() }
        return !aborted && wanted == serial
    }

    /// Queues a frame; a stale one is let go.
    func push(_ frame: VideoFrame) {
        condition.lock()
        if !aborted && frame.serial == serial { frames.append(frame) }
        let wake = frames.isEmpty ? nil : takeWake()
        condition.broadcast()
        condition.unlock()
        wake?()
    }

    /// Asks for `wake` (once, from the decode thread) when a frame is
    /// queued or the decoder ends this serial. False when there is nothing
    /// to wait for: a frame is queued already, or the serial ended.
    func wakeWhenFrameQueued(_ wake: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard frames.isEmpty && endedSerial != serial && !aborted else { return false }
        wakeOnFrame = wake
        return true
    }

    /// The wake asked for, taken (the lock held).
    private func takeWake() -> (@Sendable () -> Void)? {
        defer { wakeOnFrame = nil }
        return wakeOnFrame
    }

    func peek(_ offset: Int = 0) -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        return offset < frames.count ? frames[offset] : nil
    }

    /// Takes the first frame, making room for the decoder.
    func pop() -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        let frame = frames.popFirst()
        if frame != nil { condition.broadcast() }
        return frame
    }

    /// Drops queued frames and starts a new serial (after a seek).
    func flush(serial newSerial: Int) {
        condition.lock()
        frames.removeAll()
        serial = newSerial
        condition.broadcast()
        condition.unlock()
    }

    /// The decoder has delivered every frame of `serial`.
    func markEnded(serial ended: Int) {
        condition.lock()
        if ended == serial { endedSerial = ended }
        let wake = endedSerial == serial ? takeWake() : nil
        condition.broadcast()
        condition.unlock()
        wake?()
    }

    /// Waits until a frame is queued, the decoder ends or the serial
    /// changes, or `timeout` seconds pass: a consumer that takes frames as
    /// fast as they come (the fuzzer) blocks here rather than polling.
    func waitForFrame(timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        let wanted = serial
        while frames.isEmpty && !aborted && endedSerial != serial && serial == wanted {
            if !condition.wait(until: deadline) { break }
        }
    }

    /// True when the decoder finished this serial and every frame was taken.
    var isDrained: Bool {
        condition.lock()
        defer { condition.unlock() }
        return endedSerial == serial && frames.isEmpty
    }

    var hasEnded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return endedSerial == serial
    }

    /// The serial it queues, and whether the decoder ended it (read together).
    var serialState: (serial: Int, ended: Bool) {
        condition.lock()
        defer { condition.unlock() }
        return (serial, endedSerial == serial)
    }

    func abort() {
        condition.lock()
        aborted = true
        frames.removeAll()
        let wake = takeWake()
        condition.broadcast()
        condition.unlock()
        wake?()
    }
}
