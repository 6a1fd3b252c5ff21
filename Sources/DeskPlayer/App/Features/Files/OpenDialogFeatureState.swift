// SPDX-License-Identifier: GPL-3.0-or-later

extension CommandController {
    /// Files dialogs, the built-in browser, recent files.
    var opener: MediaOpener? {
        get { features[MediaOpener.self] }
        set { features[MediaOpener.self] = newValue }
    }
}
