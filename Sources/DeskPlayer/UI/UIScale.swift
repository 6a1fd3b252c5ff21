// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2
import Foundation
import Media

/// How much larger than at 96 DPI the main window draws its own parts
/// (control bar, OSD text, panels, idle screen), so they read the same on a
/// 4K screen: `--ui-scale` when given, else the desktop's `Xft.dpi` (the X
/// resource database, as GTK and Qt read it), else SDL's display DPI.
package struct UIScale: Equatable, Sendable {
    package let factor: Double
    /// Where it came from: "--ui-scale", "Xft.dpi", "display", "default".
    package let source: String

    package static let range = 0.5...4.0

    package init(factor: Double, source: String) {
        self.factor = min(max(factor.isFinite ? factor : 1, UIScale.range.lowerBound), UIScale.range.upperBound)
        self.source = source
    }

    /// A length of the 96 DPI design at this scale.
    package func callAsFunction(_ length: Int) -> Int { Int(saturating: (Double(length) * factor).rounded()) }

    /// The factor for a DPI: 96 is 1, in quarter steps, 1 at the least (a
    /// small screen's parts are not shrunk below their design size).
    package static func factor(dpi: Double) -> Double {
        guard dpi.isFinite, dpi > 0 else { return 1 }
        return min(max((dpi / 96 * 4).rounded() / 4, 1), range.upperBound)
    }

    /// `Xft.dpi` in the text of an X resource database ("Xft.dpi:\t192"),
    /// nil when it is not there or not a plausible DPI.
    package static func xftDPI(in resources: String) -> Double? {
        for line in resources.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "Xft.dpi",
                  let dpi = Double(parts[1].trimmingCharacters(in: .whitespaces)), (24...1000).contains(dpi) else { continue }
            return dpi
        }
        return nil
    }

    /// The scale for `window`'s display: `requested` (`--ui-scale`) wins.
    static func detect(window: OpaquePointer, requested: Double?) -> UIScale {
        if let requested { return UIScale(factor: requested, source: "--ui-scale") }
        // A database past 1 MiB is not a desktop's settings.
        if let text = dp_x_resources(window), strnlen(text, 1 << 20) < 1 << 20, let dpi = xftDPI(in: String(cString: text)) {
            return UIScale(factor: factor(dpi: dpi), source: "Xft.dpi")
        }
        var ddpi: Float = 0, hdpi: Float = 0, vdpi: Float = 0
        let display = SDL_GetWindowDisplayIndex(window)
        if display >= 0, SDL_GetDisplayDPI(display, &ddpi, &hdpi, &vdpi) == 0, hdpi > 0 {
            return UIScale(factor: factor(dpi: Double(hdpi)), source: "display")
        }
        return UIScale(factor: 1, source: "default")
    }
}
