// SPDX-License-Identifier: GPL-3.0-or-later
import Control

/// The features the app runs, in the order each turn asks them: what serves
/// requests first, then what takes other threads' results, then what tells
/// observers (mpv's order: the socket's observers hear a turn's changes
/// after its commands ran). Adding a feature is its folder and one line
/// here: the loop runs it, the property table has its properties, the
/// command table its commands, the key table its keys and the context
/// menu its items.
enum FeatureRegistry {
    static var features: [any AppFeature.Type] {
        [
            PlaylistPanelFeature.self,
            PiPFeature.self,
            SocketFeature.self,
            MPRISFeature.self,
            OpenDialogFeature.self,
            LibraryFeature.self,
            StreamProblemsFeature.self,
            ScreenshotsFeature.self,
            CompareFeature.self,
            RecordingFeature.self,
            ScopesFeature.self,
            SoundFeature.self,
            ScreenSaverFeature.self,
            TitleFeature.self,
            ChapterAnnouncer.self,
            // Last: its tile goes when the others have (Picture in Picture windows first).
            BackgroundVideo.self,
        ]
    }

    /// Each feature the options ask for, made once the window is open.
    static func make(_ core: AppCore) -> [any AppFeature] { features.compactMap { $0.init(core) } }

    /// Every feature's properties, in the order above.
    static var properties: [Property] { features.flatMap { $0.properties } }

    /// Every feature's commands by name; the first time it is asked for, their
    /// specs join the command table (`installCommands`).
    static let commands: [String: FeatureCommand] = {
        let all = features.flatMap { $0.commands }
        CommandSpec.add(all.map(\.spec))
        return Dictionary(all.map { ($0.spec.name, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    /// Makes the features' commands known to the command table. Anything that
    /// parses commands runs after it: the controller calls it as it is made,
    /// and the app's own tables (`keyBindings`, CompareKeys) before they parse.
    static func installCommands() { _ = commands }

    /// The default key table: mpv's keys for the table's commands, then each feature's.
    static let keyBindings: [KeyBinding] = {
        installCommands()
        return KeyBindings.defaults + features.flatMap { $0.keys }
    }()

    /// The context menu's table: the table's own items with each feature's
    /// placed after the item it names (at the end, before Quit's group,
    /// when the table has no such item, as input.conf's items go).
    static let menuTable: [MenuEntry] = {
        installCommands()
        var table = MenuTable.defaults
        for menu in features.flatMap({ $0.menu }) {
            let anchor = MenuTable.split(menu.after)
            let at = table.lastIndex { $0.path == anchor }.map { $0 + 1 }
                ?? table.lastIndex { $0.isSeparator && $0.path.count == 1 } ?? table.endIndex
            table.insert(contentsOf: menu.entries, at: at)
        }
        return table
    }()
}
