#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes the AppStream metainfo that is installed: assets' copy with a
# <releases> block made from packaging/debian/changelog, the version's one
# place: one <release> per entry, newest first, its date the entry's
# (YYYY-MM-DD) and its bullet points as the description. Plain sh and awk,
# so `make install` needs nothing more than `make run` does.
# Usage: packaging/metainfo.sh CHANGELOG METAINFO_IN OUT
set -eu
changelog=$1 in=$2 out=$3
releases=$(awk '
    function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
    function flush() { if (item != "") { items = items "          <li>" esc(item) "</li>\n"; item = "" } }
    /^[a-z0-9][a-z0-9+.-]* \(/ {
        version = $2; gsub(/[()]/, "", version); items = ""; item = ""; next
    }
    /^  \* / { flush(); item = substr($0, 5); next }
    /^    [^ ]/ && item != "" { line = $0; sub(/^ +/, "", line); item = item " " line; next }
    /^ -- / {
        flush()
        date = $0; sub(/.*>  /, "", date)
        cmd = "date -u -d \"" date "\" +%F"; cmd | getline day; close(cmd)
        printf "    <release version=\"%s\" date=\"%s\">\n      <description>\n        <ul>\n%s        </ul>\n      </description>\n    </release>\n", version, day, items
    }
' "$changelog")
if [ -z "$releases" ]; then echo "metainfo.sh: no entry in $changelog" >&2; exit 1; fi
mkdir -p "$(dirname "$out")"
awk -v releases="$releases" '
    /^<\/component>/ { print "  <releases>"; print releases; print "  </releases>" }
    { print }
' "$in" > "$out"
