// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Analysis
@testable import Media
import TestSupport

/// The background readers of comparing (a metrics or export input, the live
/// metrics and scope workers) let go of their files and decoders once
/// stopped and dropped. Each kept its `Thread` in a property while the
/// thread's block held it: a cycle that outlived the thread, so every
/// export attempt, metrics scan and scope kept a decoder's frame threads,
/// its file and its pictures for good (the door soak, issue 50: a
/// comparison reached 2,500 threads, 860 descriptors and 4 GB).
@Suite struct ReaderLifetimeTests {
    @Test func aStoppedMetricsInputIsFreed() throws {
        weak var gone: MetricsInput?
        do {
            let input = try MetricsInput(path: Fixtures.asset("demo.mp4"))
            input.start()
            _ = input.next()  // reading: its thread runs, holding it
            input.stop()
            gone = input
        }
        #expect(eventually { gone == nil }, "the stopped reader was never freed")
    }

    @Test func stoppedLiveMetricsAndScopesAreFreed() {
        weak var metrics: LiveMetrics?
        weak var scope: LiveScope?
        do {
            let live = LiveMetrics(reference: Fixtures.asset("demo.mp4"), other: Fixtures.asset("compare.mp4"), metrics: [.psnr])
            live.start()
            let shown = LiveScope(path: Fixtures.asset("demo.mp4"), kind: .waveform)
            shown.start()
            #expect(eventually { live.workerThread != nil })
            live.stop()
            shown.stop()
            (metrics, scope) = (live, shown)
        }
        #expect(eventually(seconds: 30) { metrics == nil && scope == nil }, "metrics freed: \(metrics == nil), scope freed: \(scope == nil)")
    }
}
