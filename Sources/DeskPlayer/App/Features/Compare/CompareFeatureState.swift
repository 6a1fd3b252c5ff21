// SPDX-License-Identifier: GPL-3.0-or-later
import UI

/// Comparing's state, kept with the controller (FeatureStates) for its
/// properties and commands to find.
extension CommandController {
    /// The comparison's settings (`--compare`; nil without one): its properties change them.
    var compare: CompareState? {
        get { features[CompareState.self] }
        set { features[CompareState.self] = newValue }
    }

    /// PSNR/SSIM of a compared pair (`compare-metrics`); nil outside `--compare`.
    var compareMetrics: CompareMetrics? {
        get { features[CompareMetrics.self] }
        set { features[CompareMetrics.self] = newValue }
    }

    /// `compare-align`'s runs and what they found.
    var compareAlignment: CompareAlignment { features.shared(CompareAlignment.init) }

    /// `compare-export`'s run.
    var compareExport: CompareExportControl { features.shared(CompareExportControl.init) }

    /// Reference times marked for compare-export-frames (`compare-mark`), in order.
    var compareMarks: [Double] {
        get { features.shared(CompareMarks.init).times }
        set { features.shared(CompareMarks.init).times = newValue }
    }

    /// The window a comparison started at run time is drawn in (the roll's
    /// "Compare", compare-takes), with its tile factory; nil headless.
    var compareWindow: (() -> (MainWindow, TileFactory)?)? {
        get { features[CompareWindowSource.self]?.window }
        set { features[CompareWindowSource.self] = newValue.map(CompareWindowSource.init) }
    }
}

/// The marks of `compare-mark`, as one state.
private final class CompareMarks {
    var times: [Double] = []
}

/// Where a comparison started at run time is drawn.
private final class CompareWindowSource {
    let window: () -> (MainWindow, TileFactory)?

    init(_ window: @escaping () -> (MainWindow, TileFactory)?) { self.window = window }
}
