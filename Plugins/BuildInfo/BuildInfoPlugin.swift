// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import PackagePlugin

/// Gives the DeskPlayer target a generated `BuildInfo.swift`: the version,
/// read from the first entry of packaging/debian/changelog (the version's one
/// place: the package, `--version` and the man page all take it from there),
/// and the commit the sources were built from, so `deskplayer --version` says
/// what was built on every path: `swift build`, `make`, `make deb`.
///
/// A prebuild command, so it runs at every build and sees a new commit; it
/// rewrites the file only when its text changes, so an unchanged build
/// compiles nothing again. Without git or outside a clone (a source tarball)
/// the commit is "unknown"; a tree with uncommitted changes to tracked files
/// adds "-dirty", since such a binary was built from no commit.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let outputDirectory = context.pluginWorkDirectoryURL.appending(path: "generated")
        return [.prebuildCommand(
            displayName: "Writing BuildInfo.swift (version and commit)",
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: [
                "-c", Self.script, "build-info",
                package.path,
                package.appending(path: "packaging/debian/changelog").path,
                outputDirectory.path,
            ],
            outputFilesDirectory: outputDirectory
        )]
    }

    /// $1 the package folder, $2 the changelog, $3 the output folder. Only
    /// characters a version or a commit name can hold reach the Swift string.
    static let script = #"""
        set -eu
        version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$2" 2>/dev/null | tr -cd 'A-Za-z0-9.+~:_-')
        [ -n "$version" ] || version=unknown
        commit=
        # Only the package's own clone: sources unpacked inside some other repository are not its commit.
        if [ "$(git -C "$1" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$1" && pwd -P)" ]; then
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null | tr -cd '0-9a-f') || true
        fi
        if [ -z "$commit" ]; then commit=unknown
        elif [ -n "$(git -C "$1" --no-optional-locks status --porcelain --untracked-files=no 2>/dev/null)" ]; then
            commit="$commit-dirty"
        fi
        mkdir -p "$3"
        out="$3/BuildInfo.swift"
        cat > "$out.tmp" <<SWIFT
        // Written at build time by Plugins/BuildInfo; not in the repository.
        enum BuildInfo {
            /// The package version: the first entry of packaging/debian/changelog.
            static let version = "$version"
            /// The commit the sources were built from ("unknown" outside a git clone).
            static let commit = "$commit"
        }
        SWIFT
        if cmp -s "$out.tmp" "$out"; then rm -f "$out.tmp"; else mv -f "$out.tmp" "$out"; fi
        """#
}
