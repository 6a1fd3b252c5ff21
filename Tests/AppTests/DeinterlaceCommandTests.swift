// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
@testable import Control
@testable import Media
import TestSupport

/// The `deinterlace` property and the `d` key, in-process on a real player:
/// `--deinterlace` starts it, `d` cycles it as mpv's `cycle deinterlace`,
/// the OSD says it, the pipeline follows, a bad value is refused.
@Suite struct DeinterlaceCommandTests {
    @Test func theDKeyCyclesDeinterlacingAndThePipelineFollows() throws {
        let rig = try CommandTests.Rig([Fixtures.asset("demo.mp4")], arguments: ["--deinterlace", "yes"])
        let player = try #require(rig.players.first)
        #expect(player.deinterlace == .yes)
        #expect(player.currentItem?.pipeline?.deinterlace == .yes)
        try rig.controller.handleKey("d")
        #expect(player.deinterlace == .auto)
        #expect(rig.screen.messages.last?.text == "Deinterlace: auto")
        try rig.controller.handleKey("d")
        #expect(player.deinterlace == .no)
        _ = player.update(at: HostTime.now())
        #expect(player.currentItem?.pipeline?.deinterlace == .no)
        try rig.apply("set deinterlace yes")
        #expect(player.deinterlace == .yes)
        #expect(throws: CommandError.self) { try rig.apply("set deinterlace sideways") }
        #expect(player.deinterlace == .yes)
    }
}
