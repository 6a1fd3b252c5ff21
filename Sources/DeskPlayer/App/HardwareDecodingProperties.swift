// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Playback

/// mpv's hardware decoding properties: `hwdec` (what is asked, settable
/// while playing: the video decoder changes from its next packet, without
/// a frame lost or shown twice; Ctrl+h toggles no and auto-safe),
/// `hwdec-current` (what decodes now: `no` for software, else the
/// method's copy-back name) and `hwdec-interop` (`no`: every method copies
/// the frames back, and no GPU interop is loaded).
enum HardwareDecodingProperties {
    static let all: [Property] = [
        Property("hwdec", .choice(HardwareDecoding.names), get: { t throws(CommandError) in
            .string(try t.player().hardwareDecoding?.name ?? HardwareDecoding.autoSafe.name)
        }, set: { t, v throws(CommandError) in
            let word: String
            switch v {
            case .bool(let on): word = on ? "auto" : "no"
            default: word = try PropertyValue.word(v)
            }
            guard let choice = HardwareDecoding(word) else { throw .invalidParameter }
            try t.player().hardwareDecoding = choice
        }, osd: { t in (try? t.player()).map { String(format: tr("Hardware decoding: %@"), $0.hardwareDecoding?.name ?? "auto-safe") } }),
        // Polled: a decoder falls back to software on its own thread.
        Property("hwdec-current", changes: .polled, get: { t throws(CommandError) in .string(try t.player().hardwareDecodingInUse) }),
        Property("hwdec-interop", get: { _ throws(CommandError) in .string("no") }),
    ]
}
