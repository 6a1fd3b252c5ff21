// SPDX-License-Identifier: GPL-3.0-or-later
import Output
import Playback

/// The audio device (Output) plays the mixer (Playback); the two meet here,
/// above both, so neither layer knows the other.
extension Mixer: AudioOutputSource {}
