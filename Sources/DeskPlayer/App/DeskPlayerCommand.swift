// SPDX-License-Identifier: GPL-3.0-or-later
import ArgumentParser
import Control
import Foundation
import Media
import Output
import Playback
import UI

/// `deskplayer [options] FILE...` (mpv's option names where mpv has one).
struct DeskPlayerCommand: ParsableCommand {
    /// The version's one place is packaging/debian/changelog; the BuildInfo
    /// plugin (Plugins/BuildInfo) writes it, and the commit, at build time.
    static let version = BuildInfo.version
    /// What `--version` prints: the version and the commit it was built from.
    static let versionLine = "\(BuildInfo.version) (commit \(BuildInfo.commit))"

    static let configuration = CommandConfiguration(
        commandName: "deskplayer",
        abstract: "Plays video and audio files in a desktop window.",
        discussion: "Keys (mpv's): SPACE/p pause, LEFT/RIGHT seek 5 s, UP/DOWN seek 60 s, 9/0 volume, m mute, "
            + "f fullscreen (ESC leaves), . step one frame, > or ENTER next file, < previous file, q quit.",
        version: versionLine
    )

    @Argument(help: "Files or URLs to play, one after another, gaplessly.")
    var files: [String] = []

    @Option(help: "Volume, 0 to 100 (default: the last run's, else 100).")
    var volume: Int?

    @Flag(inversion: .prefixedNo, help: "Start muted, or not (default: as the last run ended).")
    var mute: Bool?

    @Flag(help: "Start paused.")
    var pause = false

    @Option(name: .customLong("content-mode"), help: "How video fills the window: fit, fill or stretch.")
    var contentMode: ContentMode = .fit

    @Option(help: "Start at this position, in seconds.")
    var start: Double?

    @Option(help: ArgumentHelp("Playback speed, 0.25 to 4 (mpv's --speed); the audio keeps its pitch.", valueName: "X"))
    var speed: Double = 1

    @Option(name: .customLong("play-dir"), help: ArgumentHelp("Which way to play (mpv's --play-dir): backward shows the frames before the one on screen in turn, at the speed, without sound (Alt+j, Alt+k, Alt+l: editors' J/K/L).", valueName: "forward|backward"))
    var playDir: PlayDirection = .forward

    @Option(name: .customLong("ab-loop-a"), help: ArgumentHelp("A-B loop start (seconds, or no); with --ab-loop-b the interval loops without a gap.", valueName: "SECONDS"))
    var abLoopA: LoopPoint?

    @Option(name: .customLong("ab-loop-b"), help: ArgumentHelp("A-B loop end (seconds, or no); given before A, the two are swapped.", valueName: "SECONDS"))
    var abLoopB: LoopPoint?

    @Option(name: .customLong("audio-pitch-correction"), help: ArgumentHelp("yes: at another speed the audio is time-stretched and keeps its pitch; no: it is resampled, so the pitch moves with the speed (mpv's).", valueName: "yes|no"))
    var audioPitchCorrection: YesNo = .yes

    @Option(name: .customLong("quit-after"), help: "Quit after this many seconds of wall-clock playback.")
    var quitAfter: Double?

    @Option(name: .customLong("stats-json"), help: "Write playback statistics to this JSON file at exit.")
    var statsJSON: String?

    @Option(name: .customLong("frame-log"), help: "Write each presented frame's time, when it went on screen and the frames left out before it (CSV) at exit.")
    var frameLog: String?

    @Option(help: "Window size and position: WxH or WxH+X+Y.")
    var geometry: Geometry?

    @Option(help: "Play each file N times in all (as ffplay's -loop), or inf to loop forever. Loops seek back to zero without a gap.")
    var loop: LoopCount?

    @Option(help: "Show every file at once in its own tile: grid, side-by-side or stack.")
    var layout: TileLayout?

    @Option(help: "A video that loops behind the tiles, muted.")
    var background: String?

    @Option(help: "Which tiles are heard: focused (default) or all.")
    var audio: AudibleTiles = .focused

    @Flag(help: "Keep the tiles in step on one clock (the first tile's); pause, seek and step act on all.")
    var sync = false

    @Option(help: "Compare the first file (the reference) with the others, synced: wipe, diff, flip, hstack or vstack (`x` cycles; Tab picks the other side).")
    var compare: CompareState.Mode?

