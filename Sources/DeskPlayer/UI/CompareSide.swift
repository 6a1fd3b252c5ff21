// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import Output
import Playback

/// What its label says of a compared side: the file, the time and number
/// of the frame shown, whether it opened.
package struct CompareLabelFacts {
    package var name: String
    /// Seconds in the file of the frame shown (nil before the first).
    package var shownTime: Double?
    package var frameRate: Double?
    package var duration: Double?
    package var status: PlayerItem.Status
    /// The frame shown as it was coded (its packet's size, I/P/B).
    package var coded: CodedFrame?
    /// Said after the time ("HDR tone mapped").
    package var notes: [String] = []

    package init(name: String, shownTime: Double?, frameRate: Double?, duration: Double?, status: PlayerItem.Status,
                 coded: CodedFrame? = nil, notes: [String] = []) {
        self.name = name
        self.shownTime = shownTime
        self.frameRate = frameRate
        self.duration = duration
        self.status = status
        self.coded = coded
        self.notes = notes
    }
}

/// One side of a comparison as `CompareView` composes it: the window's
/// views (`PlayerView`) and an export's sides (`CompareExportSide`) are
/// drawn by the same code, so an exported frame is what the window shows.
package protocol CompareSide: AnyObject {
    /// The video's description (display size), nil while it has none.
    var sideInfo: MediaInfo? { get }
    var contentMode: ContentMode { get }
    /// The BGRA picture shown, at the size shown (the difference reads it).
    var keptPicture: PictureBuffer? { get }
    /// A picture of the video is shown (not a placeholder).
    var showsPicture: Bool { get }
    /// Counts the pictures made (the difference is made again when it changes).
    var pictureCount: Int { get }
    /// Where its picture goes in `area`: in the picture's own coordinates and on screen.
    func pictureMapping(in area: Rect) -> (source: Rect, destination: Rect, pictureWidth: Int, pictureHeight: Int)?
    func draw(in area: Rect, renderer: OpaquePointer, text: TextRenderer, overBackground: Bool)
    /// What its label says; nil without an item.
    var labelFacts: CompareLabelFacts? { get }
}

extension PlayerView: CompareSide {
    package var sideInfo: MediaInfo? { player.currentItem?.info }
    package var labelFacts: CompareLabelFacts? {
        guard let item = player.currentItem else { return nil }
        return CompareLabelFacts(name: item.name, shownTime: player.shownItemTime?.seconds, frameRate: item.info?.frameRate,
                                 duration: item.duration?.seconds, status: item.status, coded: shownCoded,
                                 notes: item.info?.videoToneMapped == true ? ["HDR tone mapped"] : [])
    }
}
