#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `deskplayer --compare VIEW A B --compare-export OUT.mp4` (no window: both
# files decoded again, each side scaled and the view drawn by the window's
# compositing code, labels included, H.264 in RGB by libx264rgb, A's sound
# in AAC) beside ffmpeg running the equivalent filter graph with the same
# encoder settings in the same run, for a 1080p30 pair of 10 s (the demo
# scaled up, x264 CRF 16, against x264 at 1.5 Mbit/s):
#   wipe:   [0:v]crop=960:1080:0:0[a];[1:v][a]overlay=0:0
#   hstack: [0:v][1:v]hstack
#   diff:   [0:v]format=gbrp[a];[1:v]format=gbrp[b];[a][b]blend=all_mode=difference
# Each is timed RUNS times, alternating; the best wall time is the figure
# (the machine is shared), with its CPU seconds, and the speed against
# real time (10 s of video). Writes bench/out/compare_export.json too.
# Usage: bench/compare_export.sh   (from the repository root; `make bench`)
set -euo pipefail
BIN=${BIN:-.build/release/deskplayer}
OUTDIR=${BENCH_OUT:-bench/out}
RUNS=${RUNS:-3}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
ff() { ffmpeg -nostdin -v error -y "$@"; }
ff -i assets/demo.mp4 -vf scale=1920:1080 -c:v libx264 -preset veryfast -crf 16 -c:a copy "$OUT/a.mp4"
ff -i "$OUT/a.mp4" -c:v libx264 -preset veryfast -b:v 1500k -c:a copy "$OUT/b.mp4"
ENC=(-c:v libx264rgb -pix_fmt bgr0 -preset ultrafast -crf 12 -tune psnr -c:a aac -b:a 192k)

measure() {  # label, command...
    local label=$1; shift
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f "%U %S %M" -o "$OUT/time" "$@" >/dev/null 2>"$OUT/err" || { cat "$OUT/err" >&2; exit 1; }
    end=$(date +%s.%N)
    read -r user sys rss < <(tail -n1 "$OUT/time")
    echo "$label $(echo "$end - $start" | bc -l) $(echo "$user + $sys" | bc -l) $rss"
}

declare -A GRAPH=(
    [wipe]="[0:v]crop=960:1080:0:0[a];[1:v][a]overlay=0:0"
    [hstack]="[0:v][1:v]hstack"
    [diff]="[0:v]format=gbrp[a];[1:v]format=gbrp[b];[a][b]blend=all_mode=difference"
)
for view in wipe hstack diff; do
    for run in $(seq "$RUNS"); do
        measure "$view deskplayer" $BIN --no-config --compare "$view" "$OUT/a.mp4" "$OUT/b.mp4" \
            --compare-export "$OUT/dp-$view.mp4" >> "$OUT/results"
        measure "$view ffmpeg" ffmpeg -nostdin -v error -y -i "$OUT/a.mp4" -i "$OUT/b.mp4" \
            -filter_complex "${GRAPH[$view]}" -map 0:a "${ENC[@]}" "$OUT/ff-$view.mp4" >> "$OUT/results"
    done
    frames=$(ffprobe -v error -select_streams v -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$OUT/dp-$view.mp4")
    echo "frames $view $frames" >> "$OUT/results"
done
python3 - "$OUTDIR/compare_export.json" "$OUT/results" "$RUNS" "${GRAPH[wipe]}" "${GRAPH[hstack]}" "${GRAPH[diff]}" <<'PY'
import json, sys
path, results, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
graphs = dict(zip(("wipe", "hstack", "diff"), sys.argv[4:7]))
times, frames = {}, {}
for line in open(results):
    parts = line.split()
    if parts[0] == "frames":
        frames[parts[1]] = int(parts[2])
        continue
    view, tool, wall, cpu, rss = parts
    times.setdefault((view, tool), []).append((float(wall), float(cpu), int(rss)))
rows = []
print(f"Export of a 1080p30 pair, 10 s (libx264rgb CRF 12 ultrafast, AAC), best wall time of {runs} runs:")
print(f"{'view':<7} {'frames':>6} {'DeskPlayer s':>13} {'ffmpeg s':>9} {'ratio':>6} {'DP CPU s':>9} {'ffmpeg CPU s':>13} {'DP x real time':>15}")
for view in ("wipe", "hstack", "diff"):
    dp = min(times[(view, "deskplayer")]); fm = min(times[(view, "ffmpeg")])
    n = frames[view]
    row = {"view": view, "frames": n, "ffmpeg_graph": graphs[view],
           "deskplayer": {"wall_s": round(dp[0], 2), "cpu_s": round(dp[1], 2), "peak_rss_mb": round(dp[2] / 1024, 1),
                          "all_wall_s": [round(t[0], 2) for t in times[(view, "deskplayer")]]},
           "ffmpeg": {"wall_s": round(fm[0], 2), "cpu_s": round(fm[1], 2), "peak_rss_mb": round(fm[2] / 1024, 1),
                      "all_wall_s": [round(t[0], 2) for t in times[(view, "ffmpeg")]]},
           "wall_ratio_deskplayer_to_ffmpeg": round(dp[0] / fm[0], 2),
           "deskplayer_times_real_time": round(n / 30 / dp[0], 2)}
    rows.append(row)
    print(f"{view:<7} {n:>6} {dp[0]:>13.2f} {fm[0]:>9.2f} {dp[0]/fm[0]:>6.2f} {dp[1]:>9.2f} {fm[1]:>13.2f} {n/30/dp[0]:>15.2f}")
json.dump({"compare_export": {"pair": "1080p30, 10 s: demo scaled up (x264 CRF 16) vs x264 1.5 Mbit/s, with sound",
                              "encoder": "libx264rgb -pix_fmt bgr0 -preset ultrafast -crf 12 -tune psnr, AAC 192k",
                              "runs": runs, "rows": rows}}, open(path, "w"), indent=2)
PY