    @Option(name: .customLong("compare-shift"), help: "Seconds the compared files run ahead of the first: B shows its frame at t + SECONDS beside A's at t.")
    var compareShift = 0.0

    @Option(name: .customLong("compare-align"), help: "With --compare: find each rendition's time shift against the first at the start: auto (by the sound, else the pictures), audio, video or no (default).")
    var compareAlign: CompareAlignOption = .no

    @Option(name: .customLong("compare-diff"), help: "What the difference view shows: rgb (each channel), luma (grey) or heat (a colour map).")
    var compareDiff: CompareState.DiffVariant = .rgb

    @Option(name: .customLong("compare-diff-gain"), help: "The difference view's gain: each pixel shows min(255, gain·|A−B|).")
    var compareDiffGain = 1.0

    @Option(name: .customLong("compare-metrics"), help: ArgumentHelp("With --compare: measure the second video against the first (the reference) frame by frame with FFmpeg's psnr and ssim filters, shown in the OSD and in a graph under the seek bar.", valueName: "psnr,ssim"))
    var compareMetrics: MetricList?

    @Option(name: .customLong("compare-metrics-out"), help: ArgumentHelp("Write PSNR and SSIM of every frame of the first file against the second to this CSV file (with --scan, or while comparing).", valueName: "FILE.csv"))
    var compareMetricsOut: String?

    @Option(name: .customLong("compare-export"), help: ArgumentHelp("With --compare: no window; render the comparison (the view, wipe, difference, labels) at the reference's frame rate to this movie file (H.264), with the sound of --compare-export-audio, then exit.", valueName: "OUT.mp4"))
    var compareExport: String?

    @Option(name: .customLong("compare-export-audio"), help: ArgumentHelp("Whose sound an export carries: a (the reference, default), b, both (A left, B right) or no.", valueName: "a|b|both|no"))
    var compareExportAudio: CompareExportAudioChoice = .a

    @Option(name: .customLong("compare-wipe"), help: ArgumentHelp("The wipe's divider, 0 to 1 of the width (or height).", valueName: "POSITION"))
    var compareWipe = 0.5

    @Option(name: .customLong("compare-wipe-orientation"), help: ArgumentHelp("The wipe's divider: vertical (A on the left) or horizontal (A above).", valueName: "vertical|horizontal"))
    var compareWipeOrientation: CompareState.WipeOrientation = .vertical

    @Flag(help: "With two files and --compare-metrics-out: no window; decode both as fast as the cores allow, write the metrics CSV and print a summary.")
    var scan = false

    @Option(help: ArgumentHelp("Show a scope of the focused tile's picture (FFmpeg's histogram, waveform or vectorscope) at the window's top right; the h key cycles it.", valueName: "none|histogram|waveform|vectorscope"))
    var scope: ScopeKind = .none

    @Flag(help: "Start with the first player in Picture in Picture (Ctrl+p does it later).")
    var pip = false

    @Option(name: .customLong("max-pip"), help: "How many Picture in Picture windows may be open at once.")
    var maxPip = 4

    @Flag(name: .customLong("playlist-loop"), help: "Start the list again after the last file, without a gap.")
    var playlistLoop = false

    @Flag(name: .customLong("keep-open"), help: "Stay open at the end instead of quitting.")
    var keepOpen = false

    @Option(help: ArgumentHelp("With nothing to play: no quits; yes opens the window and waits for files (and stays open at the end); once waits, then quits when what was opened has played. Default: yes without files or in pseudo-gui mode, else no.", valueName: "no|yes|once"))
    var idle: IdleMode?

    @Option(name: .customLong("player-operation-mode"), help: ArgumentHelp("cplayer: a terminal player (quits at the end); pseudo-gui: a desktop app, as the desktop entry starts it (--idle=yes).", valueName: "cplayer|pseudo-gui"))
    var playerOperationMode: OperationMode = .cplayer

    @Option(help: ArgumentHelp("The window title, with mpv's property expansion: ${media-title}, ${NAME:fallback}, ${?NAME:text}, ${!NAME:text}.", valueName: "TEXT"))
    var title: String?

    @Flag(help: "Open the camera roll: every video in the Videos folder and on mounted phones and cards, newest first (Ctrl+L).")
    var library = false

    @Flag(name: .customLong("pip-auto"), help: "Minimizing the window while a video plays moves it into Picture in Picture; restoring the window brings it back.")
    var pipAuto = false

