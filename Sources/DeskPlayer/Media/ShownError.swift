// SPDX-License-Identifier: GPL-3.0-or-later

/// An error's text for the window: in the user's language where the error
/// carries it (MediaError's `shown`), its English description otherwise.
/// stderr and the socket keep `"\(error)"`, English.
package func shownDescription(of error: any Error) -> String {
    if let media = error as? MediaError { return media.shown }
    return "\(error)"
}
