// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Output
import Playback
import Media
import Foundation

/// `compare-save [DIR]`: each compared side's frame on screen, decoded
/// again at the file's own full size (filtered as it plays: upright,
/// deinterlaced), and the window as it is, as PNG files named
/// deskplayer-compare-DATE-A-NAME.png, …-B-NAME.png, …-screen.png. Written
/// before it returns (the socket's reply says where); the paths are printed
/// and shown.
enum CompareSave {
    static func save(to directory: URL, controller: CommandController) throws(CommandError) -> JSONValue {
        guard let state = controller.compare else { throw .propertyUnavailable }
        let group = controller.tiles.syncGroup
        guard !group.isEmpty else { throw .propertyUnavailable }
        do { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) } catch {
            return try failed("cannot make \(directory.path): \(error.localizedDescription)", controller)
        }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        var base = "deskplayer-compare-" + formatter.string(from: Date())
        var n = 2
        while (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.contains(where: { $0.hasPrefix(base + "-") }) == true,
              n < 1000 {
            base = "deskplayer-compare-" + formatter.string(from: Date()) + "-\(n)"
            n += 1
        }
        var written: [String] = []
        // The window first: what is on screen now, before any decoding takes time.
        if let screen = controller.screen {
            let url = directory.appendingPathComponent(base + "-screen.png")
            do { try Screenshots.writeWindow(screen, to: url) } catch { return try failed("compare-save: \(error)", controller) }
            written.append(url.path)
        }
        for index in [0, state.other] where group.indices.contains(index) {
            let player = group[index].player
            let letter = CompareView.letter(index)
            guard let item = player.currentItem, item.info?.hasVideo == true, let time = player.shownItemTime else {
                PlayerApp.printError("compare-save: \(letter) has no picture to save")
                continue
            }
            var settings = item.preferences.video
            settings.deinterlace = player.deinterlace
            let name = ((DisplayText.shortName(item.name) as NSString).deletingPathExtension)
            let url = directory.appendingPathComponent("\(base)-\(letter)-\(name).png")
            do { try Screenshots.writeVideo(item.name, at: time, settings: settings, to: url) } catch {
                return try failed("compare-save: \(letter): \(error)", controller)
            }
            written.append(url.path)
        }
        for path in written { print("Saved: \(path)") }
        controller.osd(String(format: trn("Saved %d picture to %@", "Saved %d pictures to %@", written.count), locale: .display, written.count, directory.path),
                       seconds: 3)
        return .array(written.map { .string($0) })
    }

    private static func failed(_ line: String, _ controller: CommandController) throws(CommandError) -> JSONValue {
        PlayerApp.printError(line)
        controller.osd(line, seconds: 4)
        throw .commandFailed
    }
}
