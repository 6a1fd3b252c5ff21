// SPDX-License-Identifier: GPL-3.0-or-later
import Playback

/// Says on the OSD when the focused tile's chapter changes: as playback
/// crosses into the next one, or a seek lands in another (a chapter key
/// says it at once through the property's OSD line; this line, on the same
/// topic, takes its place rather than adding another). Not said when an
/// item starts. Main thread only.
final class ChapterAnnouncer: AppFeature {
    private weak var item: PlayerItem?
    private var chapter = -1

    init() {}
    convenience init(_ core: AppCore) { self.init() }

    /// `chapter`, `chapters`, `chapter-list`.
    static var properties: [Property] { ChapterProperties.all }

    func announce(_ core: AppCore, at now: UInt64) { update(core.controller) }

    func update(_ controller: CommandController) {
        guard let player = controller.tiles.focused?.player, let item = player.currentItem,
              let chapters = item.info?.chapters, !chapters.isEmpty else {
            self.item = nil
            return
        }
        let index = ChapterTable.index(at: player.currentTime.seconds, in: chapters)
        defer {
            self.item = item
            chapter = index
        }
        guard item === self.item, index != chapter, index >= 0 else { return }
        controller.osd(ChapterProperties.osdLine(index, of: chapters), seconds: 2, topic: "chapter")
    }
}
