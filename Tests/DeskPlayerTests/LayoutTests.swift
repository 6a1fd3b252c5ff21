import Testing
@testable import DeskPlayer

@Suite struct LayoutTests {
    let wide = Rect(x: 0, y: 0, width: 960, height: 720)

    @Test func fitKeepsAspectWithBars() {
        let p = VideoPlacement(mode: .fit, videoWidth: 1280, videoHeight: 720, area: wide)
        #expect(p.pictureWidth == 960 && p.pictureHeight == 540)
        #expect(p.destination == Rect(x: 0, y: 90, width: 960, height: 540))
        #expect(p.source == Rect(x: 0, y: 0, width: 960, height: 540))
    }

    @Test func fillCoversAndCropsTheMiddle() {
        let p = VideoPlacement(mode: .fill, videoWidth: 1280, videoHeight: 720, area: wide)
        #expect(p.pictureWidth == 1280 && p.pictureHeight == 720)
        #expect(p.source == Rect(x: 160, y: 0, width: 960, height: 720))
        #expect(p.destination == wide)
    }

    @Test func stretchUsesTheWholeArea() {
        let p = VideoPlacement(mode: .stretch, videoWidth: 1280, videoHeight: 720, area: wide)
        #expect(p.pictureWidth == 960 && p.pictureHeight == 720)
        #expect(p.destination == wide)
    }

    @Test func areaOffsetAndTallVideo() {
        let area = Rect(x: 100, y: 50, width: 400, height: 400)
        let p = VideoPlacement(mode: .fit, videoWidth: 720, videoHeight: 1280, area: area)
        #expect(p.pictureHeight == 400 && p.pictureWidth == 225)
        #expect(p.destination == Rect(x: 100 + 87, y: 50, width: 225, height: 400))
    }

    @Test func keyNamesMapToBindings() {
        #expect(KeyBindings.command(forKey: "SPACE") == .togglePause)
        #expect(KeyBindings.command(forKey: "RIGHT") == .seek(5))
        #expect(KeyBindings.command(forKey: "UP") == .seek(60))
        #expect(KeyBindings.command(forKey: "0") == .adjustVolume(2))
        #expect(KeyBindings.command(forKey: "x") == nil)
        // Every binding's key is unique, so the table is unambiguous.
        #expect(Set(KeyBindings.defaults.map(\.key)).count == KeyBindings.defaults.count)
    }
}
