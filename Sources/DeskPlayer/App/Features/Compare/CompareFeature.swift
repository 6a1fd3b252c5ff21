// SPDX-License-Identifier: GPL-3.0-or-later

/// Comparing's work between commands: the alignment and export runs and the
/// live metrics, each on threads of its own, whose results the loop takes.
final class CompareFeature: AppFeature {
    init(_ core: AppCore) {}

    /// The comparison's settings, its metrics and its export.
    static var properties: [Property] { CompareProperties.all + PropertyTable.compareMetricsProperties + PropertyTable.compareExportProperties }

    func update(_ core: AppCore, at now: UInt64) {
        let controller = core.controller
        // What the view measured, for the properties that read it (the view writes no state).
        if let drawing = core.drawing { controller.compare?.record(drawing) }
        controller.compareAlignment.update(controller)
        controller.compareExport.update(controller)
        controller.compareMetrics?.update(playhead: core.tiles.tiles.first?.player.currentTime.seconds ?? 0)
    }

    /// Looked at often while any of it runs: its threads do not wake the loop.
    func nextDeadline(_ core: AppCore, at now: UInt64) -> Double? { isAtRest(core) ? nil : lookInterval }

    func isAtRest(_ core: AppCore) -> Bool {
        let controller = core.controller
        return controller.compareMetrics == nil && !controller.compareAlignment.isRunning && !controller.compareExport.isRunning
    }

    func finish(_ core: AppCore) {
        core.controller.compareMetrics?.finish()
        core.controller.compareAlignment.stop()
        core.controller.compareExport.stop()
    }
}
