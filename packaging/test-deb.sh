#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs dist/deskplayer_*.deb on this machine with dpkg -i, checks what it
# installed, then purges it and checks that nothing of it is left. As root, on
# a machine where DeskPlayer is not installed already (CI's; it refuses
# otherwise, so it never replaces someone's own copy).
# Usage: packaging/test-deb.sh PACKAGE.deb
set -euo pipefail
deb=$1
fail() { echo "test-deb.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (dpkg -i)"
if dpkg-query -W -f '${Status}' deskplayer 2>/dev/null | grep -q installed; then
    fail "deskplayer is installed on this machine already; not replacing it"
fi

# What the package holds, and the folders that are only its own.
mapfile -t files < <(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; s|/$||' | grep -v '^$')
dpkg -i "$deb"
trap 'dpkg --purge deskplayer >/dev/null 2>&1 || true' EXIT
for f in "${files[@]}"; do [ -e "$f" ] || fail "$f is in the package but not installed"; done
for f in /usr/bin/deskplayer /usr/share/man/man1/deskplayer.1.gz /usr/share/doc/deskplayer/copyright \
        /usr/share/doc/deskplayer/changelog.gz /usr/share/applications/deskplayer.desktop \
        /usr/share/metainfo/org.deskplayer.DeskPlayer.metainfo.xml \
        /usr/share/icons/hicolor/48x48/apps/deskplayer.png /usr/share/icons/hicolor/scalable/apps/deskplayer.svg \
        /usr/share/bash-completion/completions/deskplayer /usr/share/zsh/vendor-completions/_deskplayer \
        /usr/share/fish/vendor_completions.d/deskplayer.fish /usr/share/thumbnailers/deskplayer.thumbnailer \
        /usr/share/man/man1/deskplayer-thumbnailer.1.gz /usr/bin/deskplayer-thumbnailer \
        /usr/share/locale/de/LC_MESSAGES/deskplayer.mo /usr/share/locale/ja/LC_MESSAGES/deskplayer.mo; do
    [ -f "$f" ] || fail "$f was not installed"
done
[ "$(man -w deskplayer)" = /usr/share/man/man1/deskplayer.1.gz ] || fail "man does not find deskplayer(1)"
# The documentation (gzipped when over 4 kB, as Debian's policy asks) and
# the metainfo's releases, made from the changelog.
for f in README.md docs/options.md docs/install.md; do
    [ -f /usr/share/doc/deskplayer/$f ] || [ -f /usr/share/doc/deskplayer/$f.gz ] || fail "$f is not in /usr/share/doc/deskplayer"
done
package_version=$(dpkg-deb -f "$deb" Version)
grep -q "<release version=\"$package_version\"" /usr/share/metainfo/org.deskplayer.DeskPlayer.metainfo.xml \
    || fail "the metainfo has no release $package_version"
man deskplayer 2>/dev/null | grep -q -- '--content-mode' || fail "the man page does not list the options"

# The binary runs without the Swift toolchain: it needs no library from
# /opt/swift, and runs with a clean environment and /opt/swift hidden behind
# an empty tmpfs in a private mount namespace.
if ldd /usr/bin/deskplayer | grep -q -e /opt/swift -e 'not found'; then
    ldd /usr/bin/deskplayer >&2; fail "the binary needs libraries from the toolchain"
fi
if readelf -d /usr/bin/deskplayer | grep -E 'NEEDED' | grep -q -i swift; then fail "the binary links a Swift library dynamically"; fi
version=$(unshare --mount sh -c 'mount -t tmpfs none /opt/swift && env -i /usr/bin/deskplayer --version') \
    || fail "deskplayer --version failed with /opt/swift hidden"
echo "installed: deskplayer $version"
# The thumbnailer the desktop runs (by the name of its link, with a file URI).
scratch=$(mktemp -d)
ffmpeg -nostdin -v error -f lavfi -i testsrc=size=320x180:rate=25:duration=1 -c:v mpeg4 "$scratch/clip.mp4"
unshare --mount sh -c "mount -t tmpfs none /opt/swift && env -i /usr/bin/deskplayer-thumbnailer -s 128 file://$scratch/clip.mp4 $scratch/clip.png" \
    && [ -s "$scratch/clip.png" ] || fail "deskplayer-thumbnailer wrote no picture"
rm -rf "$scratch"

dpkg --purge deskplayer
trap - EXIT
left=()
for f in "${files[@]}"; do
    # Shared folders (/usr/share/icons/hicolor/48x48/apps, ...) stay: other packages own them too.
    if [ -e "$f" ] && ! { [ -d "$f" ] && dpkg -S "$f" >/dev/null 2>&1; }; then left+=("$f"); fi
done
[ -d /usr/share/doc/deskplayer ] && left+=(/usr/share/doc/deskplayer)
ls /var/lib/dpkg/info/deskplayer.* >/dev/null 2>&1 && left+=(/var/lib/dpkg/info/deskplayer.*)
[ ${#left[@]} = 0 ] || fail "left after dpkg --purge: ${left[*]}"
echo "purged: nothing of deskplayer is left"
