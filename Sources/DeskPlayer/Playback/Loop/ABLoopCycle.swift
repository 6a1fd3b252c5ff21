// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// mpv's `l` key as a sequence over the player's A-B interval: A at the
/// play head, then B, then cleared. Only the player's public interval and
/// time are used; the seamless passes are the pipeline's job.
extension Player {
    /// mpv's `l`: sets A at the play head, then B, then clears both. Returns the OSD line.
    package func cycleABLoop() -> String {
        let now = currentTime
        if abLoop.a == nil {
            setABLoop(a: now, b: nil)
            return "A-B loop: A \(DisplayText.clock(now.seconds))"
        } else if abLoop.b == nil {
            setABLoop(a: abLoop.a, b: now)
            let loop = LoopInterval(abLoop.a, abLoop.b)
            return loop.map { "A-B loop: \(DisplayText.clock($0.a.seconds)) - \(DisplayText.clock($0.b.seconds))" }
                ?? "A-B loop: A \(DisplayText.clock(now.seconds))"
        }
        setABLoop(a: nil, b: nil)
        return "A-B loop cleared"
    }
}
