import CSDL2

/// Owns the one SDL audio device. Its callback asks the mixer for audio;
/// the mixer is passed through `userdata`, never captured.
final class AudioDevice {
    let id: SDL_AudioDeviceID
    let format: AudioFormat
    let bufferFrames: Int
    private let mixer: Unmanaged<Mixer>

    init(mixer: Mixer) throws(SDLError) {
        let retained = Unmanaged.passRetained(mixer)
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
    let mixer = Unmanaged<Mixer>.fromOpaque(userdata).takeUnretainedValue()
    let bytesPerFrame = MemoryLayout<Float>.size * mixer.format.channels
    let frames = Int(length) / bytesPerFrame
    let latency = UInt64(frames) * 1_000_000_000 / UInt64(mixer.format.sampleRate)
    let out = UnsafeMutableRawPointer(stream).assumingMemoryBound(to: Float.self)
    mixer.render(into: out, frames: frames, playbackHost: HostTime.now() + latency)
}