    @Option(name: .customLong("input-ipc-server"), help: ArgumentHelp("Listen on this Unix socket for mpv's JSON IPC commands (implies --keep-open).", valueName: "PATH"))
    var inputIPCServer: String?

    @Option(name: .customLong("forward-buffer"), help: "Seconds of media to read ahead (default: 1 from a file, 3 from the network).")
    var forwardBuffer: Double?

    @Option(help: ArgumentHelp("Play the first C seconds of each file, one after another (a composition).", valueName: "C"))
    var clip: Double?

    @Option(help: ArgumentHelp("Crossfade the files by F seconds: each fades in while the one before fades out.", valueName: "F"))
    var crossfade: Double?

    @Option(name: .customLong("crossfade-curve"), help: "How crossfades ramp the volume: linear or equal-power.")
    var crossfadeCurve: RampCurve = .linear

    @Option(help: ArgumentHelp("Play a composition described in a JSON file (see docs/compositions.md).", valueName: "FILE"))
    var composition: String?

    @Option(name: .customLong("export-audio"), help: ArgumentHelp("Render the composition to a 32-bit float WAV file and exit, without a window.", valueName: "OUT.wav"))
    var exportAudio: String?

    @Flag(name: .customLong("skip-bad"), help: "Leave out composition sources that cannot be opened instead of stopping.")
    var skipBad = false

    @Flag(name: [.short, .long], help: "Show FFmpeg's own messages too.")
    var verbose = false

    @Option(name: .customLong("max-resolution"), help: ArgumentHelp("Choose the best HLS variant no larger than this.", valueName: "WxH"))
    var maxResolution: Geometry?

    @Option(name: .customLong("max-bitrate"), help: ArgumentHelp("Choose the best HLS variant at or under this bit rate (2M, 800k, 1500000).", valueName: "RATE"))
    var maxBitrate: BitRate?

    @Option(name: .customLong("stream-cache-size"), help: ArgumentHelp("Bytes of HLS segments kept in memory so loops do not download again (64M, 500k; 0 turns it off). Default: three minutes of the variant.", valueName: "BYTES"))
    var streamCacheSize: BitRate?

    @Option(name: .customLong("frame-cache-size"), help: ArgumentHelp("Bytes of decoded frames kept around a seek while paused, so steps back (,) and forward come from memory instead of decoding from the keyframe again (256M by default: 80 frames of 1080p; 0 turns it off). Playing backward the default is 1G (at most an eighth of the memory); given, it bounds both.", valueName: "BYTES"))
    var frameCacheSize: BitRate?

    @Option(name: .customLong("audio-trim"), help: ArgumentHelp("Samples cut from the start and end of every pass of audio alone in MPEG-TS, HLS or ADTS, which cannot say their encoder's priming and padding (FFmpeg's AAC encoder: 1024 at the start). Default: none, every decoded sample plays.", valueName: "START,END"))
    var audioTrim: SampleTrim?

    @Option(name: .customLong("screenshot-dir"), help: "Where s and S save screenshots (default: the XDG pictures folder).")
    var screenshotDir: String?

    @Flag(name: .customLong("no-resume"), help: "Start at the beginning even where Shift+Q remembered a position.")
    var noResume = false

    @Flag(name: .customLong("no-remember"), help: "Neither use nor save the volume, mute and window size and place of the last run ($XDG_STATE_HOME/deskplayer/remembered.json).")
    var noRemember = false

    @Flag(name: .customLong("no-config"), help: "Ignore input.conf and deskplayer.conf in $XDG_CONFIG_HOME/deskplayer/.")
    var noConfig = false

    @Option(help: ArgumentHelp("Preferred audio languages, best first (en,fr or eng,fre).", valueName: "LANGS"))
    var alang: String?

    @Option(help: ArgumentHelp("Preferred subtitle languages, best first; a match is shown.", valueName: "LANGS"))
    var slang: String?

    @Option(name: .customLong("sub-file"), help: ArgumentHelp("Load this subtitle file (SRT, ASS, WebVTT, PGS .sup) and show it; repeat for more.", valueName: "PATH"))
    var subFiles: [String] = []

    @Option(name: .customLong("sub-auto"), help: "Load subtitle files named like the video (movie.srt, movie.en.ass): exact or no.")
    var subAuto: SubtitleAutoload = .exact

