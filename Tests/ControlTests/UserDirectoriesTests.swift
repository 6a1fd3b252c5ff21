// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import Control
import TestSupport

/// Where recordings go: the desktop's videos folder from user-dirs.dirs.
@Suite struct UserDirectoriesTests {
    @Test func userDirsLinesAreRead() {
        let text = """
        # This file is written by xdg-user-dirs-update
        XDG_DESKTOP_DIR="$HOME/Desktop"
        XDG_VIDEOS_DIR="$HOME/Vidéos"
        XDG_MUSIC_DIR="/srv/music"
        XDG_PUBLICSHARE_DIR="$HOME/"
        XDG_BROKEN_DIR=$HOME/unquoted
        XDG_RELATIVE_DIR="relative"
        """
        let dirs = UserDirectories.parse(text, home: "/home/ann")
        #expect(dirs["XDG_VIDEOS_DIR"] == "/home/ann/Vidéos")
        #expect(dirs["XDG_MUSIC_DIR"] == "/srv/music")
        #expect(dirs["XDG_PUBLICSHARE_DIR"] == nil, "$HOME/ means turned off")
        #expect(dirs["XDG_BROKEN_DIR"] == nil && dirs["XDG_RELATIVE_DIR"] == nil)
    }

    @Test func theVideosFolderComesFromTheConfigFileElseHome() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        var env = ["HOME": dir.path, "XDG_CONFIG_HOME": config.path]
        #expect(UserDirectories.videos(environment: env).path == dir.appendingPathComponent("Videos").path)
        try Data("XDG_VIDEOS_DIR=\"$HOME/Films\"\n".utf8).write(to: config.appendingPathComponent("user-dirs.dirs"))
        #expect(UserDirectories.videos(environment: env).path == dir.path + "/Films")
        env["XDG_VIDEOS_DIR"] = "/elsewhere"
        #expect(UserDirectories.videos(environment: env).path == "/elsewhere")
    }
}
