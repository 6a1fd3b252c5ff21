import CSDL2
import Foundation

/// The main window: lays out its player views, turns input into commands
/// (handed to the App through `onCommand`, never by importing it), and
/// redraws only when something changed.
final class MainWindow {
    let window: Window
    let text: TextRenderer
    private(set) var views: [PlayerView] = []
    var bindings = KeyBindings.defaults
    var onCommand: (Command) -> Void = { _ in }
    private var messages: [(text: String, until: UInt64)] = []
    private var needsRedraw = true

    init(title: String, width: Int, height: Int, position: (x: Int, y: Int)?) throws(SDLError) {
        let x = position.map { Int32($0.x) } ?? DP_SDL_WINDOWPOS_CENTERED
        let y = position.map { Int32($0.y) } ?? DP_SDL_WINDOWPOS_CENTERED
        window = try Window(title: title, width: width, height: height, x: x, y: y)
        text = TextRenderer()
        // Dark at once: never a white flash while the first item opens.
        render()
    }

    func add(_ view: PlayerView) {
        views.append(view)
        needsRedraw = true
    }

    /// A short line at the bottom of the window (errors, actions).
    func showMessage(_ message: String, seconds: Double = 3) {
        messages.append((message, HostTime.now() + UInt64(seconds * 1e9)))
        needsRedraw = true
    }

    /// The area each view gets. One view fills the window; more share it in rows.
    func areas() -> [Rect] {
        let (w, h) = window.size
        guard !views.isEmpty else { return [] }
        let n = views.count
        let rowHeight = h / n
        return (0..<n).map { Rect(x: 0, y: $0 * rowHeight, width: w, height: rowHeight) }
    }

    /// Waits up to `timeoutMs` for input and handles all pending events.
    /// Returns false when the window was asked to close.
    func pumpEvents(timeoutMs: Int32) -> Bool {
        var event = SDL_Event()
        var open = true
        guard SDL_WaitEventTimeout(&event, max(timeoutMs, 0)) != 0 else { return true }
        repeat {
            open = handle(event) && open
        } while SDL_PollEvent(&event) != 0
        return open
    }

    private func handle(_ event: SDL_Event) -> Bool {
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            return false
        case SDL_KEYDOWN:
            if let name = KeyNames.name(for: event.key.keysym),
               let command = KeyBindings.command(forKey: name, in: bindings) {
                onCommand(command)
            }
        case SDL_WINDOWEVENT:
            needsRedraw = true
        default:
            break
        }
        return true
    }

    /// Advances every player, uploads due frames and redraws when needed.
    func refresh(at now: UInt64) {
        let areas = areas()
        for (view, area) in zip(views, areas) where view.refresh(at: now, area: area, renderer: window.renderer) {
            needsRedraw = true
        }
        let before = messages.count
        messages.removeAll { $0.until <= now }
        if messages.count != before { needsRedraw = true }
        if needsRedraw { render() }
    }


    private func render() {
        let r = window.renderer
        SDL_SetRenderDrawColor(r, 0, 0, 0, 255)
        SDL_RenderClear(r)
        for (view, area) in zip(views, areas()) {
            view.draw(in: area, renderer: r, text: text)
        }
        let (w, h) = window.size
        for (i, m) in messages.suffix(3).reversed().enumerated() {
            text.drawCentered(m.text, renderer: r, cx: w / 2, cy: h - 24 - i * (text.lineHeight + 4), maxWidth: w - 40,
                              color: SDL_Color(r: 255, g: 220, b: 120, a: 255))
        }
        SDL_RenderPresent(r)
        needsRedraw = false
    }
}