    @Option(name: .customLong("video-rotate"), help: ArgumentHelp("Turn the video clockwise by this many degrees on top of the file's own rotation (a phone's display matrix); no shows it as stored, ignoring the file's rotation.", valueName: "0|90|180|270|no"))
    var videoRotate: VideoRotate = .degrees(0)

    @Option(help: ArgumentHelp("Deinterlace video: auto does what the stream or its frames say is interlaced (TV, DV, 1080i), yes every frame, no none. The d key cycles it.", valueName: "auto|yes|no"))
    var deinterlace: DeinterlaceMode = .auto

    @Option(name: .customLong("tone-mapping"), help: ArgumentHelp("How HDR video (PQ, HLG) is mapped to the screen: FFmpeg's tonemap curve, or no to show it unmapped.", valueName: "hable|mobius|reinhard|clip|linear|no"))
    var toneMapping: ToneMapping = .hable

    @Option(name: .customLong("vo"), help: ArgumentHelp("How pictures reach the screen: gpu uploads each video's YUV at its own size and lets SDL's accelerated renderer convert and scale it; x11 scales and converts on the CPU and draws with SDL's software renderer (cheapest without a GPU: Xvfb, llvmpipe); auto takes gpu when the OpenGL renderer is a real GPU.", valueName: "auto|gpu|x11"))
    var videoOutput: VideoOutputChoice = .auto

    @Option(name: .customLong("ui-scale"), help: ArgumentHelp("How much larger than at 96 DPI the window's own parts are drawn (control bar, OSD, panels), 0.5 to 4. Default: from the desktop's Xft.dpi, else the display's DPI (2 on a 192 DPI screen).", valueName: "X"))
    var uiScale: Double?

    @Option(help: ArgumentHelp("Hovering a seek bar shows the picture at that time, made by a decoder of its own at low priority; no shows only the time.", valueName: "yes|no"))
    var thumbnails: YesNo = .yes

    @Option(name: .customLong("small-video-decode"), help: ArgumentHelp("Video shown at half its size or less (small tiles, Picture in Picture): fast skips the H.264/HEVC loop filter (mpv's --vd-lavc-skiploopfilter=all), full decodes every detail.", valueName: "fast|full"))
    var smallVideoDecode: SmallVideoDecode = .fast

    @Option(name: .customLong("hwdec"), help: ArgumentHelp("Hardware decoding, by mpv's names: auto-safe (the default; no with --compare) uses nvdec or vaapi for H.264, HEVC, VP8, VP9 and AV1 where a device is there, silently in software elsewhere; auto any method and codec; vaapi, vdpau, nvdec, cuda (and their -copy forms) that method, saying once why it fell back; no software. Frames are copied back to memory, and any failure goes on in software with the same picture. Ctrl+h toggles auto-safe and no.", valueName: "auto-safe|auto|no|vaapi|vdpau|nvdec|cuda[-copy]"))
    var hwdec: HardwareDecoding?

    @Option(name: .customLong("audio-device"), help: ArgumentHelp("The audio device to play on, by a name --audio-device=help lists (mpv's); auto is the system's default. A device that goes away (the audio server restarts, a DAC is unplugged) is opened again every half second, and the pictures play on meanwhile.", valueName: "NAME|auto|help"))
    var audioDevice: String = AudioOutput.auto

    @Option(help: ArgumentHelp("Show a camera live in a tile, as a file plays: /dev/videoN, or any FFmpeg input device as FORMAT:URL (lavfi:testsrc2=size=1280x720:rate=30, x11grab::0.0). Alone: the first camera, in the largest mode up to 1920x1080 that reaches 30 fps. R records it.", valueName: "DEVICE"))
    var camera: String?

    @Option(name: .customLong("camera-format"), help: ArgumentHelp("The camera's mode instead of the automatic choice (--camera-list shows them).", valueName: "WxH@FPS[:mjpeg|yuyv|h264]"))
    var cameraFormat: String?

    @Flag(name: .customLong("camera-list"), help: "List the cameras with their modes (the automatic choice marked) and the microphones, then exit.")
    var cameraList = false

    @Option(help: ArgumentHelp("The microphone recorded with the camera: a PulseAudio/PipeWire source name (--camera-list lists them), or FORMAT:URL (lavfi:sine=frequency=1000). Alone, or by default: the desktop's default source.", valueName: "SOURCE"))
    var microphone: String?

