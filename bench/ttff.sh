#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Time to first frame: milliseconds from starting the player to the first
# video frame of the 720p demo being on the (Xvfb) screen, DeskPlayer beside
# ffplay and mpv in the same run, RUNS runs each (median, min, max).
#
# Method, the same for all three: bench/firstframe.c forks the player with a
# 1280x720 window at +0+0 and reads a 160x80 screen area inside the demo's
# green bar with XGetImage about every millisecond until it matches that area
# as ffmpeg decodes it (mean difference under 12 of 255: a black or blank
# window does not match; the area is the same in every frame of the first
# second, so a player that drops its first frames at start, as ffplay does,
# is timed at the first frame it shows). This includes process start, opening
# and probing, decoding and the window appearing.
# DeskPlayer's own --stats-json figure (timeToFirstFrameMs: from the item's
# creation to the frame being chosen for display) is shown beside it.
# Usage: bench/ttff.sh [runs]   (run from the repository root under xvfb-run; `make bench`)
set -euo pipefail
RUNS=${1:-7}
FILE=assets/demo.mp4
BIN=.build/release/deskplayer
OUTDIR=${BENCH_OUT:-bench/out}
mkdir -p "$OUTDIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cc -O2 -o "$TMP/firstframe" bench/firstframe.c -lX11
X=235 Y=440 W=160 H=80
ffmpeg -v error -i "$FILE" -frames:v 1 -vf "crop=$W:$H:$X:$Y" -f rawvideo -pix_fmt rgb24 "$TMP/expected.rgb"
export SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE=/dev/null

measure() {  # name, command...: one run, prints the milliseconds (or "timeout")
    "$TMP/firstframe" $X $Y $W $H "$TMP/expected.rgb" -- "$@" || true
}
declare -A times
internal=()
for _ in $(seq "$RUNS"); do
    # Interleaved, so a slow moment of the machine hits every player alike.
    times[deskplayer]+="$(measure $BIN $FILE --geometry 1280x720+0+0 --quit-after 1 --no-config \
        --stats-json "$TMP/stats.json") "
    internal+=("$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["players"][0].get("timeToFirstFrameMs", ""))' \
        "$TMP/stats.json" 2>/dev/null || true)")
    rm -f "$TMP/stats.json"
    times[ffplay]+="$(measure ffplay -v error -autoexit -t 1 -x 1280 -y 720 -left 0 -top 0 $FILE) "
    times[mpv]+="$(measure mpv --no-config --really-quiet --ao=null --vo=x11 --osd-level=0 --length=1 \
        --geometry=1280x720+0+0 $FILE) "
done

python3 - "$OUTDIR/ttff.json" "$RUNS" "${times[deskplayer]}" "${times[ffplay]}" "${times[mpv]}" "${internal[*]}" <<'EOF'
import json, statistics, sys
path, runs = sys.argv[1], int(sys.argv[2])
def parse(text):
    vals = [float(v) for v in text.split() if v != "timeout"]
    return vals, sum(1 for v in text.split() if v == "timeout")
rows = {}
for name, text in zip(["deskplayer", "ffplay", "mpv"], sys.argv[3:6]):
    vals, timeouts = parse(text)
    rows[name] = {"median_ms": statistics.median(vals) if vals else None, "min_ms": min(vals, default=None),
                  "max_ms": max(vals, default=None), "runs_ms": vals, "timeouts": timeouts}
own, _ = parse(sys.argv[6])
rows["deskplayer"]["stats_json_ttff_median_ms"] = statistics.median(own) if own else None
base = rows["deskplayer"]["median_ms"]
for row in rows.values():
    row["ratio_to_deskplayer"] = round(row["median_ms"] / base, 2) if base and row["median_ms"] else None
print(f"Time to first frame: demo.mp4 (720p) from process start to its first frame on screen, {runs} runs each")
print(f"{'player':12} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'x DeskPlayer':>13} {'timeouts':>9}")
fmt = lambda v: f"{v:.1f}" if v is not None else "n/a"
for name, row in rows.items():
    print(f"{name:12} {fmt(row['median_ms']):>10} {fmt(row['min_ms']):>8} {fmt(row['max_ms']):>8} "
          f"{fmt(row['ratio_to_deskplayer']):>13} {row['timeouts']:>9}")
print(f"(DeskPlayer's own --stats-json timeToFirstFrameMs, item created to frame chosen: median "
      f"{fmt(rows['deskplayer']['stats_json_ttff_median_ms'])} ms)")
json.dump({"ttff": {"file": "assets/demo.mp4", "runs": runs, "method": "fork to the first video frame on the X screen "
           "(bench/firstframe.c: a 160x80 area of the green bar matched against ffmpeg's decode)", "players": rows}},
          open(path, "w"), indent=2)
EOF
