// SPDX-License-Identifier: GPL-3.0-or-later
import CLibass

/// Owns an ASS_Library: the registry of fonts (system ones and those a file
/// carries as attachments) that its tracks and renderer share.
package final class ASSLibrary: @unchecked Sendable {  // used under its owner's lock only
    let pointer: OpaquePointer

    package init?(fonts: [(name: String, data: [UInt8])] = []) {
        guard let library = ass_library_init() else { return nil }
        pointer = library
        dp_ass_quiet(library)
        for font in fonts {
            font.data.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    ass_add_font(library, font.name, chars.baseAddress, Int32(chars.count))
                }
            }
        }
    }

    deinit { ass_library_done(pointer) }
}

/// Owns one ASS_Track: the styles and every event of one subtitle track.
package final class ASSTrack: @unchecked Sendable {  // used under its owner's lock only
    package let pointer: UnsafeMutablePointer<ASS_Track>
    /// Kept alive for as long as the track refers to it.
    private let library: ASSLibrary

    /// `header` is the ASS script header (FFmpeg's text decoders give one).
    package init?(library: ASSLibrary, header: String?) {
        guard let track = ass_new_track(library.pointer) else { return nil }
        pointer = track
        self.library = library
        let text = header ?? ASSTrack.defaultHeader
        var bytes = Array(text.utf8CString)
        ass_process_codec_private(track, &bytes, Int32(bytes.count - 1))
    }

    deinit { ass_free_track(pointer) }

    /// Adds one event ("ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text").
    package func addEvent(_ line: String, startMs: Int64, durationMs: Int64) {
        var bytes = Array(line.utf8CString)
        ass_process_chunk(pointer, &bytes, Int32(bytes.count - 1), startMs, durationMs)
    }

    /// What libass assumes for a track with no header: one plain style.
    static let defaultHeader = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 384
        PlayResY: 288
        ScaledBorderAndShadow: yes

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,DejaVu Sans,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text

        """
}

/// Owns an ASS_Renderer: lays out and rasterises a track's events at the
/// size a picture is shown, and blends them onto it.
package final class ASSRenderer: @unchecked Sendable {  // used under its owner's lock only
    let pointer: OpaquePointer
    private let library: ASSLibrary

    package init?(library: ASSLibrary) {
        guard let renderer = ass_renderer_init(library.pointer) else { return nil }
        pointer = renderer
        self.library = library
        // Fontconfig finds a font for every style; "sans-serif" when a style's font is missing.
        ass_set_fonts(renderer, nil, "sans-serif", Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
    }

    deinit { ass_renderer_done(pointer) }

    /// Draws what `track` shows at `ms` onto `picture`. `videoWidth` x
    /// `videoHeight` is the video's own size, so the script's aspect holds
    /// whatever size the picture is scaled to.
    package func draw(_ track: ASSTrack, atMs ms: Int64, on picture: PictureBuffer, videoWidth: Int, videoHeight: Int) {
        ass_set_frame_size(pointer, Int32(picture.width), Int32(picture.height))
        ass_set_storage_size(pointer, Int32(max(videoWidth, 1)), Int32(max(videoHeight, 1)))
        var node = ass_render_frame(pointer, track.pointer, ms, nil)
        while let image = node?.pointee {
            blend(image, onto: picture)
            node = image.next
        }
    }

    /// One glyph-run bitmap (an alpha mask in one colour) over the picture.
    private func blend(_ image: ASS_Image, onto picture: PictureBuffer) {
        guard let mask = image.bitmap, image.w > 0, image.h > 0 else { return }
        let color = image.color
        let r = Int(color >> 24), g = Int((color >> 16) & 0xff), b = Int((color >> 8) & 0xff)
        let opacity = 255 - Int(color & 0xff)
        let x0 = max(0, Int(image.dst_x)), y0 = max(0, Int(image.dst_y))
        let x1 = min(picture.width, Int(image.dst_x + image.w)), y1 = min(picture.height, Int(image.dst_y + image.h))
        guard x0 < x1, y0 < y1, opacity > 0 else { return }
        for y in y0..<y1 {
            let src = mask + (y - Int(image.dst_y)) * Int(image.stride) - Int(image.dst_x)
            let row = picture.pixels + y * picture.pitch
            for x in x0..<x1 {
                let a = (Int(src[x]) * opacity + 127) / 255
                if a == 0 { continue }
                blendPixel(row + x * 4, r: r, g: g, b: b, alpha: a)
            }
        }
    }
}

/// Puts colour (r, g, b) with opacity `alpha` (0...255) over one BGRA pixel.
@inline(__always)
private func blendPixel(_ p: UnsafeMutablePointer<UInt8>, r: Int, g: Int, b: Int, alpha a: Int) {
    p[0] = UInt8((Int(p[0]) * (255 - a) + b * a + 127) / 255)
    p[1] = UInt8((Int(p[1]) * (255 - a) + g * a + 127) / 255)
    p[2] = UInt8((Int(p[2]) * (255 - a) + r * a + 127) / 255)
}

extension SubtitleBitmap {
    /// Draws the bitmap onto `picture`, its `canvasWidth` x `canvasHeight`
    /// canvas scaled to the picture (nearest pixel: subtitles are flat colour).
    package func draw(on picture: PictureBuffer, canvasWidth: Int, canvasHeight: Int) {
        let sx = Double(picture.width) / Double(max(canvasWidth, 1))
        let sy = Double(picture.height) / Double(max(canvasHeight, 1))
        let x0 = max(0, Int(saturating: (Double(x) * sx).rounded())), y0 = max(0, Int(saturating: (Double(y) * sy).rounded()))
        let x1 = min(picture.width, Int(saturating: (Double(x + width) * sx).rounded()))
        let y1 = min(picture.height, Int(saturating: (Double(y + height) * sy).rounded()))
        guard x0 < x1, y0 < y1 else { return }
        for py in y0..<y1 {
            let srcY = min(height - 1, max(0, Int(saturating: (Double(py) + 0.5) / sy) - y))
            let row = picture.pixels + py * picture.pitch
            for px in x0..<x1 {
                let srcX = min(width - 1, max(0, Int(saturating: (Double(px) + 0.5) / sx) - x))
                let index = Int(indices[srcY * width + srcX])
                guard index < palette.count else { continue }
                let argb = palette[index]
                let a = Int(argb >> 24)
                if a == 0 { continue }
                blendPixel(row + px * 4, r: Int((argb >> 16) & 0xff), g: Int((argb >> 8) & 0xff), b: Int(argb & 0xff), alpha: a)
            }
        }
    }
}
