// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Media
import Playback

/// Editors' J/K/L (Alt+j, Alt+k, Alt+l by default): J plays backward, L
/// forward, at 1×, or twice as fast when already playing that way (2×,
/// then 4×); K pauses. Made of the `play-dir`, `speed` and `pause`
/// properties, so a sync group moves as one and observers see each change.
extension CommandController {
    func shuttle(_ direction: Command.PlayDirection, _ target: CommandTarget, _ source: CommandSource) throws(CommandError) {
        guard let leader = try resolve(target).first?.player else { return }
        let way: PlayDirection = direction == .backward ? .backward : .forward
        let faster = !leader.isPaused && leader.playDirection == way
        let speed = faster ? min(leader.speed.value * 2, PlaybackSpeed.range.upperBound) : 1
        // Quietly, one line on the screen for all three.
        try apply(.set(property: "play-dir", value: .string(way.rawValue)), to: target, from: .socket)
        try apply(.set(property: "speed", value: .number(speed)), to: target, from: .socket)
        try apply(.set(property: "pause", value: .bool(false)), to: target, from: .socket)
        guard source.showsOSD else { return }
        osd(String(format: way == .backward ? tr("Backward %.0f×") : tr("Forward %.0f×"), speed), seconds: 1.5, topic: "speed")
    }
}
