// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Analysis
import TestSupport

/// A stopped live-metrics scan winds down even on a busy machine (issue 50):
/// its worker ran under SCHED_IDLE to the end, so with every core taken
/// (three videos on two cores, the door soak's clients) a scan turned off
/// kept its decoders for minutes, and each `compare-metrics` off and on
/// started another beside it (2,500 threads, 4 GB). Stopping puts the worker
/// back to the normal policy at nice 19; it then ends.
@Suite struct LiveMetricsStopTests {
    @Test func aStoppedScanLeavesTheIdlePolicyAndEnds() throws {
        let live = LiveMetrics(reference: Fixtures.asset("demo.mp4"), other: Fixtures.asset("compare.mp4"), metrics: [.psnr, .ssim])
        live.start()
        var worker: pid_t?
        #expect(eventually { worker = live.workerThread; return worker != nil }, "the worker never ran")
        let tid = try #require(worker)
        // While it scans: SCHED_IDLE (5), so playing threads always win the cores.
        #expect(sched_getscheduler(tid) == 5)
        live.stop()
        // Right after stop: the normal policy (0), unless it has ended already (the thread is gone).
        let policy = sched_getscheduler(tid)
        #expect(policy == 0 || (policy == -1 && live.hasEnded), "policy \(policy) after stop")
        #expect(eventually(seconds: 30) { live.hasEnded }, "the stopped scan did not end")
    }
}
