// SPDX-License-Identifier: GPL-3.0-or-later
/// The one audio format the mixer works in: interleaved 32-bit float.
package struct AudioFormat: Sendable, Equatable {
    package var sampleRate: Int
    package var channels: Int

    package init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// What the SDL device is opened with; SDL converts if the hardware differs.
    package static let device = AudioFormat(sampleRate: 48_000, channels: 2)
}
