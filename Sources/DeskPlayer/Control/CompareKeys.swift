// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// The keys of a comparison (`--compare`), put before the usual table
/// while one runs (Tab then picks the other side instead of a tile's focus).
package enum CompareKeys {
    package static let bindings: [KeyBinding] = [
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
    ].map { KeyBinding(key: $0.0, command: (try? Command(parsing: $0.1)) ?? .ignore, help: $0.2) }
}
