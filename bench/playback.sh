#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CPU seconds and peak RSS for playing the bundled 720p demo (10 s) in one
# window under the same Xvfb, DeskPlayer beside ffplay and mpv, in one run.
# Writes the figures to bench/out/playback.json too (BENCH_OUT sets the folder).
# Usage: bench/playback.sh [seconds]   (run from the repository root; `make bench`)
set -euo pipefail
SECS=${1:-10}
FILE=assets/demo.mp4
BIN=.build/release/deskplayer
OUTDIR=${BENCH_OUT:-bench/out}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

measure() {  # name, command...
    local name=$1; shift
    /usr/bin/time -f "%U %S %M" -o "$OUT/$name.time" "$@" >/dev/null 2>"$OUT/$name.err" || true
    read -r user sys rss < <(tail -n1 "$OUT/$name.time")
    cpu=$(echo "$user + $sys" | bc -l)
    echo "$name $cpu $rss"
}

run_all() {
    export SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/dev/null
    measure deskplayer $BIN $FILE --quit-after "$SECS" --geometry 1280x720+0+0 --stats-json "$OUT/stats.json"
    measure ffplay ffplay -v error -autoexit -t "$SECS" -x 1280 -y 720 -left 0 -top 0 $FILE
    measure mpv mpv --really-quiet --no-config --ao=null --vo=x11 --length="$SECS" --geometry=1280x720+0+0 $FILE
}

results=$(run_all)
echo "Playing $FILE for $SECS s under Xvfb (1280x720 window):"
printf "%-12s %10s %12s %10s\n" player "CPU s" "peak RSS MB" "CPU ratio"
base=$(echo "$results" | awk '$1=="deskplayer"{print $2}')
echo "$results" | while read -r name cpu rss; do
    printf "%-12s %10.2f %12.1f %10.2f\n" "$name" "$cpu" "$(echo "$rss/1024" | bc -l)" "$(echo "$cpu/$base" | bc -l)"
done
if [ -f "$OUT/stats.json" ]; then
    echo "DeskPlayer stats:"; grep -E "timeToFirstFrameMs|framesDropped|framesPresented|maxAVOffsetMs|renderer" "$OUT/stats.json"
fi
echo "$results" > "$OUT/results"
python3 - "$OUTDIR/playback.json" "$SECS" "$OUT/results" "$OUT/stats.json" <<'EOF'
import json, os, sys
path, secs, results, stats = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = {}
for line in open(results):
    name, cpu, rss = line.split()
    rows[name] = {"cpu_s": round(float(cpu), 2), "peak_rss_mb": round(int(rss) / 1024, 1)}
base = rows["deskplayer"]["cpu_s"]
for row in rows.values():
    row["cpu_ratio_to_deskplayer"] = round(row["cpu_s"] / base, 2) if base else None
out = {"file": "assets/demo.mp4", "seconds": secs, "window": "1280x720", "players": rows}
if os.path.exists(stats):
    entry = json.load(open(stats))["players"][0]
    out["deskplayer_stats"] = {k: entry.get(k) for k in
                               ("framesPresented", "framesDropped", "maxAVOffsetMs", "timeToFirstFrameMs")}
json.dump({"playback": out}, open(path, "w"), indent=2)
EOF
