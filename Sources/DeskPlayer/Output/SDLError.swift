// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2

/// A failure reported by SDL, with SDL's own message.
package struct SDLError: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }

    package init(_ context: String) {
        message = "\(context): \(String(cString: SDL_GetError()))"
    }
}