    @Flag(name: .customLong("no-microphone"), help: "Record the camera's picture only.")
    var noMicrophone = false

    @Option(name: .customLong("record-to"), help: ArgumentHelp("Where R writes camera recordings (default: $XDG_VIDEOS_DIR/DeskPlayer).", valueName: "DIR"))
    var recordTo: String?

    func validate() throws {
        if let cameraFormat, CameraModeRequest(cameraFormat) == nil {
            throw ValidationError("--camera-format must be WxH@FPS, optionally :mjpeg, :yuyv or :h264 (1280x720@30:mjpeg)")
        }
        if cameraFormat != nil && camera == nil { throw ValidationError("--camera-format needs --camera") }
        if microphone != nil && noMicrophone { throw ValidationError("--microphone and --no-microphone contradict each other") }
        if let volume, !(0...100).contains(volume) { throw ValidationError("--volume must be between 0 and 100") }
        guard PlaybackSpeed.range.contains(speed) else {
            throw ValidationError("--speed must be between \(PlaybackSpeed.range.lowerBound) and \(Int(PlaybackSpeed.range.upperBound))")
        }
        if let start, start < 0 || !start.isFinite { throw ValidationError("--start must be 0 or more seconds") }
        if let quitAfter, quitAfter < 0 || !quitAfter.isFinite {
            throw ValidationError("--quit-after must be 0 or more seconds")
        }
        if let uiScale, !UIScale.range.contains(uiScale) { throw ValidationError("--ui-scale must be between 0.5 and 4") }
        if let forwardBuffer, !(forwardBuffer > 0 && forwardBuffer.isFinite) { throw ValidationError("--forward-buffer must be positive") }
        if scan && (files.count != 2 || compareMetricsOut == nil) {
            throw ValidationError("--scan needs exactly two files (the reference first) and --compare-metrics-out FILE.csv")
        }
        if !scan && compare == nil && (compareMetrics != nil || compareMetricsOut != nil) {
            throw ValidationError("--compare-metrics and --compare-metrics-out need --compare or --scan")
        }
        if compare != nil && files.count < 2 {
            throw ValidationError("--compare needs two files or more: the reference, then what to compare with it")
        }
        if compare == nil && compareAlign != .no { throw ValidationError("--compare-align needs --compare") }
        if compareExport != nil && compare == nil { throw ValidationError("--compare-export needs --compare MODE and its files") }
        guard (0...1).contains(compareWipe) else { throw ValidationError("--compare-wipe must be between 0 and 1") }
        guard CompareState.shiftRange.contains(compareShift) else { throw ValidationError("--compare-shift must be within a day") }
        guard CompareState.gainRange.contains(compareDiffGain) else {
            throw ValidationError("--compare-diff-gain must be between 0 and \(Int(CompareState.gainRange.upperBound))")
        }
        if let clip, !(clip > 0) || !clip.isFinite { throw ValidationError("--clip must be more than 0 seconds") }
        if let crossfade, !(crossfade >= 0) || !crossfade.isFinite { throw ValidationError("--crossfade must be 0 or more seconds") }
        if composition != nil && !files.isEmpty { throw ValidationError("--composition takes no files: the JSON file names its sources") }
        if exportAudio != nil && !isComposition { throw ValidationError("--export-audio needs a composition: --crossfade, --clip or --composition") }
        if isComposition && layout != nil { throw ValidationError("a composition plays in one player: --layout does not apply") }
    }

    /// What to do with nothing to play: as asked, else wait in the window
    /// when started with nothing or as a desktop app.
    var idleMode: IdleMode {
        if let idle { return idle }
        return playerOperationMode == .pseudoGUI || (files.isEmpty && !isComposition) ? .yes : .no
    }

    /// The command line describes one composition rather than files to play.
    var isComposition: Bool { composition != nil || crossfade != nil || clip != nil }

    func run() throws {
        if audioDevice == "help" {
            // mpv's --audio-device=help: the list, then exit.
            throw ExitCode(AudioOutput.printDeviceList() ? 0 : 1)
        }
        if cameraList { throw ExitCode(CameraOption.printList()) }
        var options = self
        if let camera {
            // The camera plays first, in a tile of its own, as a file would.
            switch CameraOption.location(for: camera, format: cameraFormat.flatMap(CameraModeRequest.init)) {
            case .success(let location): options.files.insert(location, at: 0)
            case .failure(let problem):
                PlayerApp.printError(problem.message)
                throw ExitCode(1)
            }
        }
        let code = PlayerApp(options: options).run()
        if code != 0 { throw ExitCode(code) }
    }
}

