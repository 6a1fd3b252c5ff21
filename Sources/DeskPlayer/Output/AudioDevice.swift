import CSDL2
import Media

/// What the audio device plays (the mixer): defined here so the device
/// needs nothing of Playback.
package protocol AudioOutputSource: AnyObject, Sendable {
    /// The format `render` writes: interleaved 32-bit float.
    var format: AudioFormat { get }
    /// Writes `frames` frames into `out`; the first is heard at host time
    /// `playbackHost`. Runs on SDL's audio thread: must not block or allocate.
    func render(into out: UnsafeMutablePointer<Float>, frames: Int, playbackHost: UInt64)
}

/// Owns the one SDL audio device. Its callback asks the mixer for audio;
/// the mixer is passed through `userdata`, never captured.
package final class AudioDevice {
    let id: SDL_AudioDeviceID
    let format: AudioFormat
    let bufferFrames: Int
    private let mixer: Unmanaged<SourceBox>

    /// Holds the source as a class reference `userdata` can carry.
    fileprivate final class SourceBox {
        let source: any AudioOutputSource
        init(_ source: any AudioOutputSource) { self.source = source }
    }

    package init(mixer: any AudioOutputSource) throws(SDLError) {
        let retained = Unmanaged.passRetained(SourceBox(mixer))
        var want = SDL_AudioSpec()
        want.freq = Int32(mixer.format.sampleRate)
        want.format = DP_AUDIO_F32SYS
        want.channels = UInt8(mixer.format.channels)
        want.samples = 1024
        want.callback = audioCallback
        want.userdata = retained.toOpaque()
        var have = SDL_AudioSpec()
        // No allowed changes: SDL converts if the hardware differs, so the
        // mixer always works in its own format.
        let device = SDL_OpenAudioDevice(nil, 0, &want, &have, 0)
        guard device != 0 else {
            retained.release()
            throw SDLError("cannot open audio device")
        }
        id = device
        format = mixer.format
        bufferFrames = Int(have.samples)
        self.mixer = retained
        SDL_PauseAudioDevice(device, 0)
    }

    deinit {
        SDL_CloseAudioDevice(id)
        mixer.release()
    }
}

/// The device buffer being filled now starts playing about one buffer from
/// now (SDL double-buffers); that is when the clock says its samples are heard.
private let audioCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Void = {
    userdata, stream, length in
    guard let userdata, let stream else { return }
    let mixer = Unmanaged<AudioDevice.SourceBox>.fromOpaque(userdata).takeUnretainedValue().source
    let bytesPerFrame = MemoryLayout<Float>.size * mixer.format.channels
    let frames = Int(length) / bytesPerFrame
    let latency = UInt64(frames) * 1_000_000_000 / UInt64(mixer.format.sampleRate)
    let out = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: Float.self)
    mixer.render(into: out, frames: frames, playbackHost: HostTime.now() + latency)
}
