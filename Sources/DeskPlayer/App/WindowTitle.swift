import UI

/// The main window's title: `--title` with mpv's property expansion, read
/// from the property table for the focused tile; by default the media
/// title (its tag, else the file name) and the app's name. Main thread only.
struct WindowTitle {
    /// mpv's default, with DeskPlayer's name: "Song - DeskPlayer", or
    /// "DeskPlayer" with nothing playing.
    static let standard = "${?media-title:${media-title} - }DeskPlayer"

    let template: String
    private var shown: String?
    private var checked: UInt64 = 0

    init(template: String?) { self.template = template ?? WindowTitle.standard }

    /// Sets the title when it changed (looked at four times a second:
    /// titles follow tags and positions, not frames).
    mutating func update(at now: UInt64, controller: CommandController, screen: any PlayerScreen) {
        guard shown == nil || now &- checked >= 250_000_000 else { return }
        checked = now
        let title = WindowTitle.expand(template) { name in try? controller.value(of: name).plainText }
        guard title != shown else { return }
        shown = title
        screen.setTitle(title)
    }

    /// mpv's property expansion: `${NAME}` (or "(unavailable)"),
    /// `${NAME:FALLBACK}`, `${?NAME:TEXT}` when NAME is available,
    /// `${!NAME:TEXT}` when it is not, `$$` for a dollar sign. TEXT and
    /// FALLBACK are expanded in turn; an unclosed `${` stays as written.
    static func expand(_ template: String, _ value: (String) -> String?) -> String {
        var out = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.hasPrefix("$") {
                out += "$"
                rest = after.dropFirst()
            } else if after.hasPrefix("{"), let close = closingBrace(after.dropFirst()) {
                out += expandField(after[after.index(after: after.startIndex)..<close], value)
                rest = after[after.index(after: close)...]
            } else {
                out += "$"
                rest = after
            }
        }
        return out + rest
    }

    private static func expandField(_ field: Substring, _ value: (String) -> String?) -> String {
        let colon = field.firstIndex(of: ":")
        let name = String(field[..<(colon ?? field.endIndex)])
        let text = colon.map { String(field[field.index(after: $0)...]) }
        if name.hasPrefix("?") || name.hasPrefix("!") {
            let available = value(String(name.dropFirst())) != nil
            return available == name.hasPrefix("?") ? expand(text ?? "", value) : ""
        }
        return value(name) ?? text.map { expand($0, value) } ?? "(unavailable)"
    }

    /// The `}` closing a field whose text starts at `text`, nested `${…}` counted.
    private static func closingBrace(_ text: Substring) -> Substring.Index? {
        var depth = 0
        var previous: Character?
        for i in text.indices {
            let c = text[i]
            if c == "{" && previous == "$" { depth += 1 }
            if c == "}" {
                if depth == 0 { return i }
                depth -= 1
            }
            previous = c
        }
        return nil
    }
}
