// SPDX-License-Identifier: GPL-3.0-or-later

/// The features the app runs, in the order each turn asks them: what serves
/// requests first, then what takes other threads' results, then what tells
/// observers (mpv's order: the socket's observers hear a turn's changes
/// after its commands ran). Adding a feature is its folder and one line here.
enum FeatureRegistry {
    static func features(_ core: AppCore) -> [any AppFeature] {
        let registered: [(any AppFeature)?] = [
            PlaylistPanelFeature(),
            PiPFeature(),
            SocketFeature(),
            MPRISFeature(core),
            OpenDialogFeature(),
            LibraryFeature(),
            StreamProblemsFeature(),
            ScreenshotsFeature(),
            CompareFeature(),
            RecordingFeature(),
            ScopesFeature(),
            SoundFeature(),
            ScreenSaverFeature(),
            TitleFeature(core.options),
            ChapterAnnouncer(),
            // Last: its tile goes when the others have (PiP windows first).
            BackgroundVideo(core),
        ]
        return registered.compactMap { $0 }
    }
}
