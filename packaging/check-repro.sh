#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package twice from the commit checked out and compares
# the two byte for byte (`make deb-repro`):
#   1. `make deb` here (an incremental release build);
#   2. `make deb` in a fresh clone of HEAD in another folder, built from
#      scratch, with the same dependency versions (Package.resolved): a
#      different path and no build products shared, so anything the build
#      folder, the time or the order of work leaks into the package shows.
# With --quick, step 2 packs this folder's binary again instead: it checks the
# packaging alone (dist-files, install, build-deb.sh), in a few seconds.
# The tree must be clean: a binary built from uncommitted changes says
# "-dirty" in --version, one from the clone does not. Exit 0 when equal;
# otherwise it says where the two differ.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=no
[ "${1:-}" = --quick ] && quick=yes
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "check-repro.sh: the tree has uncommitted changes; commit them first" >&2
    exit 2
fi
scratch=$(mktemp -d /tmp/deskplayer-repro.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
keep() { trap - EXIT; rm -rf "$scratch/clone"; echo "check-repro.sh: both packages are in $scratch" >&2; }

started=$(date +%s)
make --no-print-directory deb
cp dist/deskplayer_*.deb "$scratch/first.deb"
echo "check-repro.sh: first package in $(( $(date +%s) - started )) s"

started=$(date +%s)
if [ $quick = yes ]; then
    rm -rf .build/deb .build/dist dist
    make --no-print-directory deb
    cp dist/deskplayer_*.deb "$scratch/second.deb"
else
    git clone --quiet --no-hardlinks . "$scratch/clone"
    [ -f Package.resolved ] && cp Package.resolved "$scratch/clone/"
    make --no-print-directory -C "$scratch/clone" deb
    cp "$scratch"/clone/dist/deskplayer_*.deb "$scratch/second.deb"
fi
echo "check-repro.sh: second package ($([ $quick = yes ] && echo "same binary" || echo "fresh clone, from scratch")) in $(( $(date +%s) - started )) s"

if cmp "$scratch/first.deb" "$scratch/second.deb"; then
    echo "check-repro.sh: reproducible: $(basename "$(ls dist/deskplayer_*.deb)") $(sha256sum < "$scratch/first.deb" | cut -c1-16)… both times"
    exit 0
fi

# Where they differ, as diffoscope would say it (diffoscope itself when installed).
echo "check-repro.sh: the two packages differ" >&2
keep
if command -v diffoscope >/dev/null; then
    diffoscope "$scratch/first.deb" "$scratch/second.deb" >&2 || true
    exit 1
fi
for n in first second; do
    mkdir -p "$scratch/$n"
    dpkg-deb -R "$scratch/$n.deb" "$scratch/$n"
    ar t "$scratch/$n.deb" > "$scratch/$n.members"
    dpkg-deb --fsys-tarfile "$scratch/$n.deb" | tar -tv --full-time > "$scratch/$n.listing"
done
diff "$scratch/first.members" "$scratch/second.members" >&2 || echo "  (ar members differ)" >&2
diff "$scratch/first.listing" "$scratch/second.listing" >&2 || echo "  (file list, modes, owners or times differ)" >&2
diff "$scratch/first/DEBIAN/control" "$scratch/second/DEBIAN/control" >&2 || true
(cd "$scratch/first" && find . -type f | LC_ALL=C sort) | while read -r f; do
    if ! cmp -s "$scratch/first/$f" "$scratch/second/$f"; then
        echo "  differs: $f ($(cmp -l "$scratch/first/$f" "$scratch/second/$f" 2>/dev/null | wc -l) bytes)" >&2
        case $f in
            ./usr/bin/*) diff <(strings -n 8 "$scratch/first/$f") <(strings -n 8 "$scratch/second/$f") | head -n 20 >&2 || true ;;
            *.gz) diff <(zcat "$scratch/first/$f") <(zcat "$scratch/second/$f") | head -n 20 >&2 || true ;;
        esac
    fi
done
echo "check-repro.sh: for the whole picture: diffoscope (apt install diffoscope) on the two packages" >&2
exit 1