extension DeskPlayerCommand {
    /// Options whose value may be a negative number (`--speed -1` is then
    /// refused by its range, not read as an unknown option `-1`).
    static let numericOptions: Set<String> = ["--speed", "--start", "--ab-loop-a", "--ab-loop-b"]

    /// mpv's options that only quiet or shape its terminal output, and the
    /// ones client libraries pass when they start mpv themselves
    /// (`--really-quiet`, `--msg-level=ipc=v`, `--terminal=no`,
    /// `--force-window`, `--no-audio-display`): DeskPlayer prints only
    /// errors and always has its window, so they are accepted and change nothing.
    static let terminalOptions: Set<String> = ["really-quiet", "quiet", "msg-level", "msg-color", "msg-module", "msg-time",
                                               "terminal", "input-terminal", "force-window", "audio-display"]

    /// Whether `argument` is one of `terminalOptions` (`--term-*` too), in
    /// any of mpv's spellings: `--NAME`, `--no-NAME`, `--NAME=VALUE`.
    static func isTerminalOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("--") else { return false }
        var name = argument.dropFirst(2).prefix { $0 != "=" }
        if name.hasPrefix("no-") { name = name.dropFirst(3) }
        return terminalOptions.contains(String(name)) || name.hasPrefix("term-")
    }

    /// DeskPlayer's flags that are mpv's yes/no options: client libraries
    /// write them `--pause=yes`, `--keep-open=always`, `--no-mute`.
    static let yesNoFlags: Set<String> = ["pause", "mute", "keep-open", "sync", "pip", "pip-auto", "playlist-loop"]

    /// Those of them whose no is said (`--no-mute`): it wins over what was remembered.
    static let invertedFlags: Set<String> = ["mute"]

    /// A yes/no flag in mpv's spellings as DeskPlayer's: `--NAME` for yes
    /// (`=yes`, `=always`, `=true`), nothing for no (`=no`, `--no-NAME`);
    /// nil when `argument` is not one.
    static func yesNoFlag(_ argument: String) -> [String]? {
        guard argument.hasPrefix("--") else { return nil }
        let body = argument.dropFirst(2)
        if body.hasPrefix("no-"), yesNoFlags.contains(String(body.dropFirst(3))) {
            return invertedFlags.contains(String(body.dropFirst(3))) ? [argument] : []
        }
        guard let eq = body.firstIndex(of: "="), yesNoFlags.contains(String(body[..<eq])) else { return nil }
        let name = String(body[..<eq])
        switch body[body.index(after: eq)...] {
        case "yes", "always", "true": return ["--" + name]
        case "no", "false": return invertedFlags.contains(name) ? ["--no-" + name] : []
        default: return nil
        }
    }

    /// mpv's bare `--idle` means `--idle=yes`; the parser wants a value.
    /// A numeric option and a value that starts with `-` become one word.
    /// Terminal options (`isTerminalOption`) are left out; yes/no flags
    /// are read as `yesNoFlag` says.
    static func bareIdle(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var skip = false
        for (i, argument) in arguments.enumerated() {
            if skip { skip = false; continue }
            if argument == "--" { return out + arguments[i...] }
            if isTerminalOption(argument) { continue }
            if let flag = yesNoFlag(argument) { out += flag; continue }
            let next = i + 1 < arguments.count ? arguments[i + 1] : nil
            if numericOptions.contains(argument), let next, next.hasPrefix("-"), next != "--" {
                out.append(argument + "=" + next)
                skip = true
                continue
            }
            if argument == "--camera", !CameraOption.namesDevice(next) {
                // mpv-style optional value: a bare --camera is the first camera.
                out.append("--camera=" + CameraOption.automatic)
                continue
            }
            if argument == "--microphone", next == nil || next?.hasPrefix("-") == true {
                out.append("--microphone=" + CameraOption.defaultMicrophone)
                continue
            }
            out.append(argument == "--idle" && !IdleMode.allValueStrings.contains(next ?? "") ? "--idle=yes" : argument)
        }
        return out
    }
}
