#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The CPU cost of live metrics: two 1080p30 files (the demo scaled up, x264
# CRF 16, against x264 at 1.5 Mbit/s; 10 s) played compared (--compare wipe)
# for SECONDS under Xvfb, without and then with --compare-metrics psnr,ssim
# (the measuring runs at SCHED_IDLE: only on what playback leaves). For each:
# CPU seconds, frames presented and dropped (late) from --stats-json, and
# with metrics how many of the 300 frames were measured by the end
# (--compare-metrics-out). Writes bench/out/live_metrics.json (BENCH_OUT sets the folder).
# Usage: bench/live_metrics.sh   (from the repository root under xvfb-run; `make bench`)
set -euo pipefail
BIN=${BIN:-.build/release/deskplayer}
OUTDIR=${BENCH_OUT:-bench/out}
SECONDS_PLAYED=${SECONDS_PLAYED:-10}
mkdir -p "$OUTDIR"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
ff() { ffmpeg -nostdin -v error -y "$@"; }
ff -i assets/demo.mp4 -vf scale=1920:1080 -c:v libx264 -preset veryfast -crf 16 -c:a copy "$OUT/a.mp4"
ff -i "$OUT/a.mp4" -c:v libx264 -preset veryfast -b:v 1500k -c:a copy "$OUT/b.mp4"

run() {  # label, extra options...
    local label=$1; shift
    SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/dev/null /usr/bin/time -f "%U %S" -o "$OUT/time-$label" \
        $BIN --no-config --no-resume --compare wipe --geometry 1280x720+0+0 --quit-after "$SECONDS_PLAYED" \
        --stats-json "$OUT/stats-$label.json" "$@" "$OUT/a.mp4" "$OUT/b.mp4" >/dev/null 2>"$OUT/err-$label" || true
}
run plain
run metrics --compare-metrics psnr,ssim --compare-metrics-out "$OUT/live.csv"
python3 - "$OUTDIR/live_metrics.json" "$OUT" "$SECONDS_PLAYED" <<'PY'
import json, os, sys
path, folder, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
rows = {}
for label in ("plain", "metrics"):
    user, sys_ = map(float, open(os.path.join(folder, f"time-{label}")).read().split()[-2:])
    players = json.load(open(os.path.join(folder, f"stats-{label}.json")))["players"]
    rows[label] = {"cpu_s": round(user + sys_, 2),
                   "frames_presented": [p.get("framesPresented") for p in players],
                   "frames_dropped": [p.get("framesDropped") for p in players]}
csv = os.path.join(folder, "live.csv")
rows["metrics"]["frames_measured"] = max(0, sum(1 for _ in open(csv)) - 1) if os.path.exists(csv) else 0
print(f"Two 1080p30 files compared for {seconds:g} s (CPU seconds; frames presented / dropped per tile):")
for label, row in rows.items():
    extra = f", {row['frames_measured']} of 300 frames measured" if "frames_measured" in row else ""
    print(f"  {label:<8} CPU {row['cpu_s']:6.2f} s  presented {row['frames_presented']}  dropped {row['frames_dropped']}{extra}")
json.dump({"live_metrics": {"pair": "demo scaled to 1080p30 (x264 CRF 16) vs x264 1.5 Mbit/s, 10 s", "seconds": seconds,
                            "rows": rows}}, open(path, "w"), indent=2)
PY
