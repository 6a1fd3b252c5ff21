import Collections
import Foundation
import Media

/// A decoded video frame, converted and sized for display.
package struct VideoFrame: @unchecked Sendable {  // the picture buffer belongs to whoever holds the frame
    package let picture: PictureBuffer
    /// When it is shown, on the item's timeline.
    let pts: MediaTime
    /// How long it is shown if no later frame says otherwise.
    let duration: MediaTime
    let serial: Int
    /// False for a frame decoded while nobody could see it (a minimized
    /// window): it keeps the timeline's place, its picture was never made.
    package var isConverted = true
    /// The decoded picture it was converted from, while the pipeline keeps
    /// them (`keepsDecodedPictures`: the comparison's loupe reads its code values).
    package var decoded: DecodedPicture? = nil
}

/// The few decoded frames waiting between a video decode thread and the
/// presenter. Picture buffers come from a fixed pool, so the decoder waits
/// when the presenter is behind and nothing is allocated per frame. Two
/// pictures, as mpv holds (ffplay three): on 2 cores 2160p60 HEVC Main 10
/// drops none of 300 with two as with five, nor do 9 or 16 grainy 720p
/// tiles, and each one less is a 1280x720 BGRA picture (3.7 MB) less.
/// Thread-safe: guarded by its NSCondition.
package final class FrameQueue: @unchecked Sendable {  // guarded by `condition`: the decoder waits on it for a free buffer
    private let condition = NSCondition()
    private var frames = Deque<VideoFrame>()
    private var pool: [PictureBuffer] = []
    private var aborted = false
    private(set) var serial = 0
    private var endedSerial = -1

    init(buffers: Int = 2) {
        for _ in 0..<buffers { pool.append(PictureBuffer(width: 16, height: 16)) }
    }

    /// Waits for a free picture buffer; nil once aborted or when `serial` went stale.
    func acquireBuffer(serial wanted: Int) -> PictureBuffer? {
        condition.lock()
        defer { condition.unlock() }
        while pool.isEmpty && !aborted && wanted == serial { condition.wait() }
        guard !aborted, wanted == serial else { return nil }
        return pool.removeLast()
    }

    /// Queues a frame; a stale one goes straight back to the pool.
    func push(_ frame: VideoFrame) {
        condition.lock()
        defer { condition.unlock() }
        if aborted || frame.serial != serial {
            pool.append(frame.picture)
        } else {
            frames.append(frame)
        }
        condition.broadcast()
    }

    /// Gives a buffer back once its picture has been copied out.
    func recycle(_ picture: PictureBuffer) {
        condition.lock()
        pool.append(picture)
        condition.broadcast()
        condition.unlock()
    }

    func peek(_ offset: Int = 0) -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        return offset < frames.count ? frames[offset] : nil
    }

    /// Takes the first frame; the caller recycles its picture when done.
    func pop() -> VideoFrame? {
        condition.lock()
        defer { condition.unlock() }
        return frames.popFirst()
    }

    /// Drops queued frames and starts a new serial (after a seek).
    func flush(serial newSerial: Int) {
        condition.lock()
        while let f = frames.popFirst() { pool.append(f.picture) }
        serial = newSerial
        condition.broadcast()
        condition.unlock()
    }

    /// The decoder has delivered every frame of `serial`.
    func markEnded(serial ended: Int) {
        condition.lock()
        if ended == serial { endedSerial = ended }
        condition.broadcast()
        condition.unlock()
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

    func abort() {
        condition.lock()
        aborted = true
        while let f = frames.popFirst() { pool.append(f.picture) }
        condition.broadcast()
        condition.unlock()
    }
}
