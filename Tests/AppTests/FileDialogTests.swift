// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Testing
@testable import App
import Media
import TestSupport

/// The desktop's file dialog, played by a script named zenity: its names
/// are read while it runs, so one that writes more than a pipe holds
/// (64 KiB) still ends, and past the bound its choice is refused with a
/// reason instead of being kept whole.
@Suite struct FileDialogTests {
    /// A folder holding a `zenity` that prints `count` names and exits.
    func fakeZenity(printing count: Int, in folder: URL) throws {
        let script = folder.appendingPathComponent("zenity")
        try "#!/bin/sh\ni=0\nwhile [ $i -lt \(count) ]; do echo \"/media/a-long-folder-name/file-number-$i.mkv\"; i=$((i+1)); done\n"
            .write(to: script, atomically: true, encoding: .utf8)
        #expect(chmod(script.path, 0o755) == 0)
    }

    func outcome(of dialog: FileDialog?) -> Result<[String], MediaError>? {
        var outcome: Result<[String], MediaError>?
        _ = eventually(seconds: 30) { outcome = dialog?.takeResult(); return outcome != nil }
        return outcome
    }

    @Test func namesPastWhatAPipeHoldsAreAllRead() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 5_000  // about 250 KiB of names
        try fakeZenity(printing: count, in: folder)
        let dialog = FileDialog(startingIn: folder, searchPath: folder.path)
        #expect(dialog != nil)
        let names = try #require(try outcome(of: dialog)?.get())
        #expect(names.count == count)
        #expect(names.last == "/media/a-long-folder-name/file-number-\(count - 1).mkv")
    }

    @Test func namesPastTheBoundAreRefused() throws {
        let folder = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try fakeZenity(printing: FileDialog.maxOutputBytes / 40 + 1000, in: folder)
        let result = try #require(outcome(of: FileDialog(startingIn: folder, searchPath: folder.path)))
        #expect(throws: MediaError.self) { try result.get() }
        if case .failure(let error) = result { #expect("\(error)".contains("more than 4 MiB of names")) }
    }
}
