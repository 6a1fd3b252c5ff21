// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import UI

/// The bars a tile clears around an opaque picture: exactly what the
/// picture leaves uncovered, no pixel twice, none missed.
@Suite struct PictureBarsTests {
    /// Every pixel of `area` is in the picture or in exactly one bar.
    func covers(_ area: Rect, _ picture: Rect) -> Bool {
        let bars = PlayerView.bars(around: picture, in: area)
        for y in area.y..<(area.y + area.height) {
            for x in area.x..<(area.x + area.width) {
                let inPicture = x >= picture.x && x < picture.x + picture.width && y >= picture.y && y < picture.y + picture.height
                let inBars = bars.filter { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }.count
                if inBars != (inPicture ? 0 : 1) { return false }
            }
        }
        return true
    }

    @Test(arguments: [
        (Rect(x: 0, y: 0, width: 64, height: 48), Rect(x: 0, y: 6, width: 64, height: 36)),     // letterbox
        (Rect(x: 10, y: 5, width: 64, height: 48), Rect(x: 18, y: 5, width: 48, height: 48)),   // pillarbox, offset tile
        (Rect(x: 0, y: 0, width: 64, height: 48), Rect(x: 0, y: 0, width: 64, height: 48)),     // fills it
        (Rect(x: 0, y: 0, width: 64, height: 48), Rect(x: -20, y: -10, width: 120, height: 90)), // zoomed past it
        (Rect(x: 0, y: 0, width: 64, height: 48), Rect(x: 50, y: 40, width: 40, height: 30)),   // panned to a corner
        (Rect(x: 0, y: 0, width: 64, height: 48), Rect(x: 70, y: 0, width: 10, height: 10)),    // outside it
    ])
    func barsAreWhatThePictureLeavesUncovered(_ area: Rect, _ picture: Rect) {
        #expect(covers(area, picture), "\(PlayerView.bars(around: picture, in: area))")
    }

    @Test func aPictureThatFillsTheTileNeedsNoBars() {
        let area = Rect(x: 0, y: 0, width: 1280, height: 720)
        #expect(PlayerView.bars(around: area, in: area).isEmpty)
    }
}
