// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Foundation
import Media
import Playback
import UI

/// Makes items and tiles the way the command line asked (buffering, HLS
/// limits, languages, subtitles, loops, volume), and resumes a file once
/// where Shift+Q left it. Main thread only.
final class TileFactory {
    let options: DeskPlayerCommand
    /// Shift+Q's positions (nil with --no-resume).
    var resume: ResumeStore?
    /// Where "Resuming …" is said.
    weak var screen: (any PlayerScreen)?
    /// Seconds between two refreshes of the display (frames faster than that are skipped by schedule).
    var displayInterval = 1.0 / 60
    /// The last run's volume and mute, for what the command line does not say.
    var remembered = RememberedState()
    /// The main window's renderer converts and scales YUV on a GPU (`--vo`).
    var picturesForGPU = false

    init(options: DeskPlayerCommand) { self.options = options }

    var preferences: ItemPreferences {
        var p = ItemPreferences(forwardBufferDuration: options.forwardBuffer)
        p.maxWidth = options.maxResolution?.width
        p.maxHeight = options.maxResolution?.height
        p.maxBitrate = options.maxBitrate?.bitsPerSecond
        p.streamCacheBytes = options.streamCacheSize?.bitsPerSecond
        if let bytes = options.frameCacheSize?.bitsPerSecond { (p.frameCacheBytes, p.backwardFrameCacheBytes) = (bytes, bytes) }
        p.audioTrim = options.audioTrim
        func languages(_ list: String?) -> [String] {
            (list ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        p.audioLanguages = languages(options.alang)
        p.subtitleLanguages = languages(options.slang)
        p.subtitleFiles = options.subFiles
        p.autoloadSubtitles = options.subAuto == .exact
        p.video = VideoFilterSettings(extraRotation: options.videoRotate.extraRotation,
                                      deinterlace: options.deinterlace, toneMapping: options.toneMapping)
        // A comparison shows the decode itself, and its diff amplifies what
        // a skipped loop filter changes: compared sides always decode fully.
        p.decodesSmallVideoFast = options.smallVideoDecode == .fast && options.compare == nil
        p.picturesForGPU = picturesForGPU
        // A comparison shows the real decode: software unless asked otherwise.
        p.hardwareDecoding = options.hwdec ?? (options.compare == nil ? .autoSafe : .no)
        p.hardwareFault = ProcessInfo.processInfo.environment[HardwareFault.environmentName].flatMap(HardwareFault.init)
        return p
    }

    /// Plays per item (`--loop`): nil loops forever.
    var passes: Int? { options.loop.map { $0.playCount } ?? 1 }

    func item(_ path: String) -> PlayerItem { PlayerItem(path, preferences: preferences) }

    /// A tile playing `names` as a queue, from `start` (else where the first
    /// was left with Shift+Q, once).
    func tile(_ names: [String], start: MediaTime? = nil, decoderThreads: Int = 0) -> Tile {
        var preferences = self.preferences
        preferences.videoDecoderThreads = decoderThreads
        var items = names.map { PlayerItem($0, preferences: preferences) }
        var start = start
        if start == nil, let first = names.first, let seconds = resume?.position(of: first) {
            // Resumed once, as mpv does: the entry goes.
            start = MediaTime(seconds: seconds)
            resume?.set(nil, for: first)
            // The file as it is now, under its lock: entries written since this player started stay.
            do { try ResumeStore.update(url: resume?.url ?? ResumeStore.defaultURL()) { $0.set(nil, for: first) } } catch {
                PlayerApp.printError("\(error)")
            }
            screen?.showMessage(String(format: tr("Resuming %@ at %@"), DisplayText.shortName(first), DisplayText.clock(seconds)), seconds: 3)
        }
        if let start, let first = items.first {
            items[0] = PlayerItem(first.name, preferences: preferences, start: start)
        }
        return tile(items)
    }

    func tile(_ items: [PlayerItem]) -> Tile {
        let player = Player()
        player.volume = Float(options.volume ?? remembered.volume ?? 100) / 100
        player.isMuted = options.mute ?? remembered.mute ?? false
        player.passesPerItem = passes
        player.deinterlace = options.deinterlace
        player.hardwareDecoding = preferences.hardwareDecoding
        player.displayInterval = displayInterval
        player.speed = PlaybackSpeed(value: options.speed, keepsPitch: options.audioPitchCorrection == .yes)
        player.setABLoop(a: options.abLoopA?.time, b: options.abLoopB?.time)
        player.playDirection = options.playDir
        let playlist = QueuePlayer(player: player, items: items) { $0.reopened() }
        playlist.loopsQueue = options.playlistLoop
        return Tile(playlist, contentMode: options.contentMode)
    }
}
