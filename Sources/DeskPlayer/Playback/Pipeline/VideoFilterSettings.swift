// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// mpv's `--deinterlace`: `auto` deinterlaces what the stream or its
/// frames say is interlaced, `yes` every frame, `no` none.
package enum DeinterlaceMode: String, Sendable, CaseIterable {
    case auto
    case no
    case yes
}

/// `--tone-mapping`: how PQ and HLG (HDR) video is brought to an SDR
/// screen; FFmpeg's `tonemap` curves, or `no` to show it unmapped.
package enum ToneMapping: String, Sendable, CaseIterable {
    case hable
    case mobius
    case reinhard
    case clip
    case linear
    case no
}

/// What the video filters of an item do besides what the stream asks for
/// (`--video-rotate`, `--deinterlace`, `--tone-mapping`).
package struct VideoFilterSettings: Sendable, Equatable {
    /// Degrees turned clockwise on top of the file's own rotation; nil
    /// ignores the file's rotation too (mpv's `--video-rotate=no`).
    package var extraRotation: Int? = 0
    package var deinterlace: DeinterlaceMode = .auto
    package var toneMapping: ToneMapping = .hable

    package init(extraRotation: Int? = 0, deinterlace: DeinterlaceMode = .auto, toneMapping: ToneMapping = .hable) {
        (self.extraRotation, self.deinterlace, self.toneMapping) = (extraRotation, deinterlace, toneMapping)
    }

    /// How a stream whose display matrix says `file` is shown.
    func orientation(file: VideoOrientation) -> VideoOrientation {
        guard let extra = extraRotation else { return .upright }
        return file.then(.clockwise(extra))
    }
}
