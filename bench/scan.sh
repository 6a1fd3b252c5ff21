#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `deskplayer --scan` (PSNR and SSIM of every frame, CSV written) beside the
# same measurement by the ffmpeg command line in the same run:
#   ffmpeg -i A -i B -lavfi "[1:v]split[d0][d1];[0:v][d0]psnr[p];[p][d1]ssim" -f null -
# for a 720p30 pair (the demo, and the demo encoded again by another
# encoder at a low bit rate: MPEG-4 part 2) and a 1080p30 pair (the demo
# scaled up, x264 CRF 16, against x264 at 1.5 Mbit/s). Each is timed RUNS
# times, alternating; the best wall time of each is the figure (the
# machine is shared), with its CPU seconds. Both decode with FFmpeg's
# frame threads and run psnr/ssim on FFmpeg's SIMD code; DeskPlayer also
# decodes the two files in parallel with the metrics.
# Writes bench/out/scan.json too (BENCH_OUT sets the folder).
# Usage: bench/scan.sh   (from the repository root; `make bench`)
set -euo pipefail
BIN=${BIN:-.build/release/deskplayer}
OUTDIR=${BENCH_OUT:-bench/out}
RUNS=${RUNS:-3}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
ff() { ffmpeg -nostdin -v error -y "$@"; }
ff -i assets/demo.mp4 -an -c:v copy "$OUT/720a.mp4"
ff -i assets/demo.mp4 -an -c:v mpeg4 -b:v 1M "$OUT/720b.mp4"
ff -i assets/demo.mp4 -an -vf scale=1920:1080 -c:v libx264 -preset veryfast -crf 16 "$OUT/1080a.mp4"
ff -i "$OUT/1080a.mp4" -c:v libx264 -preset veryfast -b:v 1500k "$OUT/1080b.mp4"

measure() {  # label, command...
    local label=$1; shift
    local start end
    start=$(date +%s.%N)
    /usr/bin/time -f "%U %S %M" -o "$OUT/time" "$@" >/dev/null 2>"$OUT/err" || { cat "$OUT/err" >&2; exit 1; }
    end=$(date +%s.%N)
    read -r user sys rss < <(tail -n1 "$OUT/time")
    echo "$label $(echo "$end - $start" | bc -l) $(echo "$user + $sys" | bc -l) $rss"
}

for pair in 720 1080; do
    frames=$(ffprobe -v error -select_streams v -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$OUT/${pair}a.mp4")
    echo "frames $pair $frames" >> "$OUT/results"
    for run in $(seq "$RUNS"); do
        measure "$pair deskplayer" $BIN --no-config --scan "$OUT/${pair}a.mp4" "$OUT/${pair}b.mp4" \
            --compare-metrics-out "$OUT/scan.csv" >> "$OUT/results"
        measure "$pair ffmpeg" ffmpeg -nostdin -v error -i "$OUT/${pair}a.mp4" -i "$OUT/${pair}b.mp4" \
            -lavfi "[1:v]split[d0][d1];[0:v][d0]psnr[p];[p][d1]ssim" -f null - >> "$OUT/results"
    done
done
python3 - "$OUTDIR/scan.json" "$OUT/results" "$RUNS" <<'PY'
import json, sys
path, results, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
times, frames = {}, {}
for line in open(results):
    parts = line.split()
    if parts[0] == "frames":
        frames[parts[1]] = int(parts[2])
        continue
    pair, tool, wall, cpu, rss = parts
    times.setdefault((pair, tool), []).append((float(wall), float(cpu), int(rss)))
rows = []
print(f"Scan of a pair (PSNR and SSIM of every frame), best wall time of {runs} runs:")
print(f"{'pair':<6} {'frames':>6} {'DeskPlayer s':>13} {'ffmpeg s':>9} {'ratio':>6} {'DP CPU s':>9} {'ffmpeg CPU s':>13} {'DP fps':>7}")
for pair in ("720", "1080"):
    dp = min(times[(pair, "deskplayer")]); fm = min(times[(pair, "ffmpeg")])
    n = frames[pair]
    row = {"pair": f"{pair}p30", "frames": n,
           "deskplayer": {"wall_s": round(dp[0], 2), "cpu_s": round(dp[1], 2), "peak_rss_mb": round(dp[2] / 1024, 1),
                          "all_wall_s": [round(t[0], 2) for t in times[(pair, "deskplayer")]]},
           "ffmpeg": {"wall_s": round(fm[0], 2), "cpu_s": round(fm[1], 2), "peak_rss_mb": round(fm[2] / 1024, 1),
                      "all_wall_s": [round(t[0], 2) for t in times[(pair, "ffmpeg")]]},
           "wall_ratio_deskplayer_to_ffmpeg": round(dp[0] / fm[0], 2)}
    rows.append(row)
    print(f"{pair+'p':<6} {n:>6} {dp[0]:>13.2f} {fm[0]:>9.2f} {dp[0]/fm[0]:>6.2f} {dp[1]:>9.2f} {fm[1]:>13.2f} {n/dp[0]:>7.1f}")
json.dump({"scan": {"pairs": "720p30: demo vs MPEG-4 1 Mbit/s; 1080p30: demo scaled up (x264 CRF 16) vs x264 1.5 Mbit/s",
                    "ffmpeg_command": "ffmpeg -i A -i B -lavfi \"[1:v]split[d0][d1];[0:v][d0]psnr[p];[p][d1]ssim\" -f null -",
                    "runs": runs, "rows": rows}}, open(path, "w"), indent=2)
PY
