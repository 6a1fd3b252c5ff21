// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// Comparing (`--compare`, the roll's "Compare", compare-takes): the
/// session set up as the window opens, and its work between commands: the
/// alignment and export runs and the live metrics, each on threads of its
/// own, whose results the loop takes.
final class CompareFeature: AppFeature {
    /// Where a comparison started later is drawn; `--compare`'s view, keys
    /// and pictures before the tiles are made (CompareSession).
    static func windowOpening(_ core: AppCore) {
        guard let window = core.window else { return }
        let controller = core.controller
        controller.compareWindow = { [weak window, weak controller] in
            guard let window, let controller else { return nil }
            return (window, controller.factory)
        }
        if let mode = core.options.compare {
            CompareSession.start(mode, core.options, window: window, controller: controller, factory: controller.factory)
        }
    }

    /// With the tiles made: the metrics of the second file against the
    /// first (with more renditions, still the second), the shift and
    /// `--compare-align` from the command line.
    init(_ core: AppCore) {
        let options = core.options, controller = core.controller
        if let window = core.window, options.compare != nil, options.files.count >= 2 {
            controller.compareMetrics = CompareMetrics(reference: options.files[0], other: options.files[1],
                                                       csvPath: options.compareMetricsOut, window: window)
        }
        if options.compareMetrics != nil || options.compareMetricsOut != nil {
            controller.compareMetrics?.measure(options.compareMetrics?.metrics ?? Set(VideoMetric.allCases))
        }
        CompareSession.tilesMade(options, controller: controller)
    }

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
