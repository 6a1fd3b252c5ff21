// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation
import Media
import Playback

/// The picture the desktop shows for a media file (the freedesktop
/// thumbnail cache's, and `deskplayer-thumbnailer`'s): for a video, its
/// frame a tenth of the way in (at most 30 s, as the playlist panel takes
/// it) through the filters playing uses, so it is upright for a phone's
/// rotated clip and tone mapped for HDR; for audio, its cover picture (the
/// one it carries, else one beside it). Scaled to fit a square, never up.
package struct FileThumbnail {
    package let picture: PictureBuffer
    /// The file's duration in seconds, when it has one.
    package let duration: Double?

    /// Made from the local file at `path`, to fit `maxSide` x `maxSide`;
    /// throws when the file cannot be opened or has nothing to show.
    package static func make(of path: String, maxSide: Int) throws(MediaError) -> FileThumbnail {
        guard maxSide > 0 else { throw MediaError("thumbnail size \(maxSide) is not a size") }
        let asset = try MediaAsset(opening: MediaLocation(path))
        let input = asset.input
        let duration = input.durationMicroseconds.map { Double($0) / 1e6 }.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let full: PictureBuffer
        if let index = input.bestStream(AVMEDIA_TYPE_VIDEO), let stream = input.stream(index),
           stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 {
            full = try FrameGrabber.picture(of: path, at: pictureTime(duration: duration))
        } else if let cover = input.coverArt ?? CoverArt.beside(path) {
            full = try StillImage.decode(cover.bytes, format: cover.format, maxSide: maxSide)
        } else {
            throw MediaError("no video and no cover picture to make a thumbnail of")
        }
        return FileThumbnail(picture: try fitted(full, maxSide: maxSide), duration: duration)
    }

    /// Where a file's picture is taken: a tenth of the way in, past any
    /// title card or fade from black, but at most 30 s in, so a long film
    /// is not sought far (its start without a known duration). The playlist
    /// panel's rows take theirs here too.
    package static func pictureTime(duration: Double?) -> MediaTime {
        MediaTime(seconds: min((duration ?? 0) / 10, 30))
    }

    /// `picture` scaled down to fit `maxSide` on its longer side (aspect kept); as it is when it fits.
    static func fitted(_ picture: PictureBuffer, maxSide: Int) throws(MediaError) -> PictureBuffer {
        let longest = max(picture.width, picture.height)
        guard longest > maxSide else { return picture }
        let scale = Double(maxSide) / Double(longest)
        let w = max(1, Int(saturating: (Double(picture.width) * scale).rounded()))
        let h = max(1, Int(saturating: (Double(picture.height) * scale).rounded()))
        return try StillImage.scaled(picture, width: w, height: h, with: Scaler())
    }
}
