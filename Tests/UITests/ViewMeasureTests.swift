// SPDX-License-Identifier: GPL-3.0-or-later
import Testing
@testable import Playback
@testable import UI

/// The views say what they measured and set nothing themselves: a player
/// view's needs (the App gives them to the player), a comparison's
/// drawing (the App records it in the state).
@Suite struct ViewMeasureTests {
    @Test func aViewAsksForAnOutputSizeOnlyWhenItsLayoutChanges() throws {
        let view = PlayerView(player: Player(), contentMode: .fit)
        let area = Rect(x: 0, y: 0, width: 640, height: 360)
        let first = try #require(view.measure(in: area, seen: true))
        #expect(first.outputSizing != nil && first.picturesSeen && !first.redisplaysFrame)
        let same = try #require(view.measure(in: area, seen: false))
        #expect(same.outputSizing == nil && !same.picturesSeen, "an unchanged layout asks for nothing new")
        let larger = try #require(view.measure(in: Rect(x: 0, y: 0, width: 1280, height: 720), seen: true))
        #expect(larger.outputSizing != nil)
        view.zoom = VideoZoom(log2: 1)
        #expect(view.measure(in: Rect(x: 0, y: 0, width: 1280, height: 720), seen: true)?.outputSizing != nil,
                "a zoom is a new layout")
    }

    @Test func aViewInPictureInPictureLeavesItsPlayerToTheMiniWindow() throws {
        let view = PlayerView(player: Player(), contentMode: .fit)
        let area = Rect(x: 0, y: 0, width: 640, height: 360)
        _ = view.measure(in: area, seen: true)
        view.isDetached = true
        #expect(view.measure(in: area, seen: true) == nil)
        view.isDetached = false
        // The mini window set the player's output size: the main window's view sets it again.
        #expect(try #require(view.measure(in: area, seen: true)).outputSizing != nil)
    }

    @Test func theStateKeepsTheLastDrawingAndItsFitScaleUntilAVideoIsFitted() {
        let state = CompareState(mode: .wipe, count: 2)
        state.showsLoupe = true
        let reading = CompareState.LoupeReading(side: 0, x: 1, y: 2, rgb: [3, 4, 5], code: nil)
        state.record(CompareView.Drawing(fitScale: 2, loupeReadings: [reading], labelTexts: ["A  ref.mp4"]))
        #expect(state.fitScale == 2 && state.loupeReadings == [reading] && state.labelTexts == ["A  ref.mp4"])
        // No video fitted (the reference still opening): the last scale stays.
        state.record(CompareView.Drawing(fitScale: nil))
        #expect(state.fitScale == 2 && state.loupeReadings.isEmpty && state.labelTexts.isEmpty)
        state.record(CompareView.Drawing(fitScale: 1, loupeReadings: [reading]))
        state.showsLoupe = false
        #expect(state.loupeReadings.isEmpty, "the loupe off, its values go at once")
    }
}
