// SPDX-License-Identifier: GPL-3.0-or-later

extension CommandController {
    /// The camera roll (`library`); nil without a window.
    var library: LibraryRoll? {
        get { features[LibraryRoll.self] }
        set { features[LibraryRoll.self] = newValue }
    }
}
