// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import UI

/// The OSD's lines stay bounded however many come, newest kept, and a
/// topic's line still replaces the one before on it.
@Suite struct OSDLinesTests {
    @Test func aFloodOfLinesKeepsOnlyTheNewest() {
        var osd = OSDLines()
        for i in 0..<1000 { osd.add("line \(i)", topic: nil, until: .max) }
        #expect(osd.lines.count == OSDLines.limit)
        #expect(osd.lines.map(\.text) == (1000 - OSDLines.limit..<1000).map { "line \($0)" })

        osd.add("Volume 50 %", topic: "volume", until: .max)
        osd.add("Volume 60 %", topic: "volume", until: .max)
        #expect(osd.lines.count == OSDLines.limit && osd.lines.filter { $0.topic == "volume" }.map(\.text) == ["Volume 60 %"])
    }

    @Test func linesGoWhenTheirTimeIsUp() {
        var osd = OSDLines()
        osd.add("short", topic: nil, until: 10)
        osd.add("long", topic: nil, until: 20)
        let atFive = osd.expire(at: 5)
        #expect(!atFive && osd.lines.count == 2)
        let atTen = osd.expire(at: 10)
        #expect(atTen && osd.lines.map(\.text) == ["long"])
        let atTwenty = osd.expire(at: 20)
        #expect(atTwenty && osd.isEmpty)
    }
}
