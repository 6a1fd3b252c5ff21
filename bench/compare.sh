#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Compare mode: CPU seconds, cores and peak RSS of each view (wipe, diff
# with each variant, flip, hstack, vstack) for two 1080p30 files (testsrc2 with
# x264 at two quality levels: the way two renditions of one master differ)
# in a 1280x720 window under Xvfb, looping; frames presented and dropped
# (late) for DeskPlayer, summed over both sides. Beside them, video-compare
# (github.com/pixop/video-compare: SDL2 + FFmpeg, the tool people use for
# this) on the same pair and window, in its split (= wipe), subtraction,
# hstack and vstack views, when a binary is found: $VIDEO_COMPARE, else
# `video-compare` on the PATH (it is not packaged by Debian: build it from
# its source with `make`; nothing here builds it). It has no flip view.
# Writes bench/out/compare.json too (BENCH_OUT sets the folder).
# Usage: bench/compare.sh [seconds]   (from the repository root, under Xvfb; `make bench`)
set -euo pipefail
SECS=${1:-15}
BIN=${DESKPLAYER_BIN:-.build/release/deskplayer}
OUTDIR=${BENCH_OUT:-bench/out}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
export SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/dev/null
VC=${VIDEO_COMPARE:-$(command -v video-compare || true)}
: > "$OUT/rows"

# Longer than the run, so video-compare (which stops at the end) plays throughout.
LEN=$((SECS + 5))
A=$OUT/a.mp4 B=$OUT/b.mp4
ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30" -f lavfi -i "sine=f=440:sample_rate=48000" -t "$LEN" \
    -c:v libx264 -preset veryfast -crf 18 -pix_fmt yuv420p -c:a aac "$A"
ffmpeg -v error -y -i "$A" -c:v libx264 -preset veryfast -crf 32 -c:a copy "$B"

printf "%-26s %9s %8s %8s %7s %9s\n" run presented dropped "CPU s" cores "RSS MB"
row() {  # key, presented, dropped, cpu, rss_kb
    printf "%-26s %9s %8s %8.2f %7.2f %9.1f\n" "$1" "$2" "$3" "$4" "$(echo "$4/$SECS" | bc -l)" "$(echo "$5/1024" | bc -l)"
    echo "$1 $2 $3 $4 $5" >> "$OUT/rows"
}
ours() {  # key, options...
    local key=$1; shift
    /usr/bin/time -f "%U %S %M" -o "$OUT/t" $BIN "$A" "$B" "$@" --geometry 1280x720+0+0 --loop inf --no-config \
        --quit-after "$SECS" --stats-json "$OUT/s.json" >/dev/null 2>"$OUT/err" || true
    read -r u s m < <(tail -n1 "$OUT/t")
    local presented dropped
    presented=$(grep -o '"framesPresented" : [0-9]*' "$OUT/s.json" | awk '{t+=$3} END {print t+0}')
    dropped=$(grep -o '"framesDropped" : [0-9]*' "$OUT/s.json" | awk '{t+=$3} END {print t+0}')
    row "$key" "$presented" "$dropped" "$(echo "$u+$s" | bc -l)" "$m"
}
# The wipe with the loupe on, the pointer in the window's middle: each side's
# frames keep a reference to their decoded picture while it is on, and the
# loupe is drawn at every frame. Turned on through the socket, as a key does.
ours_loupe() {  # key, options...
    local key=$1; shift
    rm -f "$OUT/ipc"
    /usr/bin/time -f "%U %S %M" -o "$OUT/t" $BIN "$A" "$B" "$@" --geometry 1280x720+0+0 --loop inf --no-config \
        --quit-after "$SECS" --stats-json "$OUT/s.json" --input-ipc-server "$OUT/ipc" >/dev/null 2>"$OUT/err" &
    local pid=$!
    for _ in $(seq 50); do [ -S "$OUT/ipc" ] && break; sleep 0.1; done
    xdotool mousemove 640 360 2>/dev/null || true
    printf '{"command":["set_property","compare-loupe",true]}\n' | socat - "UNIX-CONNECT:$OUT/ipc" >/dev/null || true
    wait $pid || true
    read -r u s m < <(tail -n1 "$OUT/t")
    local presented dropped
    presented=$(grep -o '"framesPresented" : [0-9]*' "$OUT/s.json" | awk '{t+=$3} END {print t+0}')
    dropped=$(grep -o '"framesDropped" : [0-9]*' "$OUT/s.json" | awk '{t+=$3} END {print t+0}')
    row "$key" "$presented" "$dropped" "$(echo "$u+$s" | bc -l)" "$m"
}
theirs() {  # key, options...
    local key=$1; shift
    # SIGINT at the end: it quits as when its window is closed.
    /usr/bin/time -f "%U %S %M" -o "$OUT/t" timeout -s INT "$SECS" "$VC" -w 1280x720 "$@" "$A" "$B" \
        >/dev/null 2>"$OUT/err" || true
    read -r u s m < <(grep -v "^Command" "$OUT/t" | tail -n1)
    row "$key" - - "$(echo "$u+$s" | bc -l)" "$m"
}

