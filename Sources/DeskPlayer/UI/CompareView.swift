// SPDX-License-Identifier: GPL-3.0-or-later
import Output
import Playback
import Media
import CSDL2
import Foundation

/// Draws a comparison (`--compare`) of the main window's views: the first
/// is the reference, `state.other` the rendition on the other side, the
/// rest keep playing unseen so switching to them (Tab) is instant. Every
/// side plays in the reference's display geometry. Owns the difference
/// view's texture; follows the wipe divider's drags.
package final class CompareView {
    package let state: CompareState
    private var diffTexture: VideoTexture?
    private let diffPicture = PictureBuffer(width: 1, height: 1)
    /// What the difference on the texture was made from (redone only when it changes).
    private var diffSource: (a: Int, b: Int, other: Int, variant: CompareState.DiffVariant, gain: Double)?
    private(set) var draggingDivider = false
    package static let handleLength = 44, handleThickness = 14

    package init(state: CompareState) { self.state = state }

    /// What a drawing of the comparison measured, returned to the App to
    /// keep in its state (`CompareState.record`), where properties read
    /// it: the view writes nothing there.
    package struct Drawing: Equatable {
        /// Video pixels per screen pixel of the reference fitted in its
        /// area (nil: the reference had no video to fit).
        package var fitScale: Double?
        /// The loupe's values, A's then B's (empty while it is off or the pointer is away).
        package var loupeReadings: [CompareState.LoupeReading] = []
        /// The labels drawn, A's first (empty while hidden).
        package var labelTexts: [String] = []
    }

    /// The reference's display size: every other side is shown in it.
    package func prepare(_ views: [PlayerView]) {
        guard let reference = views.first else { return }
        let info = reference.player.currentItem?.info
        let geometry = info.flatMap { $0.hasVideo ? ($0.displayWidth, $0.displayHeight) : nil }
        for (index, view) in views.enumerated() {
            if index > 0, let geometry { view.displayGeometry = geometry }
            // Every side keeps its picture (made in the view's own buffer, not
            // straight in the texture): the difference, and a switch to it
            // while paused or to another rendition, read it at once.
            view.keepsPicture = true
            view.zoom = state.zoom
        }
    }

    /// The area each view decodes and draws at: the whole window for the
    /// wipe, the difference and flip; halves for the stacks (every
    /// rendition the other half).
    package func areas(count: Int, in bounds: Rect) -> [Rect] {
        let (first, second) = halves(of: bounds)
        switch state.mode {
        case .wipe, .diff, .flip: return Array(repeating: bounds, count: count)
        case .hstack, .vstack: return (0..<count).map { $0 == 0 ? first : second }
        }
    }

    private func halves(of b: Rect) -> (Rect, Rect) {
        if state.mode == .vstack {
            let h = b.height / 2
            return (Rect(x: b.x, y: b.y, width: b.width, height: h), Rect(x: b.x, y: b.y + h, width: b.width, height: b.height - h))
        }
        let w = b.width / 2
        return (Rect(x: b.x, y: b.y, width: w, height: b.height), Rect(x: b.x + w, y: b.y, width: b.width - w, height: b.height))
    }

    /// The divider's place in pixels along the window's width (vertical) or height.
    package func dividerOffset(in bounds: Rect) -> Int {
        let length = state.wipeOrientation == .vertical ? bounds.width : bounds.height
        return Int(saturating: (Double(length) * state.wipePosition).rounded())
    }

    // MARK: Mouse

    /// Where a drag started that pans (nil: none), and the pan then.
    private var panning: (x: Int, y: Int, panX: Double, panY: Double)?
    package var isDragging: Bool { draggingDivider || panning != nil }

    /// What a gesture asks for; the App applies it through the properties
    /// (`compare-wipe`, `video-zoom`, `video-pan-x`/`-y`), as a key or the
    /// socket would, so observers and the OSD see it. The view changes no state.
    package enum Gesture: Equatable {
        case wipe(Double)
        case zoom(VideoZoom)
    }

    /// A press in the window: in the wipe, on or near the divider (or
    /// anywhere while not zoomed in), it takes the divider there; elsewhere
    /// a drag pans the zoomed pictures.
    package func press(x: Int, y: Int, in bounds: Rect) -> Gesture? {
        let nearDivider = abs((state.wipeOrientation == .vertical ? x - bounds.x : y - bounds.y) - dividerOffset(in: bounds)) <= 24
        if state.mode == .wipe && (nearDivider || state.zoom.log2 <= 0) {
            draggingDivider = true
            return drag(x: x, y: y, in: bounds)
        }
        panning = (x, y, state.zoom.panX, state.zoom.panY)
        return nil
    }

    package func drag(x: Int, y: Int, in bounds: Rect) -> Gesture? {
        if let start = panning {
            return .zoom(state.zoom.panned(from: (start.panX, start.panY), dx: x - start.x, dy: y - start.y,
                                           fitted: fittedSize(in: bounds)))
        }
        guard draggingDivider else { return nil }
        let (along, length) = state.wipeOrientation == .vertical ? (x - bounds.x, bounds.width) : (y - bounds.y, bounds.height)
        return .wipe(min(max(Double(along) / Double(max(length, 1)), 0), 1))
    }

    package func release() {
        draggingDivider = false
        panning = nil
    }

    /// The wheel zooms by a quarter of a doubling a notch, around the pointer:
    /// the video point under it stays under it.
    package func wheel(steps: Double, x: Int, y: Int, in bounds: Rect) -> Gesture {
        let area = areas(count: 2, in: bounds).first { $0.contains(x: x, y: y) } ?? bounds
        return .zoom(state.zoom.zoomed(by: steps, around: x, y, area: area, fitted: fittedSize(in: bounds)))
    }

    /// The reference's fitted picture size in its area (screen pixels), as
    /// last drawn (the area's before the first draw).
    private func fittedSize(in bounds: Rect) -> (width: Double, height: Double) {
        guard let size = drawnFittedSize else {
            let area = areas(count: 2, in: bounds)[0]
            return (Double(area.width), Double(area.height))
        }
        return (Double(size.0), Double(size.1))
    }

    /// The reference's fitted picture size, as last drawn.
    private var drawnFittedSize: (Int, Int)?

    // MARK: Drawing

    /// The reference's position (the shared clock, in its item) while drawing.
    private var referenceTime: Double?
    /// The labels drawn so far in this drawing, A's first.
    private var drawnLabels: [String] = []

    /// Draws the window's comparison, the loupe over it; returns what it measured.
    package func draw(_ views: [PlayerView], in bounds: Rect, renderer r: OpaquePointer, text: TextRenderer,
                      pointer: (x: Int, y: Int)? = nil) -> Drawing {
        var drawing = compose(views, at: views.first.map { $0.player.currentTime.seconds }, in: bounds, renderer: r, text: text)
        if state.showsLoupe, let pointer, views.count >= 2, views.indices.contains(state.other) {
            drawing.loupeReadings = CompareLoupe.draw(views[0], views[state.other], other: state.other, at: pointer,
                                                      areas: areas(count: views.count, in: bounds), bounds: bounds,
                                                      renderer: r, text: text)
        }
        return drawing
    }

    /// Draws the comparison of `views` (the reference first) in `bounds`:
    /// the window's and an export's frames (`CompareExportRenderer`) are
    /// both drawn by this.
    /// `time`: the reference's position (the shared clock, in its item).
    /// Returns what it measured: the fit scale and the labels drawn.
    @discardableResult
    package func compose(_ views: [any CompareSide], at time: Double?, in bounds: Rect, renderer r: OpaquePointer,
                         text: TextRenderer) -> Drawing {
        referenceTime = time
        drawnLabels = []
        var drawing = Drawing()
        guard views.count >= 2, views.indices.contains(state.other) else {
            views.first?.draw(in: bounds, renderer: r, text: text, overBackground: false)
            return drawing
        }
        let reference = views[0], other = views[state.other]
        let areas = areas(count: views.count, in: bounds)
        if let info = reference.sideInfo, info.hasVideo {
            let fitted = VideoPlacement(mode: reference.contentMode, videoWidth: info.displayWidth, videoHeight: info.displayHeight,
                                        area: areas[0])
            drawing.fitScale = Double(info.displayWidth) / Double(max(fitted.pictureWidth, 1))
            drawnFittedSize = (fitted.pictureWidth, fitted.pictureHeight)
        }
        switch state.mode {
        case .wipe:
            drawWipe(reference, other, in: bounds, renderer: r, text: text)
        case .diff:
            drawDiff(reference, other, in: bounds, renderer: r, text: text)
        case .flip:
            let shown = state.flipShown
            views[shown].draw(in: bounds, renderer: r, text: text, overBackground: false)
            if state.showsLabels { drawLabel(views[shown], index: shown, at: labelCorner(bounds, right: false), text: text, renderer: r) }
        case .hstack, .vstack:
            reference.draw(in: areas[0], renderer: r, text: text, overBackground: false)
            other.draw(in: areas[state.other], renderer: r, text: text, overBackground: false)
            if state.showsLabels {
                // Each label within its side's half: a long one is cut there, not drawn over the other's.
                for (view, index) in [(reference, 0), (other, state.other)] {
                    var clip = areas[index].sdl
                    SDL_RenderSetClipRect(r, &clip)
                    drawLabel(view, index: index, at: labelCorner(areas[index], right: false), text: text, renderer: r)
                }
                SDL_RenderSetClipRect(r, nil)
            }
        }
        drawing.labelTexts = drawnLabels
        return drawing
    }

    private func drawWipe(_ reference: any CompareSide, _ other: any CompareSide, in b: Rect, renderer r: OpaquePointer, text: TextRenderer) {
        let split = dividerOffset(in: b)
        let vertical = state.wipeOrientation == .vertical
        let clips = vertical
            ? [Rect(x: b.x, y: b.y, width: split, height: b.height), Rect(x: b.x + split, y: b.y, width: b.width - split, height: b.height)]
            : [Rect(x: b.x, y: b.y, width: b.width, height: split), Rect(x: b.x, y: b.y + split, width: b.width, height: b.height - split)]
        for (view, clip) in zip([reference, other], clips) where clip.width > 0 && clip.height > 0 {
            var c = clip.sdl
            SDL_RenderSetClipRect(r, &c)
            view.draw(in: b, renderer: r, text: text, overBackground: false)
        }
        SDL_RenderSetClipRect(r, nil)
        drawDivider(at: split, vertical: vertical, in: b, renderer: r)
        guard state.showsLabels else { return }
        drawLabel(reference, index: 0, at: labelCorner(b, right: false), text: text, renderer: r)
        let corner = vertical ? labelCorner(b, right: true) : (x: b.x + 10, y: b.y + b.height - 10 - text.lineHeight - 8)
        drawLabel(other, index: state.other, at: corner, text: text, renderer: r, alignRight: vertical)
    }

    /// A 2-pixel line with a grip in its middle: white, edged in black so
    /// it shows on any picture.
    private func drawDivider(at split: Int, vertical: Bool, in b: Rect, renderer r: OpaquePointer) {
        let (long, short) = (CompareView.handleLength, CompareView.handleThickness)
        let line = vertical ? Rect(x: b.x + split - 1, y: b.y, width: 2, height: b.height)
            : Rect(x: b.x, y: b.y + split - 1, width: b.width, height: 2)
        let grip = vertical ? Rect(x: b.x + split - short / 2, y: b.y + b.height / 2 - long / 2, width: short, height: long)
            : Rect(x: b.x + b.width / 2 - long / 2, y: b.y + split - short / 2, width: long, height: short)
        fill(line, (255, 255, 255, 255), renderer: r)
        fill(Rect(x: grip.x - 1, y: grip.y - 1, width: grip.width + 2, height: grip.height + 2), (0, 0, 0, 255), renderer: r)
        fill(grip, (255, 255, 255, 255), renderer: r)
        // Two grooves across the grip, as a slider's thumb has.
        for k in [-3, 2] {
            let groove = vertical ? Rect(x: grip.x + 3, y: grip.y + long / 2 + k, width: short - 6, height: 1)
                : Rect(x: grip.x + long / 2 + k, y: grip.y + 3, width: 1, height: short - 6)
            fill(groove, (90, 90, 90, 255), renderer: r)
        }
    }

    private func drawDiff(_ reference: any CompareSide, _ other: any CompareSide, in b: Rect, renderer r: OpaquePointer, text: TextRenderer) {
        guard let a = reference.keptPicture, let c = other.keptPicture, reference.showsPicture, other.showsPicture,
              let mapping = reference.pictureMapping(in: b) else {
            // One side has no picture (opening, failed): the other plays on, with a line saying why.
            let (shown, missing, index) = reference.showsPicture ? (reference, other, state.other) : (other, reference, 0)
            shown.draw(in: b, renderer: r, text: text, overBackground: false)
            if let line = CompareView.problem(missing, index: index) {
                drawPanel(line, x: b.x + 10, y: b.y + b.height - text.lineHeight - 18, text: text, renderer: r,
                          color: SDL_Color(r: 255, g: 120, b: 110, a: 255))
            }
            return
        }
        let source = (reference.pictureCount, other.pictureCount, state.other, state.diffVariant, state.diffGain)
        if diffSource.map({ $0 != source }) ?? true || diffTexture == nil {
            CompareDiff.compute(a, c, variant: state.diffVariant, gain: state.diffGain, into: diffPicture)
            if diffTexture.map({ !$0.fits(diffPicture) }) ?? true {
                diffTexture = try? VideoTexture(renderer: r, width: diffPicture.width, height: diffPicture.height, opaque: true)
            }
            diffTexture?.upload(diffPicture)
            diffSource = source
        }
        fill(b, (0, 0, 0, 255), renderer: r)
        if let texture = diffTexture {
            // Drawn as the reference's picture is (its size, zoom and pan).
            let sx = Double(texture.width) / Double(max(mapping.pictureWidth, 1))
            let sy = Double(texture.height) / Double(max(mapping.pictureHeight, 1))
            let s = mapping.source
            var src = SDL_Rect(x: Int32(saturating: Double(s.x) * sx), y: Int32(saturating: Double(s.y) * sy), w: Int32(saturating: Double(s.width) * sx),
                               h: Int32(saturating: Double(s.height) * sy))
            var dst = mapping.destination.sdl
            SDL_SetTextureScaleMode(texture.texture, state.zoom.smooth ? SDL_ScaleModeLinear : SDL_ScaleModeNearest)
            SDL_RenderCopy(r, texture.texture, &src, &dst)
        }
        guard state.showsLabels else { return }
        drawLabel(reference, index: 0, at: labelCorner(b, right: false), text: text, renderer: r)
        drawLabel(other, index: state.other, at: labelCorner(b, right: true), text: text, renderer: r, alignRight: true)
        let gain = state.diffGain == state.diffGain.rounded() ? String(Int(saturating: state.diffGain)) : String(format: "%.2f", state.diffGain)
        let line = "difference (\(state.diffVariant.rawValue), gain \(gain))"
        drawPanel(line, x: b.x + (b.width - text.width(of: line)) / 2 - 6, y: b.y + b.height - text.lineHeight - 18, text: text, renderer: r)
    }

    // MARK: Labels

    /// A for the reference, B for the other side (B2, B3… for later renditions).
    package static func letter(_ index: Int) -> String { index == 0 ? "A" : (index == 1 ? "B" : "B\(index)") }

    private func labelCorner(_ area: Rect, right: Bool) -> (x: Int, y: Int) {
        (right ? area.x + area.width - 10 : area.x + 10, area.y + 10)
    }

    /// "A  name  12.345 s  #370": the side's letter, its file, the time and
    /// frame number of its own picture on screen.
    /// `groupTime`: where this side is due on the shared clock (the
    /// reference's time, plus the shift for the others): past its end it
    /// holds its last frame, before its start its first, and says so.
    package static func label(_ view: any CompareSide, index: Int, groupTime: Double? = nil) -> String {
        let letter = letter(index)
        guard let item = view.labelFacts else { return letter }
        // Notes ("HDR tone mapped") next to the name, where a label cut short still shows them.
        var parts = [letter, DisplayText.shortName(item.name)] + item.notes
        if let t = item.shownTime {
            parts.append(String(format: "%.3f s", t))
            if let fps = item.frameRate, fps > 0 { parts.append("#\(Int(saturating: (t * fps).rounded()))") }
            if let coded = item.coded, coded.size > 0 { parts.append(coded.text) }
        }
        if let g = groupTime, let d = item.duration, g > d + 0.001 {
            parts.append("· ended at \(String(format: "%.3f", d)) s: holding its last frame")
        } else if let g = groupTime, g < -0.001 {
            parts.append("· starts in \(String(format: "%.3f", -g)) s: holding its first frame")
        }
        return parts.joined(separator: "  ")
    }

    private func drawLabel(_ view: any CompareSide, index: Int, at corner: (x: Int, y: Int), text: TextRenderer,
                           renderer r: OpaquePointer, alignRight: Bool = false) {
        let line = CompareView.label(view, index: index, groupTime: referenceTime.map { $0 + state.shift(of: index) })
        drawnLabels.append(line)
        let width = text.width(of: line) + 12
        drawPanel(line, x: alignRight ? corner.x - width : corner.x, y: corner.y, text: text, renderer: r)
    }

    private func drawPanel(_ line: String, x: Int, y: Int, text: TextRenderer, renderer r: OpaquePointer,
                           color: SDL_Color = SDL_Color(r: 230, g: 230, b: 230, a: 255)) {
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        fill(Rect(x: x, y: y, width: text.width(of: line) + 12, height: text.lineHeight + 8), (0, 0, 0, 170), renderer: r)
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
        text.drawLine(line, renderer: r, x: x + 6, y: y + 4, color: color)
    }

    /// Why a side shows no picture ("B  bad.mp4: …"), or that it is still opening.
    package static func problem(_ view: any CompareSide, index: Int) -> String? {
        guard let item = view.labelFacts else { return nil }
        let letter = letter(index)
        switch item.status {
        case .failed(let error): return "\(letter)  \(DisplayText.shortName(item.name)): \(error)"
        case .unknown: return "\(letter)  opening \(DisplayText.shortName(item.name))…"
        case .readyToPlay: return nil
        }
    }
}
