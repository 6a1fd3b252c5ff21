// swift-tools-version:6.0
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
        // libavformat, libavcodec, libswresample, libswscale, libavfilter,
        // libavutil: the module map links each of them; pkg-config only
        // supplies the paths.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libswscale-dev", "libavfilter-dev"])]
        ),
        // libass: lays out and rasterises ASS/SSA subtitles, and every text
        // subtitle format once FFmpeg's decoders have turned it into ASS.
        .systemLibrary(
            name: "CLibass",
            pkgConfig: "libass",
            providers: [.apt(["libass-dev"])]
        ),
        // libdbus-1, D-Bus's reference library: MPRIS on the session bus.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .executableTarget(
            name: "DeskPlayer",
            dependencies: [
                "CSDL2",
                "CFFmpeg",
                "CLibass",
                "CDBus",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Collections", package: "swift-collections"),
                .product(name: "Yams", package: "Yams"),
            ],
            plugins: ["BuildInfo"]
        ),
        // Writes BuildInfo.swift at each build: the version (from
        // packaging/debian/changelog) and the commit, for --version.
        .plugin(
            name: "BuildInfo",
            capability: .buildTool()
        ),
        .testTarget(
            name: "DeskPlayerTests",
            dependencies: ["DeskPlayer"],
            // corpus/: inputs `make fuzz` found, read by path; the Python
            // files are helpers the tests run (a test server, a subtitle
            // maker, an mpv IPC client).
            exclude: ["hls_server.py", "make_pgs.py", "mpv_client.py", "corpus"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
