#!/usr/bin/env bash
# Tiles: N copies of the 720p30 demo in one 1920x1080 window under Xvfb for
# SECS seconds (looping): frames dropped, CPU seconds and peak RSS; beside it
# 4 ffplay and 4 mpv --vo=x11 processes playing the same clip in the same run,
# and the largest offset between two synced tiles of different frame rates.
# Writes the figures to bench/out/tiles.json too (BENCH_OUT sets the folder).
# Usage: bench/tiles.sh [seconds]   (run from the repository root; `make bench`)
set -euo pipefail
SECS=${1:-10}
FILE=assets/demo.mp4
BIN=.build/release/deskplayer
OUTDIR=${BENCH_OUT:-bench/out}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/dev/null
: > "$OUT/rows"  # name presented dropped cpu rss_kb (presented/dropped "-" when not known)

echo "Tiles of $FILE (1280x720 30 fps) for $SECS s in a 1920x1080 window:"
printf "%-22s %8s %8s %10s %12s\n" player presented dropped "CPU s" "peak RSS MB"
for n in 1 4 9 12 16; do
    files=$(for _ in $(seq "$n"); do printf '%s ' "$FILE"; done)
    # shellcheck disable=SC2086
    /usr/bin/time -f "%U %S %M" -o "$OUT/t" $BIN $files --layout grid --geometry 1920x1080+0+0 \
        --loop inf --quit-after "$SECS" --stats-json "$OUT/s.json" >/dev/null 2>&1 || true
    read -r u s m < <(tail -n1 "$OUT/t")
    presented=$(grep -o '"framesPresented" : [0-9]*' "$OUT/s.json" | awk '{t+=$3} END {print t}')
    dropped=$(grep -o '"framesDropped" : [0-9]*' "$OUT/s.json" | awk '{t+=$3} END {print t}')
    printf "%-22s %8s %8s %10.2f %12.1f\n" "DeskPlayer $n tiles" "$presented" "$dropped" "$(echo "$u+$s" | bc -l)" "$(echo "$m/1024" | bc -l)"
    echo "deskplayer_${n}_tiles $presented $dropped $(echo "$u+$s" | bc -l) $m" >> "$OUT/rows"
    [ "$n" = 4 ] && echo "$u $s" > "$OUT/four"
done
run4() {  # key, name, command... : four processes at once, summed CPU, largest RSS
    local key=$1 name=$2; shift 2
    for i in 1 2 3 4; do /usr/bin/time -f "%U %S %M" -o "$OUT/p$i" "$@" >/dev/null 2>"$OUT/e$i" & done
    wait
    read -r u s < "$OUT/four"
    grep -hv "^Command" "$OUT"/p? | awk -v name="$name" -v ours="$(echo "$u+$s" | bc -l)" \
        '{cpu+=$1+$2; if ($3>rss) rss=$3} END {printf "%-22s %8s %8s %10.2f %12.1f   CPU %.2fx DeskPlayer 4 tiles\n", name, "-", "-", cpu, rss/1024, cpu/ours}'
    grep -hv "^Command" "$OUT"/p? | awk -v key="$key" \
        '{cpu+=$1+$2; if ($3>rss) rss=$3} END {print key, "-", "-", cpu, rss}' >> "$OUT/rows"
}
# Looping forever, stopped after SECS (their -t/--length would restart with each loop).
run4 ffplay_x4 "ffplay x4" timeout -s INT "$SECS" ffplay -v error -x 960 -y 540 -loop 0 $FILE
run4 mpv_x4 "mpv --vo=x11 x4" timeout -s INT "$SECS" mpv --really-quiet --no-config --ao=null --vo=x11 --geometry=960x540 --loop-file=inf $FILE
echo "(ffplay and mpv: CPU summed over the four processes, RSS of the largest; they report no drop count here)"

# Sync: the 30 fps demo beside the 25 fps compare clip in one sync group.
$BIN $FILE assets/compare.mp4 --layout side-by-side --sync --loop inf --geometry 1920x1080+0+0 \
    --quit-after "$SECS" --stats-json "$OUT/sync.json" >/dev/null 2>&1 || true
sync=$(grep -o '"maxSyncErrorMs" : [0-9.e+-]*' "$OUT/sync.json" | awk '{print $3}')
echo "Sync group (30 fps beside 25 fps, $SECS s): largest offset between the tiles ${sync:-?} ms (half a frame at 30 fps: 16.7 ms)"

python3 - "$OUTDIR/tiles.json" "$SECS" "$OUT/rows" "${sync:-}" <<'EOF'
import json, sys
path, secs, rows_file, sync = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = {}
for line in open(rows_file):
    name, presented, dropped, cpu, rss = line.split()
    rows[name] = {"frames_presented": None if presented == "-" else int(presented or 0),
                  "frames_dropped": None if dropped == "-" else int(dropped or 0),
                  "cpu_s": round(float(cpu), 2), "peak_rss_mb": round(int(rss) / 1024, 1)}
four = rows.get("deskplayer_4_tiles", {}).get("cpu_s")
for name, row in rows.items():
    if not name.startswith("deskplayer") and four:
        row["cpu_ratio_to_deskplayer_4_tiles"] = round(row["cpu_s"] / four, 2)
json.dump({"tiles": {"file": "assets/demo.mp4", "seconds": secs, "window": "1920x1080", "runs": rows,
                     "sync_max_offset_ms": float(sync) if sync else None}}, open(path, "w"), indent=2)
EOF
