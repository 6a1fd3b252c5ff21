#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds dist/deskplayer_VERSION_ARCH.deb from ROOT, a tree `make install
# DESTDIR=ROOT PREFIX=/usr` filled, with dpkg-dev's own tools: dpkg-shlibdeps
# finds the Debian packages of the libraries the binary links (Depends),
# dpkg-gencontrol writes DEBIAN/control from packaging/debian/control and the
# changelog, dpkg-deb packs the tree (owned by root, without fakeroot).
#
# Reproducible: the same commit gives the same .deb, byte for byte. Every
# time in it is SOURCE_DATE_EPOCH, the commit's time (else the newest
# changelog entry's): dpkg-deb stamps the ar members with it and clamps the
# tar members' mtimes to it, and every file is touched to it first; gzip -n
# stores no name or time; modes are set, not left to the umask; md5sums is
# sorted, as dpkg-deb sorts the tar members; xz runs on one thread, so the
# stream does not depend on the cores; the binary loses the one section that
# depends on the build folder (below). packaging/check-repro.sh checks it.
# Usage: packaging/build-deb.sh ROOT OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(realpath "$1") out=$2
doc=$root/usr/share/doc/deskplayer
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null) \
        || SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l packaging/debian/changelog -S Timestamp)
fi
export SOURCE_DATE_EPOCH

# Debian's layout on top of make install's: the binary stripped (its debug
# information is most of its size), man page and changelog compressed with
# no timestamp, the copyright file, the lintian override (its file says why).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/deskplayer"
# swiftc stores an MD5 of each LLVM module in .swift_modhash, to skip
# unchanged ones when it builds again; the module's name in it is the object
# file's absolute path, so it differs from one build folder to another, and
# so does the linker's build ID, which covers it. Nothing reads it at run
# time: its bytes are zeroed where they are (removing the section with strip
# would drop the GNU_RELRO header too), and debugedit computes the build ID
# again over the result.
bin=$root/usr/bin/deskplayer
read -r offset size < <(readelf -SW "$bin" | sed -n 's/^ *\[ *[0-9]*\] *//p' | awk '$1 == ".swift_modhash" { print $4, $5 }') || true
if [ -n "${offset:-}" ]; then
    dd if=/dev/zero of="$bin" bs=1 seek=$((16#$offset)) count=$((16#$size)) conv=notrunc status=none
fi
version=$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)
debugedit --build-id --build-id-seed="deskplayer-$version" "$bin" >/dev/null
readelf -lW "$bin" | grep -q GNU_RELRO || { echo "build-deb.sh: the binary lost its GNU_RELRO header" >&2; exit 1; }
gzip -9n "$root/usr/share/man/man1/deskplayer.1" "$root/usr/share/man/man1/deskplayer-thumbnailer.1"
install -Dm644 packaging/debian/copyright "$doc/copyright"
gzip -9n < packaging/debian/changelog > "$doc/changelog.gz"
chmod 644 "$doc/changelog.gz"
# The documentation as dh_compress leaves it: files over 4 kB gzipped.
find "$doc" -type f -name '*.md' -size +4k -exec gzip -9n {} +
install -Dm644 packaging/debian/lintian-overrides "$root/usr/share/lintian/overrides/deskplayer"

# dpkg-shlibdeps and dpkg-gencontrol look for debian/control in the folder they run in.
rm -rf "$root/DEBIAN" && mkdir -p "$root/DEBIAN"
# Their side files (substvars, dpkg-gencontrol's debian/files list) go to a
# scratch folder, not into the sources.
scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
(cd packaging && dpkg-shlibdeps -T"$scratch/substvars" -e"$root/usr/bin/deskplayer" \
    && dpkg-gencontrol -pdeskplayer -T"$scratch/substvars" -f"$scratch/files" -P"$root")
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) \
    > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 755 {} +
find "$root" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

arch=$(dpkg-architecture -qDEB_HOST_ARCH)
mkdir -p "$out"
dpkg-deb --root-owner-group -Zxz --threads-max=1 --build "$root" "$out/deskplayer_${version}_${arch}.deb"
