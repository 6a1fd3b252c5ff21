#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Tiles: N copies of a 720p30 clip in one 1920x1080 window under Xvfb,
# looping: frames presented and dropped, CPU seconds and peak RSS. Three
# clips: the bundled demo (flat colours, cheap to decode) for SECS seconds,
# and two made here with ffmpeg as cameras make detail, for FINE_SECS:
# "fine" (testsrc2, x264 veryfast) and "grain" (the same with moving film
# grain: the decoder's worst case). Beside them in the same run: 4 ffplay
# and 4 mpv --vo=x11 processes on the same clips; one 1080p30 fine stream
# in a 1280x720 window for DeskPlayer, mpv --vo=x11 and ffplay; DeskPlayer's
# GPU path forced on the software OpenGL (llvmpipe: what it costs without a
# GPU); where the CPU goes in the 9-tile fine run (perf, by library); and
# the largest offset between two synced tiles of different frame rates.
# Writes bench/out/tiles.json too (BENCH_OUT sets the folder).
# Usage: bench/tiles.sh [seconds] [fine seconds]   (from the repository root, under Xvfb; `make bench`)
set -euo pipefail
SECS=${1:-10}
FINE_SECS=${2:-20}
BIN=.build/release/deskplayer
OUTDIR=${BENCH_OUT:-bench/out}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/dev/null
: > "$OUT/rows"  # key presented dropped cpu rss_kb seconds (presented/dropped "-" when not known)

DEMO=assets/demo.mp4
FINE=$OUT/fine.mp4 GRAIN=$OUT/grain.mp4 FINE1080=$OUT/fine1080.mp4
make_clip() {  # out, size, extra video filter
    ffmpeg -v error -y -f lavfi -i "testsrc2=size=$2:rate=30" -f lavfi -i "sine=f=440:d=10" -t 10 \
        -vf "${3:-null}" -c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac "$1"
}
make_clip "$FINE" 1280x720
make_clip "$GRAIN" 1280x720 "noise=alls=8:allf=t"
make_clip "$FINE1080" 1920x1080

printf "%-34s %9s %8s %7s %8s %7s %9s\n" run presented dropped "drop %" "CPU s" cores "RSS MB"
row() {  # key, label, presented, dropped, cpu, rss_kb, seconds
    local pct="-"
    [ "$3" != "-" ] && pct=$(awk -v p="$3" -v d="$4" 'BEGIN {printf "%.2f", (p + d) ? 100 * d / (p + d) : 0}')
    printf "%-34s %9s %8s %7s %8.2f %7.2f %9.1f\n" "$2" "$3" "$4" "$pct" "$5" "$(echo "$5/$7" | bc -l)" "$(echo "$6/1024" | bc -l)"
    echo "$1 $3 $4 $5 $6 $7" >> "$OUT/rows"
}
deskplayer() {  # key, label, seconds, files and options...
    local key=$1 label=$2 secs=$3; shift 3
    /usr/bin/time -f "%U %S %M" -o "$OUT/t" $BIN "$@" --layout grid --geometry 1920x1080+0+0 --loop inf \
        --quit-after "$secs" --stats-json "$OUT/s.json" >/dev/null 2>&1 || true
    read -r u s m < <(tail -n1 "$OUT/t")
    local presented dropped
    presented=$(grep -o '"framesPresented" : [0-9]*' "$OUT/s.json" | awk '{t+=$3} END {print t+0}')
    dropped=$(grep -o '"framesDropped" : [0-9]*' "$OUT/s.json" | awk '{t+=$3} END {print t+0}')
    row "$key" "$label" "$presented" "$dropped" "$(echo "$u+$s" | bc -l)" "$m" "$secs"
}
copies() { for _ in $(seq "$1"); do printf '%s ' "$2"; done; }
run4() {  # key, label, seconds, command... : four processes at once, summed CPU, largest RSS
    local key=$1 label=$2 secs=$3; shift 3
    for i in 1 2 3 4; do /usr/bin/time -f "%U %S %M" -o "$OUT/p$i" "$@" >/dev/null 2>"$OUT/e$i" & done
    wait
    read -r cpu rss < <(grep -hv "^Command" "$OUT"/p? | awk '{cpu+=$1+$2; if ($3>rss) rss=$3} END {print cpu, rss}')
    row "$key" "$label" - - "$cpu" "$rss" "$secs"
}
one() {  # key, label, command... : one process for FINE_SECS
    local key=$1 label=$2; shift 2
    /usr/bin/time -f "%U %S %M" -o "$OUT/t" "$@" >/dev/null 2>&1 || true
    read -r u s m < <(tail -n1 "$OUT/t")
    row "$key" "$label" - - "$(echo "$u+$s" | bc -l)" "$m" "$FINE_SECS"
}

for n in 1 4 9 12 16; do
    # shellcheck disable=SC2046
    deskplayer "deskplayer_${n}_tiles" "DeskPlayer demo $n tiles" "$SECS" $(copies "$n" "$DEMO")
done
for clip in fine grain; do
    file=$FINE; [ "$clip" = grain ] && file=$GRAIN
    for n in 1 4 9 16; do
        # shellcheck disable=SC2046
        deskplayer "${clip}_${n}_tiles" "DeskPlayer $clip $n tiles" "$FINE_SECS" $(copies "$n" "$file")
    done
