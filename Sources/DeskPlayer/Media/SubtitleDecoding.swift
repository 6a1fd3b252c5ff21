// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// A subtitle as its decoder gave it, placed on the item's media time.
package struct DecodedSubtitle: Sendable {
    package enum Content: Sendable {
        /// ASS event lines ("ReadOrder,Layer,Style,…,Text"): FFmpeg turns
        /// SRT, WebVTT and mov_text into these as well.
        case text([String])
        /// Pictures; none clears what a previous one showed (PGS).
        case bitmaps([SubtitleBitmap])
    }

    package var start: MediaTime
    /// Nil when the subtitle stays until the next one replaces it.
    package var end: MediaTime?
    package var content: Content
}

/// One picture of a bitmap subtitle, on the subtitle's canvas.
package struct SubtitleBitmap: Sendable {
    var x: Int, y: Int, width: Int, height: Int
    /// A palette index per pixel, row by row.
    package var indices: [UInt8]
    /// ARGB, alpha in the top byte (FFmpeg's AV_PIX_FMT_RGB32).
    package var palette: [UInt32]
}

extension Decoder {
    /// The ASS header (script info and styles) of a text subtitle decoder.
    package var subtitleHeader: String? {
        guard let header = context.pointee.subtitle_header, context.pointee.subtitle_header_size > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: header, count: Int(context.pointee.subtitle_header_size)),
                      as: UTF8.self)
    }

    /// The size bitmap subtitles are placed on (0 when the stream does not say).
    package var subtitleCanvas: (width: Int, height: Int) {
        (Int(context.pointee.width), Int(context.pointee.height))
    }

    /// Decodes one subtitle packet; nil for a packet that gives nothing or is
    /// damaged (the next one is tried: one bad packet loses one subtitle).
    /// `origin` is subtracted from the stream's times (the item's start).
    package func decodeSubtitle(_ packet: Packet, origin: MediaTime) -> DecodedSubtitle? {
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        guard avcodec_decode_subtitle2(context, &subtitle, &got, packet.pointer) >= 0, got != 0 else { return nil }
        defer { avsubtitle_free(&subtitle) }
        let ts = packet.pts != DP_AV_NOPTS_VALUE ? packet.pts : packet.dts
        let base: MediaTime
        if ts != DP_AV_NOPTS_VALUE {
            base = MediaTime(ts, timeBase) - origin
        } else if subtitle.pts != DP_AV_NOPTS_VALUE {
            base = MediaTime(microseconds: subtitle.pts) - origin
        } else {
            return nil
        }
        let startMs = subtitle.start_display_time, endMs = subtitle.end_display_time
        let start = base + MediaTime(value: Int64(startMs), timescale: 1000)
        var end: MediaTime?
        if endMs > startMs && endMs != UInt32.max {
            end = base + MediaTime(value: Int64(endMs), timescale: 1000)
        } else if packet.duration > 0 {
            end = base + MediaTime(packet.duration, timeBase)
        }
        var lines: [String] = []
        var bitmaps: [SubtitleBitmap] = []
        for i in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[i]?.pointee else { continue }
            switch rect.type {
            case SUBTITLE_ASS:
                if let ass = rect.ass { lines.append(String(cString: ass)) }
            case SUBTITLE_BITMAP:
                if let bitmap = SubtitleBitmap(rect) { bitmaps.append(bitmap) }
            default:
                continue
            }
        }
        if !lines.isEmpty { return DecodedSubtitle(start: start, end: end, content: .text(lines)) }
        if bitmaps.isEmpty && context.pointee.codec_descriptor.map({ $0.pointee.props & AV_CODEC_PROP_BITMAP_SUB == 0 }) ?? true {
            return nil
        }
        return DecodedSubtitle(start: start, end: end, content: .bitmaps(bitmaps))
    }
}

extension SubtitleBitmap {
    /// Copies a decoded bitmap rectangle; nil when it is empty or malformed.
    init?(_ rect: AVSubtitleRect) {
        let w = Int(rect.w), h = Int(rect.h), colors = Int(rect.nb_colors)
        guard w > 0, h > 0, w <= 16384, h <= 16384, colors > 0, colors <= 256,
              let pixels = rect.data.0, let palette = rect.data.1, rect.linesize.0 >= rect.w else { return nil }
        let stride = Int(rect.linesize.0)
        var indices = [UInt8](repeating: 0, count: w * h)
        indices.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            for row in 0..<h { (base + row * w).update(from: pixels + row * stride, count: w) }
        }
        let colorsPointer = UnsafeRawPointer(palette).assumingMemoryBound(to: UInt32.self)
        self.init(x: Int(rect.x), y: Int(rect.y), width: w, height: h, indices: indices,
                  palette: Array(UnsafeBufferPointer(start: colorsPointer, count: colors)))
    }
}
