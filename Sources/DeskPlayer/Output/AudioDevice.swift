// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Media
import Synchronization

/// What the audio device plays (the mixer): defined here so the device
/// needs nothing of Playback.
package protocol AudioOutputSource: AnyObject, Sendable {
    /// The format `render` writes: interleaved 32-bit float.
    var format: AudioFormat { get }
    /// Writes `frames` frames into `out`; the first is heard at host time
    /// `playbackHost`. Runs on SDL's audio thread: must not block or allocate.
    func render(into out: UnsafeMutablePointer<Float>, frames: Int, playbackHost: UInt64)
}


/// What one device's SDL callback reaches through `userdata`: the feed it
/// renders from as `owner`, and its progress, which the audio output's
/// watchdog reads. Thread-safe (Atomic).
final class AudioDeviceLink: Sendable {
    let feed: AudioFeed
    let owner: AudioFeed.Owner
    /// Callbacks so far, and the host time of the last one.
    let calls = Atomic<Int>(0)
    let lastCall = Atomic<UInt64>(0)

    init(feed: AudioFeed, owner: AudioFeed.Owner) {
        self.feed = feed
        self.owner = owner
    }
}

/// Owns one open SDL audio device. Its callback renders the feed when the
/// device owns it and plays silence otherwise (while it warms up); the
/// link is passed through `userdata`, never captured. Opened, watched and
/// closed on the audio output's thread.
final class AudioDevice {
    let id: SDL_AudioDeviceID
    let bufferFrames: Int
    /// The name it was opened by (nil: the system's default).
    let name: String?
    let link: AudioDeviceLink
    private let retained: Unmanaged<AudioDeviceLink>

    init(name: String?, link: AudioDeviceLink) throws(SDLError) {
        let format = link.feed.format
        let retained = Unmanaged.passRetained(link)
        var want = SDL_AudioSpec()
        want.freq = Int32(format.sampleRate)
        want.format = DP_AUDIO_F32SYS
        want.channels = UInt8(format.channels)
        want.samples = 1024
        want.callback = audioCallback
        want.userdata = retained.toOpaque()
        var have = SDL_AudioSpec()
        // No allowed changes: SDL converts if the hardware differs, so the
        // mixer always works in its own format.
        let device = SDL_OpenAudioDevice(name, 0, &want, &have, 0)
        guard device != 0 else {
            retained.release()
            throw SDLError("cannot open audio device \(name.map { "'\($0)'" } ?? "(default)")")
        }
        id = device
        bufferFrames = Int(have.samples)
        self.name = name
        self.link = link
        self.retained = retained
        SDL_PauseAudioDevice(device, 0)
    }

    /// False once SDL has found the device gone (unplugged, its server died).
    var isConnected: Bool { SDL_GetAudioDeviceStatus(id) != SDL_AUDIO_STOPPED }

    /// Seconds one callback's buffer plays.
    var bufferSeconds: Double { Double(bufferFrames) / Double(link.feed.format.sampleRate) }

    deinit {
        SDL_CloseAudioDevice(id)
        retained.release()
    }
}

/// The device buffer being filled now starts playing about one buffer from
/// now (SDL double-buffers); that is when the clock says its samples are heard.
private let audioCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Void = {
    userdata, stream, length in
    guard let userdata, let stream else { return }
    let link = Unmanaged<AudioDeviceLink>.fromOpaque(userdata).takeUnretainedValue()
    let now = HostTime.now()
    link.calls.add(1, ordering: .relaxed)
    link.lastCall.store(now, ordering: .relaxed)
    let format = link.feed.format
    let bytesPerFrame = MemoryLayout<Float>.size * format.channels
    let frames = Int(length) / bytesPerFrame
    let latency = UInt64(frames) * 1_000_000_000 / UInt64(format.sampleRate)
    let out = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: Float.self)
    if !link.feed.render(as: link.owner, into: out, frames: frames, playbackHost: now + latency) {
        out.update(repeating: 0, count: frames * format.channels)
    }
}
