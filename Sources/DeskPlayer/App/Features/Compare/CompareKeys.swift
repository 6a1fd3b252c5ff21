// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Media

/// The keys of a comparison (`--compare`), put before the usual table
/// while one runs (Tab then picks the other side instead of a tile's focus).
enum CompareKeys {
    static let bindings: [KeyBinding] = { FeatureRegistry.installCommands(); return table }()

    private static var table: [KeyBinding] { [
        ("x", "cycle compare", trNoop("compare: wipe, diff, flip, hstack, vstack")),
        ("X", "cycle compare-diff", trNoop("difference: rgb, luma, heat")),
        ("g", "multiply compare-diff-gain 2", trNoop("difference gain x2")),
        ("G", "multiply compare-diff-gain 0.5", trNoop("difference gain / 2")),
        ("a", "cycle compare-side", trNoop("flip: show the other side")),
        ("A", "cycle compare-audio", trNoop("hear the other side")),
        ("TAB", "cycle compare-rendition", trNoop("the next rendition on the other side")),
        ("w", "cycle compare-wipe-orientation", trNoop("wipe: vertical / horizontal divider")),
        ("i", "cycle compare-labels", trNoop("labels: show / hide")),
        ("o", "cycle compare-loupe", trNoop("loupe: each side's pixels at the pointer at 8x, with their values")),
        ("M", "compare-mark", trNoop("mark this frame for compare-export-frames (again: unmark)")),
        ("Ctrl+s", "compare-save", trNoop("save each side's frame (full size) and the window as PNG")),
        ("Ctrl+RIGHT", "add compare-shift-frames 1", trNoop("B one frame later (time shift)")),
        ("Ctrl+LEFT", "add compare-shift-frames -1", trNoop("B one frame earlier (time shift)")),
        ("Ctrl+Shift+RIGHT", "add compare-shift-frames 10", trNoop("B ten frames later")),
        ("Ctrl+Shift+LEFT", "add compare-shift-frames -10", trNoop("B ten frames earlier")),
        ("=", "compare-align", trNoop("align: find each rendition's time shift (audio, else pictures)")),
        ("Ctrl+.", "compare-step A 1", trNoop("A alone one frame forward (B stays)")),
        ("Ctrl+,", "compare-step A -1", trNoop("A alone one frame back (B stays)")),
        ("Alt+.", "compare-step B 1", trNoop("B alone one frame forward (A stays)")),
        ("Alt+,", "compare-step B -1", trNoop("B alone one frame back (A stays)")),
    ].map { KeyBindings.binding(key: $0.0, $0.1, help: $0.2) } }
}

extension CompareFeature {
    /// The Compare submenu, shown only while comparing (`when`), after the Loop submenu.
    static var menu: [FeatureMenu] {
        [FeatureMenu(after: "Loop > Clear A-B loop", entries: [
            MenuTable.entry("Compare > View > wipe", "set compare wipe", when: "compare"),
            MenuTable.entry("Compare > View > diff", "set compare diff", when: "compare"),
            MenuTable.entry("Compare > View > flip", "set compare flip", when: "compare"),
            MenuTable.entry("Compare > View > side by side", "set compare hstack", when: "compare"),
            MenuTable.entry("Compare > View > one above the other", "set compare vstack", when: "compare"),
            MenuTable.entry("Compare > Difference > rgb", "set compare-diff rgb", when: "compare"),
            MenuTable.entry("Compare > Difference > luma", "set compare-diff luma", when: "compare"),
            MenuTable.entry("Compare > Difference > heat", "set compare-diff heat", when: "compare"),
            MenuTable.entry("Compare > Difference > -", when: "compare"),
            MenuTable.entry("Compare > Difference > Gain ×2", "multiply compare-diff-gain 2", when: "compare"),
            MenuTable.entry("Compare > Difference > Gain ÷2", "multiply compare-diff-gain 0.5", when: "compare"),
            MenuTable.entry("Compare > Metrics > PSNR and SSIM", "set compare-metrics psnr,ssim", when: "compare-metrics"),
            MenuTable.entry("Compare > Metrics > PSNR", "set compare-metrics psnr", when: "compare-metrics"),
            MenuTable.entry("Compare > Metrics > SSIM", "set compare-metrics ssim", when: "compare-metrics"),
            MenuTable.entry("Compare > Metrics > none", "set compare-metrics no", when: "compare-metrics"),
            MenuTable.entry("Compare > Scope > none", "set scope none", when: "compare"),
            MenuTable.entry("Compare > Scope > histogram", "set scope histogram", when: "compare"),
            MenuTable.entry("Compare > Scope > waveform", "set scope waveform", when: "compare"),
            MenuTable.entry("Compare > Scope > vectorscope", "set scope vectorscope", when: "compare"),
            MenuTable.entry("Compare > Labels", "cycle compare-labels", when: "compare"),
            MenuTable.entry("Compare > Loupe", "cycle compare-loupe", when: "compare"),
            MenuTable.entry("Compare > Swap sides (flip)", "cycle compare-side", when: "compare"),
            MenuTable.entry("Compare > Hear the other side", "cycle compare-audio", when: "compare"),
            MenuTable.entry("Compare > Wipe: vertical / horizontal", "cycle compare-wipe-orientation", when: "compare"),
            MenuTable.entry("Compare > Align", "compare-align", when: "compare"),
            MenuTable.entry("Compare > Save frames", "compare-save", when: "compare"),
        ])]
    }
}