done
# shellcheck disable=SC2046
deskplayer fine_9_tiles_full_decode "DeskPlayer fine 9, full decode" "$FINE_SECS" $(copies 9 "$FINE") --small-video-decode full
deskplayer fine_1_tile_gpu_llvmpipe "DeskPlayer fine 1, --vo gpu (llvmpipe)" "$FINE_SECS" "$FINE" --vo gpu
# Looping forever, stopped after the time (their -t/--length would restart with each loop).
for clip in demo fine; do
    file=$DEMO secs=$SECS; [ "$clip" = fine ] && file=$FINE secs=$FINE_SECS
    key=""; [ "$clip" = fine ] && key="fine_"
    run4 "${key}ffplay_x4" "ffplay x4 $clip (960x540 each)" "$secs" timeout -s INT "$secs" ffplay -v error -x 960 -y 540 -loop 0 "$file"
    run4 "${key}mpv_x4" "mpv --vo=x11 x4 $clip" "$secs" timeout -s INT "$secs" mpv --really-quiet --no-config --ao=null \
        --vo=x11 --geometry=960x540 --loop-file=inf "$file"
done
one stream_1080p_deskplayer "1080p30 in 1280x720: DeskPlayer" $BIN "$FINE1080" --geometry 1280x720+0+0 --loop inf \
    --quit-after "$FINE_SECS"
one stream_1080p_mpv "1080p30 in 1280x720: mpv --vo=x11" timeout -s INT "$FINE_SECS" mpv --really-quiet --no-config \
    --ao=null --vo=x11 --geometry=1280x720+0+0 --loop-file=inf "$FINE1080"
one stream_1080p_ffplay "1080p30 in 1280x720: ffplay" timeout -s INT "$FINE_SECS" ffplay -v error -an -x 1280 -y 720 \
    -loop 0 "$FINE1080"
echo "(ffplay and mpv: CPU summed over the four processes, RSS of the largest; they report no drop count here)"

# Where the CPU goes: 9 fine tiles under perf, by library.
: > "$OUT/split"
if command -v perf >/dev/null; then
    # shellcheck disable=SC2046
    perf record -q -F 499 -o "$OUT/perf.data" $BIN $(copies 9 "$FINE") --layout grid --geometry 1920x1080+0+0 \
        --loop inf --quit-after 10 >/dev/null 2>&1 || true
    perf report -i "$OUT/perf.data" --sort dso --stdio 2>/dev/null | awk '/%/ {gsub("%", "", $1); print $2, $1}' > "$OUT/split" || true
    awk '{ if ($1 ~ /libavcodec/) d+=$2; else if ($1 ~ /libswscale/) s+=$2;
           else if ($1 ~ /SDL2|libX11|libxcb|libc\.so/) p+=$2; else if ($1 ~ /kernel/) k+=$2; else o+=$2 }
         END { printf "9 fine tiles, perf: decode (libavcodec) %.1f %%, scale (libswscale) %.1f %%, present (SDL, X, libc copies) %.1f %%, kernel %.1f %%, other %.1f %%\n", d, s, p, k, o }' "$OUT/split"
else
    echo "(perf not installed: no profile split)"
fi

# Sync: the 30 fps demo beside the 25 fps compare clip in one sync group.
$BIN $DEMO assets/compare.mp4 --layout side-by-side --sync --loop inf --geometry 1920x1080+0+0 \
    --quit-after "$SECS" --stats-json "$OUT/sync.json" >/dev/null 2>&1 || true
sync=$(grep -o '"maxSyncErrorMs" : [0-9.e+-]*' "$OUT/sync.json" | awk '{print $3}')
echo "Sync group (30 fps beside 25 fps, $SECS s): largest offset between the tiles ${sync:-?} ms (half a frame at 30 fps: 16.7 ms)"

python3 - "$OUTDIR/tiles.json" "$SECS" "$FINE_SECS" "$OUT/rows" "$OUT/split" "${sync:-}" <<'EOF'
import json, sys
path, secs, fine_secs, rows_file, split_file, sync = sys.argv[1:7]
rows = {}
for line in open(rows_file):
    key, presented, dropped, cpu, rss, seconds = line.split()
    row = {"frames_presented": None if presented == "-" else int(presented),
           "frames_dropped": None if dropped == "-" else int(dropped),
           "cpu_s": round(float(cpu), 2), "cores": round(float(cpu) / float(seconds), 2),
           "peak_rss_mb": round(int(rss) / 1024, 1), "seconds": float(seconds)}
    if row["frames_presented"] is not None:
        total = row["frames_presented"] + row["frames_dropped"]
        row["dropped_percent"] = round(100 * row["frames_dropped"] / total, 2) if total else 0
    rows[key] = row
ratios = {"ffplay_x4": "deskplayer_4_tiles", "mpv_x4": "deskplayer_4_tiles",
          "fine_ffplay_x4": "fine_4_tiles", "fine_mpv_x4": "fine_4_tiles",
          "stream_1080p_mpv": "stream_1080p_deskplayer", "stream_1080p_ffplay": "stream_1080p_deskplayer"}
for key, ours in ratios.items():
    if key in rows and ours in rows and rows[ours]["cpu_s"]:
        rows[key]["cpu_ratio_to_deskplayer"] = round(rows[key]["cpu_s"] / rows[ours]["cpu_s"], 2)
split = {}
for line in open(split_file):
    lib, share = line.split()
    split[lib] = float(share)
json.dump({"tiles": {"clips": {"demo": "assets/demo.mp4", "fine": "testsrc2 1280x720 30 fps, x264 veryfast",
                               "grain": "the same with noise=alls=8:allf=t",
                               "fine1080": "testsrc2 1920x1080 30 fps, x264 veryfast"},
                     "seconds": float(secs), "fine_seconds": float(fine_secs), "window": "1920x1080", "runs": rows,
                     "perf_9_fine_tiles_percent_by_library": split,
                     "sync_max_offset_ms": float(sync) if sync else None}}, open(path, "w"), indent=2)
EOF
