// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import Media

@Suite struct MediaTimeTests {
    @Test func arithmeticAcrossTimescalesIsExact() {
        let a = MediaTime(value: 1, timescale: 3)
        let b = MediaTime(value: 1, timescale: 44_100)
        let sum = a + b
        #expect(sum == MediaTime(value: 14_701, timescale: 44_100))
        #expect(sum - b == a)
        // 44100 samples of 1/44100 s are exactly one second, never 0.99999.
        var t = MediaTime.zero
        for _ in 0..<44_100 { t = t + b }
        #expect(t == MediaTime(value: 1, timescale: 1))
    }

    @Test func comparesAndHashesByValueNotRepresentation() {
        #expect(MediaTime(value: 1, timescale: 2) == MediaTime(value: 2, timescale: 4))
        #expect(Set([MediaTime(value: 1, timescale: 2), MediaTime(value: 500, timescale: 1000)]).count == 1)
        #expect(MediaTime(value: 1, timescale: 3) < MediaTime(value: 334, timescale: 1000))
        #expect(MediaTime(value: -1, timescale: 3) < .zero)
    }

    @Test func conversionRoundsToNearestAndFloorRoundsDown() {
        let t = MediaTime(value: 2, timescale: 3)  // 0.666…
        #expect(t.converted(to: 1000).value == 667)
        #expect(t.floor(in: 1000) == 666)
        #expect(MediaTime(value: -2, timescale: 3).floor(in: 1000) == -667)
        #expect(MediaTime(seconds: 1.5).microseconds == 1_500_000)
    }
}
