// SPDX-License-Identifier: GPL-3.0-or-later
#if DESKPLAYER_FUZZ
import CFFmpeg
import Control
import Foundation
import Media
import Playback

/// The fuzzer build's entry (`make fuzz`, -DDESKPLAYER_FUZZ): libFuzzer's
/// `main` calls `LLVMFuzzerTestOneInput` for each input, and
/// `DESKPLAYER_FUZZ_TARGET` says which door it is fed to. App is the one
/// layer that sees every reader a file reaches:
/// - `media` (the default): a media file opened, probed, decoded and
///   filtered as a tile plays it (Playback's `FuzzEntry.play`);
/// - `subtitle`: a subtitle file read into a track and drawn;
/// - `hls`: an HLS master or media playlist read, its variants ranked and chosen;
/// - `composition`: a composition file (`--composition`);
/// - `config`: `input.conf` (keys and the menu) and `deskplayer.conf`;
/// - `state`: the JSON state files (`remembered.json`, the resume store).
enum FuzzTargets {
    static let target = ProcessInfo.processInfo.environment["DESKPLAYER_FUZZ_TARGET"] ?? "media"

    /// The scratch file an input is written to for the readers that take a path.
    static let scratch: String = {
        let dir = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(dir)/deskplayer-fuzz-\(getpid())-text"
    }()

    static func run(_ data: UnsafeRawBufferPointer) {
        switch target {
        case "subtitle": FuzzEntry.loadSubtitle(data)
        case "hls": hls(String(decoding: data, as: UTF8.self))
        case "composition": withScratchFile(data, suffix: ".json") { path in
            _ = try? CompositionFile.load(path, skipBad: true) { _ throws(MediaError) in 10 }
        }
        case "config": config(String(decoding: data, as: UTF8.self))
        case "state": withScratchFile(data, suffix: ".json") { path in
            _ = RememberedState.load(from: URL(fileURLWithPath: path))
            var store = ResumeStore(url: URL(fileURLWithPath: path))
            _ = store.load()
            _ = store.position(of: "/a/film.mkv")
        }
        default: FuzzEntry.play(data)
        }
    }

    private static func withScratchFile(_ data: UnsafeRawBufferPointer, suffix: String, _ body: (String) -> Void) {
        let path = scratch + suffix
        guard FileManager.default.createFile(atPath: path, contents: Data(data)) else { return }
        defer { unlink(path) }
        body(path)
    }

    private static func hls(_ text: String) {
        let base = "http://127.0.0.1/live/index.m3u8"
        let variants = HLSMaster.variants(in: text, base: base)
        let renditions = HLSMaster.audioRenditions(in: text, base: base)
        for (w, h, rate) in [(1280, 720, 2_000_000), (0, 0, 0), (Int.max, Int.max, Int.max)] as [(Int?, Int?, Int?)] {
            _ = HLSMaster.ranked(variants, maxWidth: w, maxHeight: h, maxBitrate: rate)
        }
        if let variant = HLSMaster.choose(variants, maxWidth: nil, maxHeight: nil, maxBitrate: nil),
           let audio = HLSMaster.chooseAudio(renditions, group: nil, languages: ["en"]) {
            _ = HLSMaster.playlist(for: variant, audio: audio)
        }
        if let media = HLSMediaPlaylist(text, base: base) {
            for seconds in [-1.0, 0, 0.5, 10, 1e300, .nan] { _ = media.segment(at: seconds) }
        }
    }

    private static func config(_ text: String) {
        _ = KeyBindings.applying(inputConf: text, file: "input.conf", to: FeatureRegistry.keyBindings)
        _ = MenuTable.applying(inputConf: text, file: "input.conf", to: FeatureRegistry.menuTable)
        // Each option line checked with the command line's own parser, as at start.
        _ = ConfigFiles.optionArguments(text, file: "deskplayer.conf") { option in
            do { _ = try DeskPlayerCommand.parseAsRoot(DeskPlayerCommand.bareIdle(option)); return nil } catch {
                return DeskPlayerCommand.message(for: error)
            }
        }
    }
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>?,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    av_log_set_level(AV_LOG_QUIET)
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTargets.run(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}
#endif
