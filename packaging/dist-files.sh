#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Makes the files `make install` and `make deb` install beside the binary,
# from the binary itself and the assets, into OUT:
#   deskplayer.1                       the man page: swift-argument-parser's
#                                      generate-manual tool over the command-line definitions
#   deskplayer.bash _deskplayer deskplayer.fish
#                                      completions: the binary's --generate-completion-script
#   icons/SIZE.png                     the icon rasterised from assets/deskplayer.svg
#                                      (FFmpeg's librsvg decoder) at each hicolor size
# Usage: packaging/dist-files.sh BINARY GENERATE_MANUAL OUT
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$1 generate_manual=$2 out=$3
rm -rf "$out" && mkdir -p "$out/icons"
# A user's deskplayer.conf must not reach what is generated from the options.
export XDG_CONFIG_HOME="$out/no-config"

# The manual's date is the newest changelog entry's, so the page is the same
# whenever it is made from the same sources.
date=$(date -u -d "$(sed -n 's/^ -- .*>  //p' packaging/debian/changelog | head -n 1)" +%F)
"$generate_manual" "$binary" --date "$date" --section 1 --output-directory "$out"
# The generator lists argument-parser's implicit `help` subcommand (it is in
# --experimental-dump-help), which would read as if DeskPlayer took a
# subcommand: the synopsis loses "subcommand", the options list the help entry.
sed -i -e '/^\.Ar subcommand$/d' -e '/^\.It Em help$/,/^\.El$/d' "$out/deskplayer.1"
if grep -q 'subcommand' "$out/deskplayer.1"; then
    echo "dist-files.sh: the man page still mentions a subcommand; the generator's output changed" >&2
    exit 1
fi

# bash-completion sources its scripts: no #! line (lintian's bash-completion-with-hashbang).
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' > "$out/deskplayer.bash"
"$binary" --generate-completion-script zsh > "$out/_deskplayer"
"$binary" --generate-completion-script fish > "$out/deskplayer.fish"

for size in 16 22 24 32 48 64 128 256 512; do
    ffmpeg -v error -nostdin -y -width "$size" -height "$size" -i assets/deskplayer.svg -frames:v 1 \
        "$out/icons/$size.png"
done
