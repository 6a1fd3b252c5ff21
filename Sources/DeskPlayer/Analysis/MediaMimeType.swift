// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// The MIME type of a media file as the desktop names it (shared-mime-info),
/// by its name's extension: what the thumbnail cache records in
/// `Thumb::Mimetype`. Only the types DeskPlayer makes thumbnails of (those
/// of its desktop entry and assets/deskplayer.thumbnailer); nil for others.
package enum MediaMimeType {
    static let byExtension: [String: String] = [
        "mp4": "video/mp4", "m4v": "video/mp4", "mkv": "video/x-matroska", "webm": "video/webm",
        "mov": "video/quicktime", "avi": "video/x-msvideo", "mpg": "video/mpeg", "mpeg": "video/mpeg",
        "ogv": "video/ogg", "flv": "video/x-flv", "3gp": "video/3gpp", "ts": "video/mp2t", "m2ts": "video/mp2t",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "flac": "audio/flac", "ogg": "audio/ogg",
        "oga": "audio/ogg", "opus": "audio/opus", "wav": "audio/x-wav", "mka": "audio/x-matroska",
    ]

    package static func of(path: String) -> String? {
        byExtension[(path as NSString).pathExtension.lowercased()]
    }
}
