// SPDX-License-Identifier: GPL-3.0-or-later
/// One item of the context menu: where it sits and the command it runs,
/// as input.conf writes it, so the menu and a key bound to the same text
/// do one thing. mpv's `#menu:` comments of input.conf describe a menu the
/// same way (`_ cycle deinterlace  #menu: Video > Deinterlace`).
package struct MenuEntry: Sendable, Equatable {
    /// Items the App makes when the menu opens, from what is playing.
    package enum List: String, Sendable, CaseIterable {
        /// The recent files (each plays with loadfile).
        case recent
        /// The playlist's entries (each sets playlist-pos).
        case playlist
        /// The audio tracks (set aid N).
        case audio
        /// Off and the subtitle tracks (set sid no|N).
        case subtitles
    }

    /// The submenus down to the item, then its title: ["Video", "Deinterlace", "yes"].
    /// A title "-" is a separator line.
    package let path: [String]
    /// What the item runs, as input.conf writes it ("" for a separator or a list).
    package let command: String
    /// Where generated items go (nil: a plain item).
    package let list: List?
    /// A property that must have a value for the item to show (Compare's
    /// "compare": only while comparing); nil: always shown.
    package let when: String?

    package init(path: [String], command: String, list: List? = nil, when: String? = nil) {
        self.path = path
        self.command = command
        self.list = list
        self.when = when
    }

    package var title: String { path.last ?? "" }
    package var isSeparator: Bool { title == MenuTable.separator }
}

