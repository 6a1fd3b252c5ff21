import CSDL2

/// A failure reported by SDL, with SDL's own message.
struct SDLError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }

    init(_ context: String) {
        message = "\(context): \(String(cString: SDL_GetError()))"
    }
}
