// SPDX-License-Identifier: GPL-3.0-or-later

extension CommandController {
    /// The scope panel (`scope`); nil without a window.
    var scopes: Scopes? {
        get { features[Scopes.self] }
        set { features[Scopes.self] = newValue }
    }
}
