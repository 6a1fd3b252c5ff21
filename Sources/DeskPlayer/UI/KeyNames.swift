// SPDX-License-Identifier: GPL-3.0-or-later
import CSDL2

/// Turns SDL key events into mpv's key names ("SPACE", "LEFT", "Ctrl+p"),
/// the names the binding table uses.
enum KeyNames {
    static func name(for key: SDL_Keysym, text: String? = nil) -> String? {
        let sym = Int(key.sym)
        let base: String
        switch sym {
        case Int(SDLK_SPACE.rawValue): base = "SPACE"
        case Int(SDLK_LEFT.rawValue): base = "LEFT"
        case Int(SDLK_RIGHT.rawValue): base = "RIGHT"
        case Int(SDLK_UP.rawValue): base = "UP"
        case Int(SDLK_DOWN.rawValue): base = "DOWN"
        case Int(SDLK_ESCAPE.rawValue): base = "ESC"
        case Int(SDLK_RETURN.rawValue), Int(SDLK_KP_ENTER.rawValue): base = "ENTER"
        case Int(SDLK_TAB.rawValue): base = "TAB"
        case Int(SDLK_BACKSPACE.rawValue): base = "BS"
        case Int(SDLK_PAGEUP.rawValue): base = "PGUP"
        case Int(SDLK_PAGEDOWN.rawValue): base = "PGDWN"
        case Int(SDLK_HOME.rawValue): base = "HOME"
        case Int(SDLK_END.rawValue): base = "END"
        case Int(SDLK_DELETE.rawValue): base = "DEL"
        case Int(SDLK_KP_MULTIPLY.rawValue): base = "*"
        case Int(SDLK_KP_DIVIDE.rawValue): base = "/"
        case Int(SDLK_F1.rawValue)...Int(SDLK_F12.rawValue): base = "F\(sym - Int(SDLK_F1.rawValue) + 1)"
        case 33...126:
            // Printable: apply shift the way the US layout does for letters and
            // the common symbols, so "Shift+8" reads as "*".
            let shift = key.mod & UInt16(KMOD_SHIFT.rawValue) != 0
            let c = Character(UnicodeScalar(UInt8(sym)))
            base = shift ? shifted(c) : String(c)
        default:
            return nil
        }
        // mpv names the '#' key SHARP: in input.conf '#' starts a comment.
        var name = base == "#" ? "SHARP" : base
        // Shift on a key that is not a character ("Shift+LEFT"); where such a
        // name has no binding the key's own is used (CommandController).
        if !(33...126).contains(sym), key.mod & UInt16(KMOD_SHIFT.rawValue) != 0 { name = "Shift+" + name }
        if key.mod & UInt16(KMOD_ALT.rawValue) != 0 { name = "Alt+" + name }
        if key.mod & UInt16(KMOD_CTRL.rawValue) != 0 { name = "Ctrl+" + name }
        return name
    }

    private static let shiftedSymbols: [Character: Character] = [
        "1": "!", "2": "@", "3": "#", "4": "$", "5": "%", "6": "^", "7": "&", "8": "*", "9": "(", "0": ")",
        "-": "_", "=": "+", "[": "{", "]": "}", ";": ":", "'": "\"", ",": "<", ".": ">", "/": "?", "`": "~",
        "\\": "|",
    ]

    private static func shifted(_ c: Character) -> String {
        if c.isLetter { return c.uppercased() }
        return String(shiftedSymbols[c] ?? c)
    }
}