ours deskplayer_wipe --compare wipe
ours_loupe deskplayer_wipe_loupe --compare wipe
ours deskplayer_diff_rgb --compare diff
ours deskplayer_diff_luma --compare diff --compare-diff luma --compare-diff-gain 4
ours deskplayer_diff_heat --compare diff --compare-diff heat --compare-diff-gain 4
ours deskplayer_flip --compare flip
ours deskplayer_hstack --compare hstack
ours deskplayer_vstack --compare vstack
if [ -n "$VC" ] && [ -x "$VC" ]; then
    theirs video_compare_split
    theirs video_compare_subtraction -S
    theirs video_compare_hstack -m hstack
    theirs video_compare_vstack -m vstack
else
    echo "video-compare: not found (set VIDEO_COMPARE to its binary, built from github.com/pixop/video-compare)"
fi

python3 - "$OUTDIR/compare.json" "$SECS" "$OUT/rows" "${VC:-}" <<'PY'
import json, sys
path, secs, rows_file, vc = sys.argv[1:5]
secs = float(secs)
rows = {}
for line in open(rows_file):
    key, presented, dropped, cpu, rss = line.split()
    row = {"cpu_s": round(float(cpu), 2), "cores": round(float(cpu) / secs, 2), "peak_rss_mb": round(int(rss) / 1024, 1)}
    if presented != "-":
        row["frames_presented"], row["frames_dropped"] = int(presented), int(dropped)
    rows[key] = row
pairs = {"deskplayer_wipe": "video_compare_split", "deskplayer_wipe_loupe": "video_compare_split", "deskplayer_diff_rgb": "video_compare_subtraction",
         "deskplayer_diff_luma": "video_compare_subtraction", "deskplayer_diff_heat": "video_compare_subtraction",
         "deskplayer_flip": "video_compare_split",
         "deskplayer_hstack": "video_compare_hstack", "deskplayer_vstack": "video_compare_vstack"}
for ours, theirs in pairs.items():
    if ours in rows and theirs in rows and rows[theirs]["cpu_s"]:
        rows[ours]["cpu_ratio_to_video_compare"] = round(rows[ours]["cpu_s"] / rows[theirs]["cpu_s"], 2)
        rows[ours]["rss_ratio_to_video_compare"] = round(rows[ours]["peak_rss_mb"] / rows[theirs]["peak_rss_mb"], 2)
json.dump({"compare": {"clips": "testsrc2 1920x1080 30 fps, x264 veryfast crf 18 (A) and crf 32 (B), AAC",
                       "window": "1280x720", "seconds": secs, "video_compare": vc or None, "runs": rows}},
          open(path, "w"), indent=2)
for ours, theirs in pairs.items():
    r = rows.get(ours, {})
    if "cpu_ratio_to_video_compare" in r:
        print(f"{ours}: {r['cpu_ratio_to_video_compare']}x video-compare's CPU ({theirs}), "
              f"{r['rss_ratio_to_video_compare']}x its RSS")
PY
