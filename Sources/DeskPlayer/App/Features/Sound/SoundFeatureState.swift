// SPDX-License-Identifier: GPL-3.0-or-later
import Output

extension CommandController {
    /// The sound output (`audio-device`); nil without a window.
    var audioOutput: AudioOutput? {
        get { features[AudioOutput.self] }
        set { features[AudioOutput.self] = newValue }
    }
}
