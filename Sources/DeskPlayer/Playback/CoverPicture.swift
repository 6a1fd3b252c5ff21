// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media
import Synchronization

/// An audio item's cover picture: decoded once when the item opens (on its
/// opening thread), then scaled to each size it is shown at on a thread of
/// its own, so the main thread only copies pixels. A tile and a Picture in
/// Picture window each ask for their own size; both are kept. Thread-safe (Mutex).
package final class CoverPicture: Sendable {
    /// Decoded covers are kept at most this long on a side (a 4K screen's
    /// tile); larger ones are scaled down once, when decoded.
    static let largestKept = 2048
    /// What see-through parts of a cover are laid on: the tile's own dark.
    package static let background: (UInt8, UInt8, UInt8) = (16, 16, 20)

    private struct Scaled {
        let width: Int, height: Int
        let picture: PictureBuffer?  // nil: that size could not be made
    }

    private struct State {
        /// The sizes made, the latest last (two kept: a tile and a mini window).
        var scaled: [Scaled] = []
        /// Sizes asked for and not made yet, oldest first.
        var wanted: [(Int, Int)] = []
        var scaling = false
    }

    /// The picture as decoded (its own size, or `largestKept` on its longer side).
    let decoded: PictureBuffer
    private let state = Mutex(State())

    /// Decodes `art`; throws what made it fail (a damaged or unknown picture).
    init(decoding art: CoverArt) throws(MediaError) {
        decoded = try StillImage.decode(art.bytes, format: art.format, maxSide: CoverPicture.largestKept,
                                        background: CoverPicture.background)
    }

    package var width: Int { decoded.width }
    package var height: Int { decoded.height }

    /// The cover at `width` x `height` once it has been scaled to that size.
    /// Until then, the one nearest in size there is, to be shown scaled
    /// meanwhile, and the size is made in the background.
    package func picture(width: Int, height: Int) -> PictureBuffer {
        guard width > 0, height > 0, width != decoded.width || height != decoded.height else { return decoded }
        let (nearest, start) = state.withLock { s -> (PictureBuffer?, Bool) in
            if let made = s.scaled.first(where: { $0.width == width && $0.height == height }) {
                return (made.picture ?? decoded, false)
            }
            if !s.wanted.contains(where: { $0 == (width, height) }) { s.wanted.append((width, height)) }
            let nearest = s.scaled.compactMap(\.picture).min { abs($0.width - width) < abs($1.width - width) }
            let start = !s.scaling
            s.scaling = true
            return (nearest, start)
        }
        if start {
            let thread = Thread { [self] in scaleWanted() }
            thread.name = "deskplayer.cover"
            thread.start()
        }
        return nearest ?? decoded
    }

    /// Makes every size asked for, then ends.
    private func scaleWanted() {
        let scaler = Scaler()
        while let (w, h) = state.withLock({ s -> (Int, Int)? in
            guard !s.wanted.isEmpty else {
                s.scaling = false
                return nil
            }
            return s.wanted.removeFirst()
        }) {
            let made = try? StillImage.scaled(decoded, width: w, height: h, with: scaler)
            state.withLock { s in
                s.scaled.removeAll { $0.width == w && $0.height == h }
                s.scaled.append(Scaled(width: w, height: h, picture: made))
                if s.scaled.count > 2 { s.scaled.removeFirst() }
            }
        }
    }
}