/// The one menu table: every item of the context menu (right click, the
/// `context-menu` command, the control bar's track buttons), with
/// input.conf's `#menu:` lines applied over it.
package enum MenuTable {
    package static let separator = "-"

    /// An entry from "Video > Deinterlace > auto" and its command.
    package static func entry(_ path: String, _ command: String = "", list: MenuEntry.List? = nil,
                              when: String? = nil) -> MenuEntry {
        MenuEntry(path: split(path), command: command, list: list, when: when)
    }

    /// "Video > Rotate" as its parts.
    package static func split(_ path: String) -> [String] {
        path.split(separator: ">").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The items in their order; a submenu sits where its first item is. The
    /// app's features add their own items after one of these (App's
    /// `FeatureRegistry.menuTable`: comparing's submenu, the camera's items).
    package static let defaults: [MenuEntry] = [
        entry("Open file…", "open-files"),
        entry("Open recent", list: .recent),
        entry("Open recent > -"),
        entry("Open recent > All recent files…", "recent-files"),
        entry("Videos…", "library"),
        entry("Playlist", list: .playlist),
        entry("Playlist > -"),
        entry("Playlist > Previous", "playlist-prev"),
        entry("Playlist > Next", "playlist-next"),
        entry("Playlist > Shuffle", "cycle shuffle"),
        entry("Playlist > Loop the playlist", "cycle-values loop-playlist inf no"),
        entry("-"),
        entry("Audio track", list: .audio),
        entry("Audio track > -"),
        entry("Audio track > Next track", "cycle audio"),
        entry("Audio track > Mute", "cycle mute"),
        entry("Subtitles", list: .subtitles),
        entry("Subtitles > -"),
        entry("Subtitles > Load file…", "open-files sub"),
        entry("Subtitles > Show", "cycle sub-visibility"),
        entry("Subtitles > Delay −100 ms", "add sub-delay -0.1"),
        entry("Subtitles > Delay +100 ms", "add sub-delay 0.1"),
        entry("Subtitles > No delay", "set sub-delay 0"),
        entry("Video > Rotate > 0°", "set video-rotate 0"),
        entry("Video > Rotate > 90°", "set video-rotate 90"),
        entry("Video > Rotate > 180°", "set video-rotate 180"),
        entry("Video > Rotate > 270°", "set video-rotate 270"),
        entry("Video > Rotate > as stored", "set video-rotate no"),
        entry("Video > Deinterlace > auto", "set deinterlace auto"),
        entry("Video > Deinterlace > no", "set deinterlace no"),
        entry("Video > Deinterlace > yes", "set deinterlace yes"),
        entry("Video > Aspect > Fit (keep aspect)", "set content-mode fit"),
        entry("Video > Aspect > Fill (crop)", "set content-mode fill"),
        entry("Video > Aspect > Stretch", "set content-mode stretch"),
        entry("Video > Zoom in", "add video-zoom 0.25"),
        entry("Video > Zoom out", "add video-zoom -0.25"),
        entry("Video > Zoom reset", "set compare-pixel-zoom 0"),
        entry("Video > Scope > none", "set scope none"),
        entry("Video > Scope > histogram", "set scope histogram"),
        entry("Video > Scope > waveform", "set scope waveform"),
        entry("Video > Scope > vectorscope", "set scope vectorscope"),
        entry("Video > Hardware decoding", "cycle-values hwdec auto-safe no"),
        entry("Speed > 0.5×", "set speed 0.5"),
        entry("Speed > 0.75×", "set speed 0.75"),
        entry("Speed > Normal", "set speed 1.0"),
        entry("Speed > 1.25×", "set speed 1.25"),
        entry("Speed > 1.5×", "set speed 1.5"),
        entry("Speed > 2.0×", "set speed 2.0"),
        entry("Speed > -"),
        entry("Speed > Slower", "multiply speed 1/1.1"),
        entry("Speed > Faster", "multiply speed 1.1"),
        entry("Speed > -"),
        entry("Speed > Play backward (again: faster)", "shuttle backward"),
        entry("Speed > Pause", "set pause yes"),
        entry("Speed > Play forward (again: faster)", "shuttle forward"),
        entry("Loop > Loop the file", "cycle-values loop-file inf no"),
        entry("Loop > A-B loop: set A, set B, clear", "ab-loop"),
        entry("Loop > Clear A-B loop", "set ab-loop-a no"),
        entry("-"),
        entry("Picture in Picture", "cycle pip"),
        entry("Screenshot", "screenshot video"),
        entry("Screenshot of the window", "screenshot window"),
        entry("Fullscreen", "cycle fullscreen"),
        entry("Keys…", "help"),
        entry("-"),
        entry("Quit", "quit"),
    ]

    /// The table with input.conf's `#menu:` lines applied: `KEY COMMAND
    /// #menu: Video > My item` adds the item (KEY `_` binds no key, as in
    /// mpv), or gives an item of that path this command; `#menu: -` after
    /// the path ("Video > -") adds a separator. User items go before the
    /// table's last group (Quit). A bad line is reported as "FILE:LINE: reason".
    package static func applying(inputConf text: String, file: String, to table: [MenuEntry])
        -> (table: [MenuEntry], problems: [String]) {
        var table = table
        var problems: [String] = []
        var insertAt = table.lastIndex { $0.path.count == 1 && $0.isSeparator } ?? table.count
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard let (binding, comment) = splitComment(String(raw)) else { continue }
            let trimmed = comment.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("menu:") else { continue }
            let path = split(String(trimmed.dropFirst(5)))
            guard !path.isEmpty else {
                problems.append("\(file):\(number + 1): '#menu:' names no item")
                continue
            }
            var line = binding.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("{"), let close = line.firstIndex(of: "}") {
                line = String(line[line.index(after: close)...]).trimmingCharacters(in: .whitespaces)
            }
            let parts = line.split(maxSplits: 1, whereSeparator: \.isWhitespace).map(String.init)
            let command = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            let entry = MenuEntry(path: path, command: command)
            if entry.isSeparator {
                table.insert(entry, at: insertAt)
                insertAt += 1
                continue
            }
            guard !command.isEmpty, command != "ignore", (try? Command(parsing: command)) != nil else {
                problems.append("\(file):\(number + 1): menu item '\(path.joined(separator: " > "))' has no command DeskPlayer knows")
                continue
            }
            if let i = table.firstIndex(where: { $0.path == path && $0.list == nil }) {
                table[i] = MenuEntry(path: path, command: command, when: table[i].when)
            } else {
                table.insert(entry, at: insertAt)
                insertAt += 1
            }
        }
        return (table, problems)
    }

    /// A line's text before its `#` comment and the comment after it (nil
    /// without one); a `#` inside quotes is not one.
    static func splitComment(_ line: String) -> (String, String)? {
        var quoted = false
        for (i, c) in zip(line.indices, line) {
            if c == "\"" { quoted.toggle() }
            if c == "#" && !quoted { return (String(line[..<i]), String(line[line.index(after: i)...])) }
        }
        return nil
    }
}
