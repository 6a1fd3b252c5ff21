// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media
import Synchronization

/// Reads a microphone for a recording on a thread of its own: the input
/// (libavdevice's `pulse`, or any `FORMAT:URL` such as a lavfi `sine`
/// stand-in) is opened there, so a slow audio server never holds the
/// window; its audio is decoded, resampled to 48 kHz stereo float and
/// handed to the recorder with the host time it arrived.
package final class MicrophoneCapture: Sendable {
    private let device: LiveDevice
    private let interrupt = InterruptFlag()
    private let failure = Mutex<String?>(nil)
    private let recorder: CameraRecorder

    package init(device: LiveDevice, recorder: CameraRecorder) {
        self.device = device
        self.recorder = recorder
    }

    /// Why the microphone stopped or never started (nil: it records).
    package var problem: String? { failure.withLock { $0 } }

    package func start() {
        let thread = Thread { [self] in
            do { try run() } catch {
                // A microphone that goes leaves the picture recording.
                if !interrupt.isSet { failure.withLock { $0 = "\(error)" } }
            }
        }
        thread.name = "deskplayer.microphone"
        thread.start()
    }

    /// Stops reading (a blocked read gives up through the interrupt callback).
    package func stop() { interrupt.set() }

    private func run() throws(MediaError) {
        let input = try MediaInput(location: MediaLocation(device.location), interrupt: interrupt)
        guard let index = input.bestStream(AVMEDIA_TYPE_AUDIO), let stream = input.stream(index) else {
            throw MediaError("\(device.url) has no audio")
        }
        let decoder = try Decoder(stream: stream, threads: 1)
        let resampler = Resampler(output: .device)
        let packet = try Packet(), frame = try Frame()
        while !interrupt.isSet {
            guard try input.read(into: packet) else { throw MediaError("the microphone stopped") }
            defer { packet.unref() }
            guard Int(packet.streamIndex) == index else { continue }
            let arrived = HostTime.now()
            var converted: [Float] = []
            var problem: MediaError?
            decoder.decode(packet, into: frame, until: { interrupt.isSet || problem != nil }) { decoded in
                do throws(MediaError) {
                    let count = try resampler.convert(decoded.pointer).count
                    converted.append(contentsOf: UnsafeBufferPointer(start: resampler.buffer, count: count * 2))
                } catch {
                    problem = error
                }
            }
            if let problem { throw problem }
            if !converted.isEmpty { recorder.takeAudio(converted, arrivedAt: arrived) }
        }
    }
}
