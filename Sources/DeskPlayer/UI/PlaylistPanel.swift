// SPDX-License-Identifier: GPL-3.0-or-later
import Analysis
import CSDL2
import Foundation
import Media
import Output
import Playback

/// The playlist at the main window's right side (`playlist-panel`): each
/// entry's picture, title and duration, the current one marked. A click
/// plays an entry, a drag moves it, its ✕ (or Delete over it) removes it,
/// files dropped on the panel are added at the end; the wheel scrolls. It
/// only says what was asked (`Action`): the App runs the commands, and
/// sets `entries` from the focused tile's playlist every turn, so the panel
/// follows the list whatever changed it. Main thread only.
package final class PlaylistPanel {
    package struct Entry: Equatable {
        package var name: String
        /// The title tag, when the item is open and has one.
        package var title: String?
        package var duration: Double?
        package var isCurrent: Bool

        package init(name: String, title: String?, duration: Double?, isCurrent: Bool) {
            self.name = name
            self.title = title
            self.duration = duration
            self.isCurrent = isCurrent
        }
    }

    package enum Action: Equatable {
        case play(Int)
        /// Entry `from` to before entry `to` (mpv's playlist-move).
        case move(from: Int, to: Int)
        case remove(Int)
        case append(String)
        case close
    }

    package var entries: [Entry] = [] {
        didSet {
            guard entries != oldValue else { return }
            changed = true
            if let s = selected, s >= entries.count { selected = nil }
        }
    }
    /// Something it shows changed since it was drawn.
    var changed = true
    private let previews = PlaylistPreviews()
    private var previewVersion = -1
    private var textures: [String: VideoTexture] = [:]
    /// The row under the pointer, and the row last clicked (Delete removes it when none is under the pointer).
    private(set) var hovered: Int?
    private(set) var selected: Int?
    /// A press on a row, and where the pointer is while it drags.
    private var press: (index: Int, y: Int)?
    private(set) var dragY: Int?
    /// The first row shown.
    private var top = 0

    package init() {}

    // MARK: Geometry

    struct Geometry {
        let panel: Rect, header: Rect, close: Rect, firstRowY: Int, rowHeight: Int, thumb: (width: Int, height: Int)
    }

    /// Its width in a window of `width` (never more than half of it).
    static func width(in width: Int, scale u: UIScale) -> Int { min(u(380), width / 2) }

    func geometry(_ bounds: Rect, scale u: UIScale) -> Geometry {
        let w = PlaylistPanel.width(in: bounds.width, scale: u)
        let panel = Rect(x: bounds.x + bounds.width - w, y: bounds.y, width: w, height: bounds.height)
        let header = Rect(x: panel.x, y: panel.y, width: w, height: u(40))
        let close = Rect(x: panel.x + w - u(36), y: panel.y + u(6), width: u(28), height: u(28))
        return Geometry(panel: panel, header: header, close: close, firstRowY: header.y + header.height, rowHeight: u(64),
                        thumb: (u(96), u(54)))
    }

    func rowsShown(_ g: Geometry) -> Int { max((g.panel.y + g.panel.height - g.firstRowY) / max(g.rowHeight, 1), 1) }

    /// The row of entry `index` (it may be off the panel).
    func rowRect(_ index: Int, _ g: Geometry) -> Rect {
        Rect(x: g.panel.x, y: g.firstRowY + (index - top) * g.rowHeight, width: g.panel.width, height: g.rowHeight)
    }

    /// A row's ✕ button (shown while the pointer is on the row).
    func removeButton(_ index: Int, _ g: Geometry, scale u: UIScale) -> Rect {
        let row = rowRect(index, g)
        return Rect(x: row.x + row.width - u(36), y: row.y + (row.height - u(28)) / 2, width: u(28), height: u(28))
    }

    /// The entry at a point, if a row is there.
    func index(atX x: Int, y: Int, _ g: Geometry) -> Int? {
        guard g.panel.contains(x: x, y: y), y >= g.firstRowY else { return nil }
        let i = top + (y - g.firstRowY) / max(g.rowHeight, 1)
        return entries.indices.contains(i) && i < top + rowsShown(g) ? i : nil
    }

    /// Where a dragged entry lands for the pointer at `y`: before the entry
    /// whose row's upper half it is over (the count: at the end).
    func dropIndex(y: Int, _ g: Geometry) -> Int {
        let slot = Double(y - g.firstRowY) / Double(max(g.rowHeight, 1)) + 0.5
        return min(max(top + Int(saturating: slot.rounded(.down)), 0), entries.count)
    }

    // MARK: Input

    /// A press in the panel: the close or ✕ buttons act at once; on a row
    /// the release decides (a click plays it, a drag moves it).
    func press(x: Int, y: Int, in bounds: Rect, scale u: UIScale) -> Action? {
        let g = geometry(bounds, scale: u)
        changed = true
        if g.close.contains(x: x, y: y) { return .close }
        guard let index = index(atX: x, y: y, g) else { return nil }
        if removeButton(index, g, scale: u).contains(x: x, y: y) { return .remove(index) }
        selected = index
        press = (index, y)
        return nil
    }

    /// The pointer moved (pressed or not).
    func motion(x: Int, y: Int, in bounds: Rect, scale u: UIScale) {
        let g = geometry(bounds, scale: u)
        let now = index(atX: x, y: y, g)
        if now != hovered { hovered = now; changed = true }
        if let press, dragY != nil || abs(y - press.y) >= u(6) {
            dragY = y
            changed = true
        }
    }

    /// The button let go: a click on a row plays it, a drag moves the row.
    func release(x: Int, y: Int, in bounds: Rect, scale u: UIScale) -> Action? {
        defer { press = nil; dragY = nil; changed = true }
        guard let press else { return nil }
        let g = geometry(bounds, scale: u)
        if dragY != nil {
            let to = dropIndex(y: y, g)
            // Before itself or the one after it: where it is.
            guard to != press.index && to != press.index + 1 else { return nil }
            selected = to > press.index ? to - 1 : to
            return .move(from: press.index, to: to)
        }
        return index(atX: x, y: y, g) == press.index ? .play(press.index) : nil
    }

    /// Whether a press on a row is being followed (the window sends it the release).
    var isPressed: Bool { press != nil }

    /// Delete: the row under the pointer, else the one last clicked.
    func deleteKey() -> Action? {
        guard let index = hovered ?? selected, entries.indices.contains(index) else { return nil }
        return .remove(index)
    }

    func scroll(by rows: Int, in bounds: Rect, scale u: UIScale) {
        let g = geometry(bounds, scale: u)
        let newTop = min(max(top + rows, 0), max(entries.count - rowsShown(g), 0))
        if newTop != top { top = newTop; changed = true }
    }

    func pointerLeft() {
        if hovered != nil { hovered = nil; changed = true }
    }

    /// Pictures, durations or titles of entries are still being made.
    var isMakingPreviews: Bool { previews.isMaking }

    /// Previews made since the last look: redraw.
    func takeChanges() -> Bool {
        let version = previews.version
        if version != previewVersion { previewVersion = version; changed = true }
        defer { changed = false }
        return changed
    }

    // MARK: Drawing

    func draw(in bounds: Rect, renderer r: OpaquePointer, text: TextRenderer, scale u: UIScale) {
        let g = geometry(bounds, scale: u)
        // Keep the current entry in view when the list changes under it.
        top = min(top, max(entries.count - rowsShown(g), 0))
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_BLEND)
        fill(g.panel, (16, 16, 20, 235), renderer: r)
        fill(Rect(x: g.panel.x, y: g.panel.y, width: max(u(1), 1), height: g.panel.height), (80, 80, 90, 255), renderer: r)
        text.drawLine(String(format: tr("Playlist (%d)"), locale: .display, entries.count), renderer: r, x: g.panel.x + u(12),
                      y: g.header.y + (g.header.height - text.lineHeight) / 2, color: SDL_Color(r: 120, g: 190, b: 255, a: 255))
        fill(g.close, (255, 255, 255, 40), renderer: r)
        text.drawCentered("✕", renderer: r, cx: g.close.x + g.close.width / 2, cy: g.close.y + g.close.height / 2, maxWidth: g.close.width)
        if entries.isEmpty {
            text.drawLine(tr("Drop files here"), renderer: r, x: g.panel.x + u(12), y: g.firstRowY + u(8),
                          color: SDL_Color(r: 150, g: 150, b: 160, a: 255))
        }
        for index in top..<min(entries.count, top + rowsShown(g)) {
            drawRow(index, g, renderer: r, text: text, scale: u)
        }
        if let dragY, press != nil {
            // Where the dragged entry goes: a line between rows.
            let y = g.firstRowY + (dropIndex(y: dragY, g) - top) * g.rowHeight
            fill(Rect(x: g.panel.x + u(6), y: y - u(2), width: g.panel.width - u(12), height: u(3)), (120, 190, 255, 255), renderer: r)
        }
        SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE)
        // Textures of names no longer listed go.
        if textures.count > entries.count + 8 {
            let names = Set(entries.map(\.name))
            textures = textures.filter { names.contains($0.key) }
        }
    }

    private func drawRow(_ index: Int, _ g: Geometry, renderer r: OpaquePointer, text: TextRenderer, scale u: UIScale) {
        let entry = entries[index]
        let row = rowRect(index, g)
        let preview = previews.preview(of: entry.name)
        if press?.index == index && dragY != nil {
            fill(row, (120, 190, 255, 60), renderer: r)
        } else if entry.isCurrent {
            fill(row, (120, 190, 255, 45), renderer: r)
        } else if hovered == index {
            fill(row, (255, 255, 255, 25), renderer: r)
        }
        if entry.isCurrent { fill(Rect(x: row.x, y: row.y, width: u(4), height: row.height), (120, 190, 255, 255), renderer: r) }
        // The picture, or a dark box where there is none (yet).
        let box = Rect(x: row.x + u(12), y: row.y + (row.height - g.thumb.height) / 2, width: g.thumb.width, height: g.thumb.height)
        fill(box, (40, 40, 48, 255), renderer: r)
        if let picture = preview?.picture, let texture = texture(for: entry.name, picture, renderer: r) {
            let scale = min(Double(box.width) / Double(picture.width), Double(box.height) / Double(picture.height))
            let w = Int(saturating: Double(picture.width) * scale), h = Int(saturating: Double(picture.height) * scale)
            var target = Rect(x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h).sdl
            SDL_RenderCopy(r, texture.texture, nil, &target)
        }
        let textX = box.x + box.width + u(10)
        let removeX = removeButton(index, g, scale: u).x
        let room = removeX - u(6) - textX
        let title = fitted(entry.title ?? preview?.title ?? DisplayText.shortName(entry.name), width: room, text: text)
        let lines = text.lineHeight * 2 + u(2)
        let y = row.y + (row.height - lines) / 2
        text.drawLine(title, renderer: r, x: textX, y: y,
                      color: entry.isCurrent ? SDL_Color(r: 255, g: 255, b: 255, a: 255) : SDL_Color(r: 215, g: 215, b: 220, a: 255))
        let duration = entry.duration ?? preview?.duration
        let detail = (entry.isCurrent ? "▶ " : "") + (duration.map(DisplayText.clock) ?? "--:--")
        text.drawLine(detail, renderer: r, x: textX, y: y + text.lineHeight + u(2), color: SDL_Color(r: 150, g: 150, b: 160, a: 255))
        if hovered == index && dragY == nil {
            let remove = removeButton(index, g, scale: u)
            fill(remove, (255, 255, 255, 40), renderer: r)
            text.drawCentered("✕", renderer: r, cx: remove.x + remove.width / 2, cy: remove.y + remove.height / 2, maxWidth: remove.width)
        }
    }

    /// `label` cut with "…" to fit `width`.
    private func fitted(_ label: String, width: Int, text: TextRenderer) -> String {
        guard text.width(of: label) > width else { return label }
        var cut = Substring(label)
        while !cut.isEmpty && text.width(of: cut + "…") > width { cut = cut.dropLast(max(cut.count / 8, 1)) }
        return cut + "…"
    }

    private func texture(for name: String, _ picture: PictureBuffer, renderer: OpaquePointer) -> VideoTexture? {
        if let made = textures[name], made.fits(picture) { return made }
        guard let made = try? VideoTexture(renderer: renderer, width: picture.width, height: picture.height, opaque: true) else { return nil }
        made.upload(picture)
        textures[name] = made
        return made
    }
}
