// swift-tools-version:6.0
// SPDX-License-Identifier: GPL-3.0-or-later
import PackageDescription

let package = Package(
    name: "DeskPlayer",
    products: [
        .executable(name: "deskplayer", targets: ["DeskPlayer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // Reads composition files (JSON is YAML) keeping each value's line for error messages.
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // SDL2 and SDL2_ttf (one module: SDL_ttf lives in SDL2's include
        // folder). No pkg-config: its only flags are that folder, which the
        // shim names, and -D_REENTRANT, which SwiftPM refuses with a warning.
        .systemLibrary(
            name: "CSDL2",
            providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev"])]
        ),
        // libavdevice, libavformat, libavcodec, libswresample, libswscale,
        // libavfilter, libavutil: the module map links each of them; pkg-config only
        // supplies the paths.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libswscale-dev", "libavfilter-dev",
                               "libavdevice-dev"])]
        ),
        // Linux's V4L2 ioctls, which list a camera's formats, sizes and rates.
        .systemLibrary(name: "CV4L2"),
        // libass: lays out and rasterises ASS/SSA subtitles, and every text
        // subtitle format once FFmpeg's decoders have turned it into ASS.
        .systemLibrary(
            name: "CLibass",
            pkgConfig: "libass",
            providers: [.apt(["libass-dev"])]
        ),
        // fontconfig: the installed fonts, in the desktop's order, that
        // on-screen text falls back to for a character its font lacks.
        .systemLibrary(
            name: "CFontconfig",
            pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]
        ),
        // GNU gettext in glibc (libintl.h): the window's words in the user's
        // language (Media/Localization.swift). Part of libc: no library to link.
        .systemLibrary(
            name: "CGettext"
        ),
        // libdbus-1, D-Bus's reference library: MPRIS on the session bus.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // The layers, each a target of its own depending only on layers
        // below it, so the compiler keeps the design (docs/architecture.md, "How it is
        // built"). The folders stay under Sources/DeskPlayer.
        //
        // Media: owners of FFmpeg objects, and the value types every layer
        // above shares (MediaTime, HostTime, AudioFormat, PictureBuffer).
        .target(
            name: "Media",
            dependencies: ["CFFmpeg", "CLibass", "CV4L2", "CGettext"],
            path: "Sources/DeskPlayer/Media"
        ),
        // Playback: items, players, clock, mixer, composition. No SDL.
        .target(
            name: "Playback",
            dependencies: ["Media", "CFFmpeg", .product(name: "Collections", package: "swift-collections")],
            path: "Sources/DeskPlayer/Playback"
        ),
        // Analysis: what reads media apart from playing it: thumbnails and
        // their store, the camera roll's scan, playlist previews, metrics
        // (scanned and live), scopes, alignment, frame grabs and export
        // inputs. Nothing in Playback uses it; it opens files through what
        // Playback exposes (`package`), and runs on threads of its own. No SDL.
        .target(
            name: "Analysis",
            dependencies: ["Playback", "Media", "CFFmpeg", .product(name: "Collections", package: "swift-collections")],
            path: "Sources/DeskPlayer/Analysis"
        ),
        // Output: SDL's windows, textures and the audio device. It needs
        // nothing of Playback: the device pulls from a source it defines.
        .target(
            name: "Output",
            dependencies: ["Media", "CSDL2", "CFontconfig"],
            path: "Sources/DeskPlayer/Output"
        ),
        // UI: the main and PiP windows' views, layout and input.
        .target(
            name: "UI",
            dependencies: ["Output", "Analysis", "Playback", "Media", "CSDL2"],
            path: "Sources/DeskPlayer/UI"
        ),
        // Control: the command vocabulary, key bindings, IPC and D-Bus
        // messages: plain values and sockets that need only Media's errors
        // and locks, so both UI and App can produce them.
        .target(
            name: "Control",
            dependencies: ["Media", "CDBus"],
            path: "Sources/DeskPlayer/Control"
        ),
        // App: the command line, the controller that applies commands, the
        // property table, tiles, MPRIS; the only target that sees them all.
        .target(
            name: "App",
            dependencies: [
                "Control", "UI", "Output", "Analysis", "Playback", "Media", "CSDL2", "CFFmpeg",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Sources/DeskPlayer/App",
            plugins: ["BuildInfo"]
        ),
        // The program: only the entry point.
        .executableTarget(
            name: "DeskPlayer",
            dependencies: ["App"],
            path: "Sources/DeskPlayer/Main"
        ),
        // Writes BuildInfo.swift into App at each build: the version (from
        // packaging/debian/changelog) and the commit, for --version.
        .plugin(
            name: "BuildInfo",
            capability: .buildTool()
        ),
        // The tests, a target per layer like the code: each sees its own
        // layer and those below it, so a test sits in the lowest layer whose
        // code it exercises (docs/architecture.md, "How it is built"). A test that runs
        // the app binary, or uses App's types, is in AppTests.
        //
        // What every layer's tests share: fixture paths, running tools and
        // the binary, PPM pictures, the media the tests make with the ffmpeg
        // CLI, the HLS test server. Plain imports (no @testable): this
        // target is built by every `swift build`, release ones too. The
        // Python and shell files are helpers the tests run (the HLS server,
        // a subtitle maker, mpv IPC clients, an audio server killed and restarted).
        .target(
            name: "TestSupport",
            dependencies: ["Media"],
            path: "Tests/TestSupport",
            exclude: ["hls_server.py", "make_pgs.py", "mpv_client.py", "aio_mpv_client.py", "mpv_jsonipc_start.py",
                      "mpv_socat_client.sh", "audio_outage.py", "busy_camera.py"]
        ),
        // What the suites that read a pipeline directly share: opening an
        // item as a tile does, draining its pipeline.
        .target(
            name: "PlaybackTestSupport",
            dependencies: ["TestSupport", "Playback", "Media"],
            path: "Tests/PlaybackTestSupport"
        ),
        .testTarget(
            name: "MediaTests",
            dependencies: ["TestSupport", "Media", "CFFmpeg"]
        ),
        .testTarget(
            name: "PlaybackTests",
            dependencies: ["PlaybackTestSupport", "TestSupport", "Playback", "Media", "CFFmpeg"]
        ),
        .testTarget(
            name: "AnalysisTests",
            dependencies: ["PlaybackTestSupport", "TestSupport", "Analysis", "Playback", "Media", "CFFmpeg"]
        ),
        .testTarget(
            name: "UITests",
            dependencies: ["TestSupport", "UI", "Output", "Analysis", "Playback", "Media"]
        ),
        .testTarget(
            name: "ControlTests",
            dependencies: ["TestSupport", "Control", "UI", "Output", "Playback", "Media"]
        ),
        .testTarget(
            name: "AppTests",
            dependencies: ["DeskPlayer", "App", "Control", "UI", "Output", "Analysis", "Playback", "Media", "CFFmpeg",
                           "PlaybackTestSupport", "TestSupport"],
            // corpus/: inputs `make fuzz` found, read by path.
            exclude: ["corpus"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
