// SPDX-License-Identifier: GPL-3.0-or-later

extension CommandController {
    /// Picture in Picture windows (nil headless: there is no display to open them on).
    var pips: PiPManager? {
        get { features[PiPManager.self] }
        set { features[PiPManager.self] = newValue }
    }
}

extension CommandController {
    /// `--pip-auto`: minimizing moves the playing tile into a mini window; nil without it.
    var autoPiP: AutoPiP? {
        get { features[AutoPiP.self] }
        set { features[AutoPiP.self] = newValue }
    }
}
