// SPDX-License-Identifier: GPL-3.0-or-later
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
    /// The change count the title was last expanded at (`PropertyChanges`).
    private var readAt: UInt64?
    /// The last expansion named a polled property (`${time-pos}`).
    private var readsPolled = false

    init(template: String?) { self.template = template ?? WindowTitle.standard }

    /// Sets the title when it changed: expanded again after a change was
    /// marked (`PropertyChanges`); a template naming a polled property is
    /// also looked at four times a second (titles follow positions, not
    /// frames), and at once when `settling`, as the loop goes to rest (the
    /// last look may be up to 250 ms old, and at rest the next one may never
    /// come). A turn with no change and no polled name reads nothing.
    mutating func update(at now: UInt64, controller: CommandController, screen: any PlayerScreen, settling: Bool = false) {
        let generation = controller.changeGeneration()
        let polledDue = readsPolled && (settling || now &- checked >= 250_000_000)
        guard readAt != generation || polledDue else { return }
        checked = now
        readAt = generation
        var polled = false
        let title = WindowTitle.expand(template) { name, raw in
            if PropertyTable.isPolled(name) { polled = true }
            return controller.lookup(name, raw: raw)
        }
        readsPolled = polled
        guard title != shown else { return }
        shown = title
        screen.setTitle(title)
    }

    /// What a name in `${…}` stands for now.
    enum Lookup {
        case value(String)
        /// A property without a value now: "(unavailable)".
        case unavailable
        /// No such property: "(error)".
        case unknown

        var text: String? { if case .value(let s) = self { return s } else { return nil } }
    }

    /// Looks up a name; `raw` for `${=NAME}` (mpv's get_property_string form).
    typealias Resolver = (_ name: String, _ raw: Bool) -> Lookup

    /// mpv's property expansion: `${NAME}` (or "(unavailable)"),
    /// `${=NAME}` its raw value, `${NAME:FALLBACK}`, `${?NAME:TEXT}` when
    /// NAME is available, `${!NAME:TEXT}` when it is not,
    /// `${?NAME==VALUE:TEXT}` when NAME's raw value is VALUE,
    /// `${!NAME==VALUE:TEXT}` when it is not (or NAME is unavailable), `$$`
    /// for a dollar sign. TEXT and FALLBACK are expanded in turn, at most
    /// `nestingLimit` deep (a template from a socket client is not ours to
    /// trust with the stack); an unclosed `${` stays as written.
    static func expand(_ template: String, _ value: Resolver) -> String { expand(template, value, depth: 0) }

    static let nestingLimit = 32

    private static func expand(_ template: String, _ value: Resolver, depth: Int) -> String {
        guard depth <= nestingLimit else { return "" }
        var out = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            if after.hasPrefix("$") {
                out += "$"
                rest = after.dropFirst()
            } else if after.hasPrefix("{"), let close = closingBrace(after.dropFirst()) {
                out += expandField(after[after.index(after: after.startIndex)..<close], value, depth: depth)
                rest = after[after.index(after: close)...]
            } else {
                out += "$"
                rest = after
            }
        }
        return out + rest
    }

    private static func expandField(_ field: Substring, _ value: Resolver, depth: Int) -> String {
        let colon = field.firstIndex(of: ":")
        var name = String(field[..<(colon ?? field.endIndex)])
        let text = colon.map { String(field[field.index(after: $0)...]) }
        if name.hasPrefix("?") || name.hasPrefix("!") {
            let condition = name.dropFirst()
            let holds: Bool
            if let equals = condition.range(of: "==") {
                // mpv compares the raw value (get_property_string's): "yes", "1.500000".
                holds = value(String(condition[..<equals.lowerBound]), true).text == String(condition[equals.upperBound...])
            } else {
                holds = value(String(condition), true).text != nil
            }
            return holds == name.hasPrefix("?") ? expand(text ?? "", value, depth: depth + 1) : ""
        }
        let raw = name.hasPrefix("=")
        if raw { name.removeFirst() }
        switch value(name, raw) {
        case .value(let s): return s
        case .unavailable: return text.map { expand($0, value, depth: depth + 1) } ?? "(unavailable)"
        case .unknown: return text.map { expand($0, value, depth: depth + 1) } ?? "(error)"
        }
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
