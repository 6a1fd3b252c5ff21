// SPDX-License-Identifier: GPL-3.0-or-later
/// A fault made on purpose at the hardware boundary, for tests
/// (`DESKPLAYER_HWDEC_FAULT`): `transfer-after:N` stands a simulated
/// device in for the one asked for (the decode is FFmpeg's software one,
/// each frame passing through the copy-back step) and makes the copy of
/// frame N+1 fail, so the fall back mid-stream can be seen on any machine.
package struct HardwareFault: Sendable, Equatable {
    /// Frames copied back before the copy fails.
    package let transfersBeforeFailure: Int

    package static let environmentName = "DESKPLAYER_HWDEC_FAULT"

    package init(transfersBeforeFailure: Int) { self.transfersBeforeFailure = max(transfersBeforeFailure, 0) }

    /// `transfer-after:N`; nil for anything else.
    package init?(_ spec: String) {
        let parts = spec.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0] == "transfer-after", let count = Int(parts[1]), count >= 0,
              count <= 1_000_000_000 else { return nil }
        transfersBeforeFailure = count
    }
}
