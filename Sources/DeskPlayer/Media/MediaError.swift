// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// A failure while opening, demuxing or decoding media, with a message a
/// person can read. FFmpeg's error codes keep FFmpeg's own text.
package struct MediaError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The FFmpeg error code, or 0 for failures DeskPlayer detects itself.
    package let code: Int32
    /// English, for stderr, logs and the socket.
    package let message: String
    /// The same in the user's language, for the window (the message where
    /// it has no translation).
    package let shown: String

    package var description: String { message }

    package init(_ message: String, shown: String? = nil, code: Int32 = 0) {
        self.code = code
        self.message = message
        self.shown = shown ?? message
    }

    /// `context` says what was being done, e.g. "cannot open decoder".
    init(code: Int32, context: String? = nil) {
        let text = MediaError.ffmpegText(code)
        self.code = code
        if let context { self.message = "\(context): \(text)" } else { self.message = text }
        self.shown = message
    }

    static func ffmpegText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        dp_error_string(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Throws for a negative FFmpeg return value, passes others through.
    @discardableResult
    package static func check(_ ret: Int32, _ context: String? = nil) throws(MediaError) -> Int32 {
        if ret < 0 { throw MediaError(code: ret, context: context) }
        return ret
    }
}
