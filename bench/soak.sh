#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Soak: a 1.5 s clip cut from the demo (640x360 30 fps, AAC; at this size four
# tiles leave the 2 shared cores some room) loops in 4 tiles for LOOPS passes
# (1000 passes: 25 minutes) while the control socket seeks, pauses, moves the
# focus and takes tiles into Picture in Picture and back. RSS, open fds and
# threads after the first minute and at the end; pass: RSS within 5 %, fds and
# threads back to the first-minute figures, the player still running and
# every command answered. Loops per tile from --stats-json (loopCount) and
# the seams of the one tile no command touches (--frame-log). Figures in
# bench/out/soak.json (BENCH_OUT sets the folder). See bench/soak.py.
# Usage: bench/soak.sh [LOOPS]   (run from the repository root under xvfb-run; `make soak SOAK_LOOPS=1000`)
set -euo pipefail
LOOPS=${1:-240}
OUTDIR=${BENCH_OUT:-bench/out}
mkdir -p "$OUTDIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ffmpeg -v error -y -i assets/demo.mp4 -t 1.5 -vf scale=640:360 -c:v libx264 -preset veryfast -g 15 \
    -c:a aac -b:a 96k -ar 48000 "$TMP/clip.mp4"
python3 bench/soak.py "$TMP/clip.mp4" "$LOOPS" --json "$OUTDIR/soak.json"
