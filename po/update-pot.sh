#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Writes po/deskplayer.pot, the template of every string a person reads in
# the window, from the sources: the arguments of tr("…"), trn("…", "…", n)
# and trNoop("…") (xgettext reads Swift's string literals as C#'s), and the
# menu table's titles, each part of an entry's path ("Video > Rotate > 0°":
# "Video", "Rotate", "0°"), which the menu translates part by part.
# Then merges it into each po/LL.po (msgmerge). Run after changing a string.
# --check changes nothing: it fails when the committed template lacks a
# string the sources have or keeps one they dropped, or a po/LL.po leaves
# one of the template's untranslated (the tests run it).
set -eu
cd "$(dirname "$0")/.."
check=no
[ "${1:-}" = --check ] && check=yes
menu=$(mktemp --suffix=.cs) log=$(mktemp) pot=$(mktemp --suffix=.pot)
trap 'rm -f "$menu" "$log" "$pot" po/.sources' EXIT
# One tr("…") line per title, with a comment saying where it is from;
# titles that are only numbers and signs ("0°", "1.25×") read the same in
# every language and are left out.
# The table's own items, then those the features add (MenuTable.entry in App).
{ cat Sources/DeskPlayer/Control/MenuTable.swift; find Sources/DeskPlayer/App -name '*.swift' | LC_ALL=C sort | xargs cat; } |
	sed -n 's/^ *\(MenuTable\.\)\{0,1\}entry("\([^"]*\)".*/\2/p' |
	tr '>' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^[-0-9.×°]*$' | awk '!seen[$0]++' |
	while IFS= read -r title; do printf '// TRANSLATORS: a context menu title (MenuTable.swift)\ntr("%s");\n' "$title"; done > "$menu"
find Sources/DeskPlayer -name '*.swift' | LC_ALL=C sort > po/.sources
xgettext --language=C# --from-code=UTF-8 --keyword --keyword=tr --keyword=trn:1,2 --keyword=trNoop \
	--add-comments=TRANSLATORS: --sort-by-file --package-name=deskplayer \
	--msgid-bugs-address=https://deskplayer.a-seed-bcce8447.example/ \
	--files-from=po/.sources "$menu" -o "$pot" 2>"$log" || { cat "$log" >&2; exit 1; }
# xgettext's C# reader warns at Swift's multi-line and raw strings, which
# hold no tr( call; anything else it says is shown.
grep -v 'unterminated string constant' "$log" >&2 || true
# The temporary file's name would change at every run.
sed -i "s|^#: $menu:[0-9]*|#: Sources/DeskPlayer/Control/MenuTable.swift|" "$pot"
if [ $check = yes ]; then
	msgcmp --use-untranslated po/deskplayer.pot "$pot" || { echo "po/deskplayer.pot lacks strings: run po/update-pot.sh" >&2; exit 1; }
	msgcmp --use-untranslated "$pot" po/deskplayer.pot || { echo "po/deskplayer.pot keeps dropped strings: run po/update-pot.sh" >&2; exit 1; }
	for po in po/*.po; do msgcmp "$po" po/deskplayer.pot || { echo "$po: untranslated strings" >&2; exit 1; }; done
	exit 0
fi
cp "$pot" po/deskplayer.pot
for po in po/*.po; do
	[ -e "$po" ] || continue
	msgmerge --quiet --update --backup=none --no-fuzzy-matching "$po" po/deskplayer.pot
done
