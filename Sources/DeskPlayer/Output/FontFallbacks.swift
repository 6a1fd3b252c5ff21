// SPDX-License-Identifier: GPL-3.0-or-later
import CFontconfig

/// The installed fonts in fontconfig's order for "sans-serif" (what
/// `fc-match -s sans-serif` lists: the desktop's choice first, each later
/// one adding characters), with the characters each covers: where text
/// looks for a character its main font lacks. Owns fontconfig's font set.
final class FontFallbacks {
    /// A face inside a font file.
    struct Face: Hashable {
        let path: String
        let index: Int
    }

    private let fonts: UnsafeMutablePointer<FcFontSet>

    /// Nil where fontconfig finds no configuration or no font.
    init?() {
        guard FcInit() != 0 else { return nil }
        let pattern = "sans-serif".withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: 11) { FcNameParse($0) }
        }
        guard let pattern else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let fonts = FcFontSort(nil, pattern, FcBool(FcTrue), nil, &result) else { return nil }
        self.fonts = fonts
    }

    deinit { FcFontSetDestroy(fonts) }

    /// The scalable faces that have every one of `scalars`, in fontconfig's
    /// order. (Bitmap faces are left out: SDL_ttf would draw them at their
    /// one size, not the text's.)
    func faces(covering scalars: [UInt32]) -> [Face] {
        var found: [Face] = []
        for i in 0..<Int(fonts.pointee.nfont) {
            guard let font = fonts.pointee.fonts[i] else { continue }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(font, "charset", 0, &charset) == FcResultMatch, let charset,
                  scalars.allSatisfy({ FcCharSetHasChar(charset, $0) != 0 }) else { continue }
            var scalable: FcBool = 0
            guard FcPatternGetBool(font, "scalable", 0, &scalable) == FcResultMatch, scalable != 0 else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(font, "file", 0, &file) == FcResultMatch, let file else { continue }
            var index: Int32 = 0
            if FcPatternGetInteger(font, "index", 0, &index) != FcResultMatch { index = 0 }
            found.append(Face(path: String(cString: file), index: Int(index)))
        }
        return found
    }
}
