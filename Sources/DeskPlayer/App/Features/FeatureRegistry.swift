// SPDX-License-Identifier: GPL-3.0-or-later

/// The features the app runs, in the order each turn asks them: what serves
/// requests first, then what takes other threads' results, then what tells
/// observers (mpv's order: the socket's observers hear a turn's changes
/// after its commands ran). Adding a feature is its folder and one line
/// here: the loop runs it and the property table has its properties.
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
}
